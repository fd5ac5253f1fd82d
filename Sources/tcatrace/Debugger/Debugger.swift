import ToolSupport
import TCATraceFile

/// What `tcatrace debug` shows and where it stands in a session: the current action, the pane
/// under the timeline, the last search. Keys move it; ``DebuggerScreen`` draws it.
final class Debugger {
  let reader: TraceReader
  let sessionID: Int64
  private(set) var session: TraceSession
  /// The seq of the session's last action; `0` while it has none.
  private(set) var lastSeq: Int
  /// The action the debugger stands on; `nil` while the session has none.
  private(set) var current: TracedAction?
  private(set) var pane: Pane = .changes
  /// The first line of the pane shown.
  var scroll = 0
  /// Lines the pane had room for when last drawn: what a page scrolls.
  var paneHeight = 10
  private(set) var find: Find?
  private(set) var prompt: Prompt?
  /// One line for the status bar, until the next key.
  private(set) var message: String?
  private(set) var showsHelp = false
  private(set) var quits = false
  private var consequencesOfCurrent: (seq: Int, lastSeq: Int, seqs: [Int])?
  private var stateAtCurrent: KeptAtStep<StateNode>?
  private var renderedStateAtCurrent: KeptAtStep<String>?

  /// How many actions after an action its consequences are looked for in.
  static let consequenceWindow = 10_000

  enum Pane: Equatable {
    /// The current action: its payload, cause, consequences, state changes and leaks.
    case changes
    /// The whole state after the current action.
    case state
    /// The value at a path of the state after the current action.
    case path(String)
  }

  /// What `n` and `N` look for again.
  enum Find: Equatable {
    case text(String)
    case leak
    case feature(String)
    case category(ActionCategory)

    var description: String {
      switch self {
      case let .text(text): "'\(text)'"
      case .leak: "leaks"
      case let .feature(feature): "feature \(feature)"
      case let .category(category): "\(category.rawValue) actions"
      }
    }
  }

  /// A line the user is typing in the status bar.
  struct Prompt {
    enum Kind {
      case jump, search, feature, category, path
    }
    var kind: Kind
    var text: String

    var label: String {
      switch self.kind {
      case .jump: "Go to action #"
      case .search: "/"
      case .feature: "Next action of feature: "
      case .category: "Next action of category (view, internal, delegate, unclassified): "
      case .path: "Show the value at path: "
      }
    }
  }

  init(reader: TraceReader, session: TraceSession) throws {
    self.reader = reader
    self.sessionID = session.id
    self.session = session
    self.lastSeq = try reader.lastSeq(session: session.id)
    self.current = try reader.action(matching: TraceFilter(session: session.id), after: 0)
  }

  // MARK: - Keys

  func handle(_ key: Key) throws {
    self.message = nil
    if self.showsHelp {
      self.showsHelp = false
      if key == .character("q") || key == .control(0x03) { self.quits = true }
      return
    }
    if self.prompt != nil {
      try self.handlePrompt(key)
      return
    }
    switch key {
    case .character("q"), .control(0x03), .control(0x04):
      self.quits = true
    case .character("j"), .down, .enter:
      try self.go(to: self.neighbour(backward: false), else: "This is the last action.")
    case .character("k"), .up:
      try self.go(to: self.neighbour(backward: true), else: "This is the first action.")
    case .character("g"), .home:
      try self.go(
        to: self.reader.action(matching: self.filter, after: 0),
        else: "The session has no actions yet.")
    case .character("G"), .end:
      try self.go(
        to: self.reader.action(matching: self.filter, after: .max, backward: true),
        else: "The session has no actions yet.")
    case .character(":"):
      self.prompt = Prompt(kind: .jump, text: "")
    case let .character(digit) where digit.isASCII && digit.isNumber:
      self.prompt = Prompt(kind: .jump, text: String(digit))
    case .character("/"):
      self.prompt = Prompt(kind: .search, text: "")
    case .character("!"):
      try self.find(.leak, backward: false)
    case .character("f"):
      self.prompt = Prompt(kind: .feature, text: self.current?.feature ?? "")
    case .character("c"):
      self.prompt = Prompt(kind: .category, text: self.current?.category.rawValue ?? "")
    case .character("n"), .character("N"):
      guard let find = self.find else {
        self.message =
          "Nothing to look for again: search with /, ! (leaks), f (feature) or c (category) first."
        return
      }
      try self.find(find, backward: key == .character("N"))
    case .character("h"), .left:
      try self.goToCause()
    case .character("l"), .right:
      try self.goToConsequence()
    case .character("d"):
      self.show(.changes)
    case .character("s"):
      self.show(.state)
    case .character("p"):
      if case let .path(path) = self.pane {
        self.prompt = Prompt(kind: .path, text: path)
      } else {
        self.prompt = Prompt(kind: .path, text: self.current?.statePath ?? "")
      }
    case .character(" "), .pageDown, .control(0x06):
      self.scroll += max(1, self.paneHeight - 1)
    case .character("b"), .pageUp, .control(0x02):
      self.scroll = max(0, self.scroll - max(1, self.paneHeight - 1))
    case .character("?"):
      self.showsHelp = true
    case .control(0x0C):
      break
    default:
      self.message = "That key does nothing here: press ? for the keys."
    }
  }

  private func handlePrompt(_ key: Key) throws {
    guard var prompt = self.prompt else { return }
    switch key {
    case .escape, .control(0x03), .control(0x07):
      self.prompt = nil
    case .backspace:
      if prompt.text.isEmpty {
        self.prompt = nil
      } else {
        prompt.text.removeLast()
        self.prompt = prompt
      }
    case .control(0x15):
      prompt.text = ""
      self.prompt = prompt
    case let .character(character):
      prompt.text.append(character)
      self.prompt = prompt
    case .enter:
      self.prompt = nil
      try self.submit(prompt)
    default:
      break
    }
  }

  private func submit(_ prompt: Prompt) throws {
    let text = prompt.text.trimmingPrefix(while: \.isWhitespace)
    switch prompt.kind {
    case .jump:
      let digits = text.hasPrefix("#") ? text.dropFirst() : text[...]
      let first = try self.reader.firstStep(session: self.sessionID) + 1
      guard let seq = Int(digits), seq >= 1, seq <= self.lastSeq else {
        self.message =
          self.lastSeq == 0
          ? "The session has no actions yet."
          : "Type an action's seq, from \(first) to \(self.lastSeq)."
        return
      }
      guard let action = try self.reader.action(session: self.sessionID, seq: seq) else {
        self.message =
          seq < first
          ? "Action #\(seq) is not in the file: it was trimmed from the session's start."
          : "Action #\(seq) is not in the file: the recorder dropped it."
        return
      }
      self.go(to: action)
    case .search:
      guard !text.isEmpty else { return }
      try self.find(.text(String(text)), backward: false)
    case .feature:
      guard !text.isEmpty else {
        self.message = "Type a feature's path: login, login.twoFactor, todos[id: 3]."
        return
      }
      try self.find(.feature(String(text)), backward: false)
    case .category:
      guard let category = ActionCategory(rawValue: String(text)) else {
        self.message = "'\(text)' is not a category: view, internal, delegate or unclassified."
        return
      }
      try self.find(.category(category), backward: false)
    case .path:
      self.show(text.isEmpty ? .state : .path(String(text)))
    }
  }

  // MARK: - Moving

  private var filter: TraceFilter { TraceFilter(session: self.sessionID) }

  private func neighbour(backward: Bool) throws -> TracedAction? {
    guard let current = self.current else { return nil }
    return try self.reader.action(matching: self.filter, after: current.seq, backward: backward)
  }

  private func go(to action: TracedAction?, else message: String) throws {
    guard let action else {
      self.message = message
      return
    }
    self.go(to: action)
  }

  private func go(to action: TracedAction) {
    // NB: The state and a path stay where they were scrolled to, to watch one part of the state
    // change from step to step; the changes are another action's, read from their top.
    if self.pane == .changes || action.seq == self.current?.seq { self.scroll = 0 }
    self.current = action
  }

  private func find(_ find: Find, backward: Bool) throws {
    self.find = find
    var filter = self.filter
    switch find {
    case let .text(text): filter.text = text
    case .leak: filter.leaksOnly = true
    case let .feature(feature): filter.feature = feature
    case let .category(category): filter.categories = [category]
    }
    let found = try self.reader.action(
      matching: filter, after: self.current?.seq ?? 0, backward: backward)
    try self.go(
      to: found,
      else:
        "No \(backward ? "earlier" : "later") action matches \(find.description)\(backward ? "" : " (n: again; N: backward)")."
    )
  }

  private func goToCause() throws {
    guard let current = self.current else { return }
    guard case let .effect(cause) = current.origin else {
      self.message = "Action #\(current.seq) was sent from outside the store, not by an effect."
      return
    }
    guard let action = try self.reader.action(session: self.sessionID, seq: cause) else {
      self.message = "Its cause, action #\(cause), is not in the file: the recorder dropped it."
      return
    }
    self.go(to: action)
  }

  private func goToConsequence() throws {
    guard let current = self.current else { return }
    guard let first = try self.consequences.first else {
      self.message = "Action #\(current.seq)'s effects sent no action."
      return
    }
    try self.go(
      to: self.reader.action(session: self.sessionID, seq: first), else: "Action #\(first) is gone."
    )
  }

  private func show(_ pane: Pane) {
    if self.pane != pane { self.scroll = 0 }
    self.pane = pane
  }

  // MARK: - What is shown

  /// The seqs of the actions the current action's effects sent.
  var consequences: [Int] {
    get throws {
      guard let current = self.current else { return [] }
      if let cached = self.consequencesOfCurrent, cached.seq == current.seq,
        cached.lastSeq == self.lastSeq
      {
        return cached.seqs
      }
      let seqs = try self.reader.consequences(
        session: self.sessionID, of: current.seq, window: Self.consequenceWindow
      )
      self.consequencesOfCurrent = (current.seq, self.lastSeq, seqs)
      return seqs
    }
  }

  /// The state after the current action, or why it cannot be shown.
  var state: Result<StateNode, TraceFileError> {
    self.atCurrent(&self.stateAtCurrent) { seq throws(TraceFileError) in
      try self.reader.state(session: self.sessionID, after: seq)
    }
  }

  /// The whole state after the current action, rendered, or why it cannot be shown.
  ///
  /// NB: Read with `renderedState`, which prints the parts no change since the keyframe
  /// reaches straight from its JSON: the tree is built only for a path.
  var renderedState: Result<String, TraceFileError> {
    self.atCurrent(&self.renderedStateAtCurrent) { seq throws(TraceFileError) in
      try self.reader.renderedState(session: self.sessionID, after: seq)
    }
  }

  /// What was read for a step, kept while it is the current one.
  private typealias KeptAtStep<Value> = (seq: Int, value: Result<Value, TraceFileError>)

  /// What `read` returns for the current action's seq, read again only once the current
  /// action changes.
  private func atCurrent<Value>(
    _ kept: inout KeptAtStep<Value>?, _ read: (Int) throws(TraceFileError) -> Value
  ) -> Result<Value, TraceFileError> {
    let seq = self.current?.seq ?? 0
    if let kept, kept.seq == seq { return kept.value }
    let value = Result { () throws(TraceFileError) in try read(seq) }
    kept = (seq, value)
    return value
  }

  // MARK: - A file being recorded

  /// Reads what a recorder appended since; whether anything changed.
  func refresh() throws -> Bool {
    if try self.reader.reopenIfWritten() {
      // NB: A recorder only appends: the session and the action shown are still there as they
      // were. Where they are not, the file was replaced, and what is shown is not in it.
      let session = try? self.reader.session(id: self.sessionID)
      var shown: TracedAction?
      if let current = self.current {
        shown = try? self.reader.action(session: self.sessionID, seq: current.seq)
      }
      guard let session, session.name == self.session.name,
        session.rootFeature == self.session.rootFeature,
        session.startedAt == self.session.startedAt,
        session.actionCount + session.trimmedActions >= self.lastSeq,
        shown?.path == self.current?.path, shown?.timeNs == self.current?.timeNs
      else { throw self.reader.changedWhileReading }
    }
    let lastSeq = try self.reader.lastSeq(session: self.sessionID)
    let endedAt =
      self.session.endedAt == nil
      ? try self.reader.endedAt(session: self.sessionID) : self.session.endedAt
    guard lastSeq != self.lastSeq || endedAt != self.session.endedAt else { return false }
    self.lastSeq = lastSeq
    self.session.endedAt = endedAt
    if self.current == nil {
      self.current = try self.reader.action(matching: self.filter, after: 0)
    }
    return true
  }
}
