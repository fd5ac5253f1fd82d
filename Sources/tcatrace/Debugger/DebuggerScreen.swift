import ToolSupport
import TCATraceFile
import TraceFormats

/// One line of the screen: spans of text, each in a style. Text from the file is shown with
/// its terminal controls escaped, and a line is cut to the screen's width.
struct ScreenLine {
  private var spans: [(text: String, style: Terminal.Style?)] = []

  init(_ text: String = "", _ style: Terminal.Style? = nil) {
    self.add(text, style)
  }

  mutating func add(_ text: String, _ style: Terminal.Style? = nil) {
    guard !text.isEmpty else { return }
    self.spans.append((text.terminalSafe, style))
  }

  func rendered(width: Int, terminal: Terminal) -> String {
    var line = ""
    var room = width
    for (text, style) in self.spans {
      guard room > 0 else { break }
      var text = text
      if text.count > room {
        text = String(text.prefix(room - 1)) + "…"
      }
      room -= text.count
      line += style.map { terminal.paint(text, $0) } ?? text
    }
    return line
  }

  /// `text` in lines of at most `width` characters, broken between words; the lines after the
  /// first are indented by `indent` spaces.
  static func wrapped(_ text: String, width: Int, indent: Int = 0, _ style: Terminal.Style? = nil)
    -> [ScreenLine]
  {
    let lead = String(text.prefix { $0 == " " })
    var lines: [String] = []
    var line = ""
    var prefix: String { lines.isEmpty ? lead : String(repeating: " ", count: indent) }
    // NB: Widths are those of the text as shown, its controls escaped.
    for word in text.dropFirst(lead.count).split(separator: " ") {
      if !line.isEmpty, (prefix + line + " " + word).terminalSafe.count > width {
        lines.append(prefix + line)
        line = String(word)
      } else {
        line += line.isEmpty ? String(word) : " " + word
      }
    }
    lines.append(prefix + line)
    return lines.map { ScreenLine($0, style) }
  }
}

/// Draws a ``Debugger`` on a screen of `rows` × `columns`:
///
/// ```
/// Session 2 · leaky · LeakyParentFeature · 2026-01-01T00:00:00.000Z · ended
///   #1   +0.000ms view      child  buttonTapped
/// ▶ #2   +1.000ms internal  child  response  ← #1
/// ── What changed ─────────────────────
/// …
///  #2/7 · internal · child · response                    ? keys · q quit
/// ```
struct DebuggerScreen {
  let debugger: Debugger
  let terminal: Terminal
  let rows: Int
  let columns: Int

  /// The whole screen, drawn over the last one.
  func rendered() throws -> String {
    let lines = try self.lines()
    var screen = ""
    for (row, line) in lines.enumerated() {
      // NB: The line is cleared first: with wrapping off, the cursor stays on the last column
      // after a full line, and clearing after it would erase that column.
      screen +=
        "\u{1B}[\(row + 1);1H\u{1B}[2K"
        + line.rendered(width: self.columns, terminal: self.terminal)
    }
    return screen
  }

  private var listHeight: Int { max(1, min(11, (self.rows - 4) / 3)) }

  func lines() throws -> [ScreenLine] {
    guard self.rows >= 6 else { return [self.statusLine] }
    var lines = [self.header]
    lines += try self.timeline()
    let paneHeight = self.rows - lines.count - 2
    self.debugger.paneHeight = paneHeight
    let (title, pane) = try self.pane()
    lines.append(
      ScreenLine(
        "── \(title) " + String(repeating: "─", count: max(0, self.columns - title.count - 4)), .dim
      ))
    self.debugger.scroll = max(0, min(self.debugger.scroll, pane.count - paneHeight))
    let shown = pane.dropFirst(self.debugger.scroll).prefix(paneHeight)
    lines += shown
    lines += Array(repeating: ScreenLine(), count: paneHeight - shown.count)
    lines.append(self.statusLine)
    return lines
  }

  private var header: ScreenLine {
    let session = self.debugger.session
    var line = ScreenLine(
      "Session \(session.id) · \(session.name) · \(session.rootFeature) · \(session.startedAt)",
      .bold)
    line.add(session.endedAt == nil ? " · recording" : " · ended", .dim)
    return line
  }

  /// The actions around the current one, one line each.
  private func timeline() throws -> [ScreenLine] {
    let height = self.listHeight
    guard let current = self.debugger.current else {
      return [ScreenLine("  No actions yet: they appear here as the recorder writes them.", .dim)]
        + Array(repeating: ScreenLine(), count: height - 1)
    }
    let last = max(self.debugger.lastSeq, current.seq)
    let first = max(1, min(current.seq - height / 2, last - height + 1))
    let actions = try self.debugger.reader.actions(
      session: self.debugger.sessionID, from: first, through: first + height - 1,
      includeChanges: false
    )
    var lines = actions.map { action in
      var line = ScreenLine()
      if action.seq == current.seq {
        line.add("▶ ", .bold)
        line.add("#\(action.seq)".rightPadded(to: 7), .inverse)
      } else {
        line.add("  #\(action.seq)".rightPadded(to: 9))
      }
      self.describe(action, into: &line)
      return line
    }
    lines += Array(repeating: ScreenLine(), count: max(0, height - lines.count))
    return lines
  }

  private func describe(_ action: TracedAction, into line: inout ScreenLine) {
    let session = self.debugger.session
    line.add(String(cFormat: "+%.3fms", Double(action.timeNs) / 1_000_000).leftPadded(to: 11) + " ")
    line.add(action.category.rawValue.rightPadded(to: 12) + " ", action.category.style)
    line.add(
      (action.feature.isEmpty ? session.rootFeature : action.feature).rightPadded(to: 20) + " ",
      .cyan)
    line.add(action.caseName, .bold)
    if let payload = action.payload { line.add("  " + payload.singleLine) }
    if case let .effect(cause) = action.origin { line.add("  ← #\(cause)", .dim) }
    if !action.leaks.isEmpty {
      line.add("  ! \(action.leaks.count) leak\(action.leaks.count == 1 ? "" : "s")", .red)
    }
  }

  // MARK: - The pane

  private func pane() throws -> (title: String, lines: [ScreenLine]) {
    if self.debugger.showsHelp { return ("Keys", Self.help.map { ScreenLine($0) }) }
    guard let current = self.debugger.current else { return ("What changed", []) }
    switch self.debugger.pane {
    case .changes:
      return ("What action #\(current.seq) did", try self.changes(of: current))
    case .state:
      return ("The state after action #\(current.seq)", self.state(at: nil))
    case let .path(path):
      return ("\(path) after action #\(current.seq)", self.state(at: path))
    }
  }

  private func changes(of action: TracedAction) throws -> [ScreenLine] {
    var lines: [ScreenLine] = []
    var heading = ScreenLine("#\(action.seq)", .bold)
    heading.add(" · \(action.path)")
    heading.add(String(cFormat: " · at +%.3fms", Double(action.timeNs) / 1_000_000), .dim)
    lines.append(heading)
    if let payload = action.payload {
      let payloadLines = payload.split(separator: "\n", omittingEmptySubsequences: false)
      lines.append(ScreenLine("payload: " + (payloadLines.count == 1 ? payload : "")))
      if payloadLines.count > 1 { lines += payloadLines.map { ScreenLine("  " + $0) } }
    }
    switch action.origin {
    case .send:
      lines.append(ScreenLine("sent from outside the store (a view, a test)"))
    case .debugger:
      lines.append(ScreenLine("sent from the page of tcatrace serve --live (Send to the app)"))
    case let .effect(cause):
      var line = ScreenLine("sent by an effect of ")
      line.add("← #\(cause)", .bold)
      if let causeAction = try self.debugger.reader.action(
        session: self.debugger.sessionID, seq: cause)
      {
        line.add(" \(causeAction.path)")
      }
      line.add("  (h or ←: go there)", .dim)
      lines.append(line)
    }
    let consequences = try self.debugger.consequences
    if consequences.isEmpty {
      lines.append(
        ScreenLine(
          "its effects sent no action"
            + (self.debugger.lastSeq > action.seq + Debugger.consequenceWindow
              ? " in the next \(Debugger.consequenceWindow.grouped) actions" : "")
        )
      )
    } else {
      var line = ScreenLine("its effects sent ")
      line.add(consequences.prefix(20).map { "→ #\($0)" }.joined(separator: ", "), .bold)
      if consequences.count > 20 { line.add(" and \(consequences.count - 20) more") }
      line.add("  (l or →: go to the first)", .dim)
      lines.append(line)
    }
    lines.append(ScreenLine())
    if action.flight != nil {
      lines.append(
        ScreenLine(
          action.flight == .endedProcess
            ? "The process ended in its reducer; it is from the flight journal, which keeps no state changes."
            : "What it changed is not known: it is from the flight journal, which keeps no state changes.",
          .dim))
    } else if action.changes.isEmpty {
      lines.append(ScreenLine("It changed nothing in the state.", .dim))
    } else {
      lines.append(
        ScreenLine(
          "It changed \(action.changes.count) value\(action.changes.count == 1 ? "" : "s") in the state:"
        ))
      for change in action.changes {
        var line = ScreenLine("  " + change.path)
        if change.kind != .changed { line.add(" (\(change.kind.rawValue))", .dim) }
        lines.append(line)
        for value in change.old?.split(separator: "\n", omittingEmptySubsequences: false) ?? [] {
          lines.append(ScreenLine("  - " + value, .red))
        }
        for value in change.new?.split(separator: "\n", omittingEmptySubsequences: false) ?? [] {
          lines.append(ScreenLine("  + " + value, .green))
        }
      }
    }
    if !action.leaks.isEmpty {
      lines.append(ScreenLine())
      lines.append(
        ScreenLine(
          "It broke \(action.leaks.count) boundary rule\(action.leaks.count == 1 ? "" : "s"):", .red
        ))
      for leak in action.leaks {
        let offender = leak.feature.isEmpty ? self.debugger.session.rootFeature : leak.feature
        lines += ScreenLine.wrapped(
          "  ! \(leak.rule.rawValue) (\(offender)): \(leak.detail)", width: self.columns, indent: 4,
          .red
        )
      }
    }
    return lines
  }

  private func state(at path: String?) -> [ScreenLine] {
    let rendered: String
    if let path {
      switch self.debugger.state {
      case let .failure(error):
        return ScreenLine.wrapped(error.description, width: self.columns)
      case let .success(state):
        guard let found = state.node(at: path) else {
          return ScreenLine.wrapped(
            "'\(path)' is not a path in this state: paths name properties with dots and elements in brackets, as in 'login.email' or 'todos[id: 3]'.",
            width: self.columns
          )
        }
        rendered = found.rendered()
      }
    } else {
      switch self.debugger.renderedState {
      case let .failure(error):
        return ScreenLine.wrapped(error.description, width: self.columns)
      case let .success(whole):
        rendered = whole
      }
    }
    return rendered.split(separator: "\n", omittingEmptySubsequences: false).map {
      ScreenLine(String($0))
    }
  }

  // MARK: - The status line

  private var statusLine: ScreenLine {
    if let prompt = self.debugger.prompt {
      var line = ScreenLine(prompt.label, .bold)
      line.add(prompt.text + "█")
      return line
    }
    var left = " "
    if let current = self.debugger.current {
      left += "#\(current.seq)/\(self.debugger.lastSeq) · \(current.category.rawValue) · "
      left += (current.feature.isEmpty ? self.debugger.session.rootFeature : current.feature)
      left += " · \(current.caseName)"
    } else {
      left += "No actions"
    }
    switch self.debugger.pane {
    case .changes: break
    case .state: left += " · [state]"
    case let .path(path): left += " · [\(path)]"
    }
    if let find = self.debugger.find { left += " · n: \(find.description)" }
    let right = self.debugger.message ?? "? keys · q quit"
    if self.debugger.message != nil, left.count + right.count + 3 > self.columns,
      let current = self.debugger.current
    {
      // A message that does not fit beside the whole line keeps only the position beside it.
      left = " #\(current.seq)/\(self.debugger.lastSeq)"
    }
    let gap = max(2, self.columns - left.count - right.count - 1)
    var line = ScreenLine(left + String(repeating: " ", count: gap), .inverse)
    line.add(right + " ", self.debugger.message == nil ? .inverse : .yellow)
    return line
  }

  static let help = [
    "j ↓ Enter   next action                 k ↑       previous action",
    "g Home      first action                G End     last action",
    ":N or N     go to action #N",
    "/text       next action whose case path or payload holds text",
    "!           next action that broke a boundary rule (a leak)",
    "f           next action of a feature (and the features below it)",
    "c           next action of a category: view, internal, delegate, unclassified",
    "n N         the last search again, forward / backward",
    "h ←         the cause: the action whose effect sent this one (← #n)",
    "l →         the first action this one's effects sent (→ #n)",
    "d           what the action did: payload, cause, consequences, state changes, leaks",
    "s           the whole state after the action",
    "p           the value at a path of the state: login.email, todos[id: 3]",
    "Space PgDn  scroll down                 b PgUp    scroll up",
    "?           these keys                  q Ctrl-C  quit",
    "",
    "Actions a recorder appends to the session appear as it writes them.",
    "Press any key to go back.",
  ]
}
