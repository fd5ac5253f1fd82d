import ArgumentParser
import ToolSupport
import TCATraceFile
import TraceFormats

extension TCATraceCommand {
  /// `tcatrace diff A.db B.db`: two recordings of the same flow, aligned action by action.
  struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "diff",
      abstract:
        "Compare two recordings of the same flow: the first action or state change where they differ, then a summary.",
      discussion: """
        The sessions' actions are aligned by their case paths (as a text diff aligns lines: \
        the common start and end, actions that occur once in each as anchors, and at most \
        1,000 edits between two anchors; a stretch that needs more counts as only in one and \
        only in the other). Two aligned actions are alike when their payloads and the state \
        changes they caused are. Times are not compared. --time-limit also bounds the \
        alignment. Exit code 1 when the sessions differ.
        """
    )

    @OptionGroup var trace: TraceFileArguments

    @Argument(help: "The other trace file.")
    var other: String

    @Option(
      name: .long, parsing: .unconditional,
      help: ArgumentHelp(
        "The session of the first file (and of the other, without --other-session): its id or 'latest'.",
        valueName: "id|latest")
    )
    var session: SessionSelector = .latest

    @Option(
      name: .customLong("other-session"), parsing: .unconditional,
      help: ArgumentHelp(
        "The session of the other file: its id or 'latest'. Default: as --session.",
        valueName: "id|latest")
    )
    var otherSession: SessionSelector?

    func validate() throws {
      if self.session == .all || self.otherSession == .all {
        throw ValidationError("'diff' compares one session with one: give an id or 'latest'")
      }
    }

    func run() throws {
      var otherTrace = self.trace
      otherTrace.file = self.other
      let tables = ["sessions", "actions", "state_changes"]
      let (first, second) = try self.trace.read(checking: tables) { reader in
        let first = try Side(reader, file: self.trace.file, session: self.session)
        let second = try otherTrace.read(checking: tables) { reader in
          try Side(reader, file: self.other, session: self.otherSession ?? self.session)
        }
        return (first, second)
      }
      let comparison = try Comparison(first, second, timeLimit: self.trace.timeLimit)
      let terminal = Terminal.standard
      let title = "\(first.title) and \(second.title)"
      guard let difference = comparison.entries.first(where: { !$0.isAlike }) else {
        print(
          terminal.paint(
            "\(title) are alike: their actions have the same payloads and state changes.", .bold))
        return
      }
      print(terminal.paint("\(title) differ.", .bold))
      print()
      print(comparison.describe(difference, terminal: terminal))
      print()
      print(comparison.summary())
      throw ExitCode(1)
    }
  }
}

/// One of the two sessions compared.
private struct Side {
  var name: String
  var session: TraceSession
  var actions: [TracedAction]

  init(_ reader: TraceReader, file: String, session selector: SessionSelector) throws {
    self.name = file.terminalSafe
    self.session =
      try selector == .latest ? reader.latestSession() : reader.session(id: selector.id)
    self.actions = try reader.actions(matching: TraceFilter(session: self.session.id))
  }

  var title: String {
    "\(self.name) session \(self.session.id) (\(self.session.name.terminalSafe), \(self.actions.count) actions)"
  }

  func line(_ index: Int, terminal: Terminal) -> String {
    let action = self.actions[index]
    let feature = (action.feature.isEmpty ? self.session.rootFeature : action.feature).terminalSafe
    var line =
      "\(self.name) #\(action.seq) \(action.category.rawValue) \(feature) \(action.caseName.terminalSafe)"
    if let payload = action.payload { line += "  " + payload.singleLine.terminalSafe }
    if case let .effect(cause) = action.origin { line += terminal.paint("  ← #\(cause)", .dim) }
    return line
  }
}

/// Two sessions' actions, aligned by case path, told in the terminal.
private struct Comparison {
  typealias Entry = SessionComparison.Entry

  let first: Side
  let second: Side
  let aligned: SessionComparison

  var entries: [Entry] { self.aligned.entries }

  /// - Parameter timeLimit: Seconds the alignment may take; 0: no limit.
  init(_ first: Side, _ second: Side, timeLimit: Double) throws(CLIError) {
    self.first = first
    self.second = second
    do {
      self.aligned = try SessionComparison(first.actions, second.actions, timeLimit: timeLimit)
    } catch {
      throw CLIError(
        message:
          "aligning the two sessions' \(first.actions.count) and \(second.actions.count) actions took longer than --time-limit (\(timeLimit) s): give a larger --time-limit, or 0 for none"
      )
    }
  }

  func describe(_ entry: Entry, terminal: Terminal) -> String {
    let (first, second) = (self.first, self.second)
    switch entry {
    case let .onlyFirst(index):
      return """
        The first difference: an action only \(first.name) has
          \(first.line(index, terminal: terminal))
        \(self.context(before: index, in: first))
        """
    case let .onlySecond(index):
      return """
        The first difference: an action only \(second.name) has
          \(second.line(index, terminal: terminal))
        \(self.context(before: index, in: second))
        """
    case let .both(i, j, _):
      var lines = [
        "The first difference: the same action, which did something else",
        "  " + terminal.paint("− ", .red) + first.line(i, terminal: terminal),
        "  " + terminal.paint("+ ", .green) + second.line(j, terminal: terminal),
      ]
      let a = first.actions[i]
      let b = second.actions[j]
      if a.origin.isEffect != b.origin.isEffect {
        lines.append(
          "  sent \(a.origin.isEffect ? "by an effect" : "from outside the store") in \(first.name), \(b.origin.isEffect ? "by an effect" : "from outside the store") in \(second.name)"
        )
      }
      let (onlyMine, onlyTheirs) = SessionComparison.changesOnlyOnEachSide(a, b)
      if !onlyMine.isEmpty || !onlyTheirs.isEmpty {
        lines.append("  Its state changes (− only in \(first.name), + only in \(second.name)):")
        for change in onlyMine {
          lines.append(Self.describe(change, sign: "−", style: .red, terminal: terminal))
        }
        for change in onlyTheirs {
          lines.append(Self.describe(change, sign: "+", style: .green, terminal: terminal))
        }
      }
      return lines.joined(separator: "\n")
    }
  }

  private func context(before index: Int, in side: Side) -> String {
    guard index > 0 else { return "  at the start of the session." }
    return "  after #\(side.actions[index - 1].seq) \(side.actions[index - 1].path.terminalSafe)."
  }

  private static func describe(
    _ change: StateChange, sign: String, style: Terminal.Style, terminal: Terminal
  ) -> String {
    let old = change.old.map { $0.singleLine.terminalSafe } ?? "(none)"
    let new = change.new.map { $0.singleLine.terminalSafe } ?? "(none)"
    return "    " + terminal.paint("\(sign) \(change.path.terminalSafe): \(old) → \(new)", style)
  }

  func summary() -> String {
    let counts = self.aligned.counts
    return """
      \(counts.alike + counts.different) actions aligned: \(counts.alike) alike, \(counts.different) that did something else; \
      \(counts.onlyFirst) only in \(self.first.name), \(counts.onlySecond) only in \(self.second.name).
      """
  }
}

extension TracedAction.Origin {
  fileprivate var isEffect: Bool {
    if case .effect = self { return true }
    return false
  }
}
