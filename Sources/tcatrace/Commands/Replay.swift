import ArgumentParser
import TCATraceFile
import TraceFormats
import ToolSupport

extension TCATraceCommand {
  /// `tcatrace replay FILE`: the timeline of a session, filtered.
  struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "replay",
      abstract: "Print the actions of a trace with their state changes and leaks.",
      discussion: """
        One entry per action: seq, time since the session started, category, feature, case \
        and payload; under it each state change as its path with '- old' and '+ new' lines, \
        and each leak with its rule. An action sent by an effect shows '← #seq' of the \
        action whose effect sent it.

        --category matches an action's own category, at the feature that owns it: \
        _internal.cart._internal.payment.delegate.didPay is a delegate action of \
        cart.payment. --feature matches that feature and every feature below it.

        --changed lists a state path's history: the actions that changed the value there, \
        a value below it (todos[id: 3].title for todos[id: 3]), or a value above it that may \
        have replaced it (login.twoFactor added, for login.twoFactor.code); a collection above \
        it put in a new order does not count.
        """
    )

    @OptionGroup var trace: TraceFileArguments
    @OptionGroup var sessionOptions: SessionOptions

    @Option(
      help: ArgumentHelp(
        "Only these categories, comma-separated: view, internal, delegate, unclassified.",
        valueName: "categories"
      )
    )
    var category: String?

    @Option(help: "Only actions of this feature and the features below it: login, login.twoFactor.")
    var feature: String?

    @Flag(help: "Only actions that broke a boundary rule.")
    var leaksOnly = false

    @Option(help: "Only actions whose case path or payload contains this text.")
    var grep: String?

    @Option(
      help: ArgumentHelp(
        "Only actions that changed the value at this state path: login.email, todos[id: 3].",
        discussion:
          "A change below the path counts, and so does one above it that may have replaced the value.",
        valueName: "path"
      )
    )
    var changed: String?

    @Option(help: "Only actions from this seq on.")
    var from: Int?

    @Option(help: "Only actions up to this seq.")
    var to: Int?

    @Flag(help: "Leave out the state changes.")
    var noDiff = false

    @Option(help: "Output format: text, json or jsonl.")
    var format: OutputFormat = .text

    @Flag(
      help:
        "Keep printing actions as a recorder appends them, until interrupted or nothing reads the output."
    )
    var follow = false

    /// Replaced by `tcatrace debug`, which also steps back; kept to say so.
    @Flag(help: .hidden)
    var step = false

    /// The categories of `--category`.
    var categories: Set<ActionCategory>? {
      get throws {
        guard let category = self.category else { return nil }
        var categories = Set<ActionCategory>()
        for name in category.split(separator: ",", omittingEmptySubsequences: false) {
          let name = String(name.trimmed)
          guard let category = ActionCategory(rawValue: name) else {
            throw ValidationError(
              "unknown category '\(name)': use view, internal, delegate or unclassified, comma-separated"
            )
          }
          categories.insert(category)
        }
        return categories
      }
    }

    func validate() throws {
      _ = try self.categories
      if let from, let to, from > to {
        throw ValidationError("--from \(from) is after --to \(to): nothing would match.")
      }
      if self.step {
        throw ValidationError(
          "--step is replaced by 'tcatrace debug FILE', which steps forward and back, jumps to any action and shows the state at each"
        )
      }
      if self.follow, self.format == .json {
        throw ValidationError("--follow prints as it goes: use --format text or jsonl.")
      }
    }

    func run() async throws {
      // NB: Following, only what is there when it starts is checked. In a large file, the kept
      // states are checked too, though a replay does not read them: damage there is damage to
      // the session's record, which `state` and `debug` would meet.
      let tables =
        ["sessions", "actions", "leaks", "states"]
        + (self.noDiff && self.changed == nil ? [] : ["state_changes"])
      try await self.trace.read(checking: tables) { reader in try await self.replay(reader) }
    }

    private func replay(_ reader: TraceReader) async throws {
      let filter = TraceFilter(
        session: try self.sessionOptions.session.resolve(in: reader),
        categories: try self.categories,
        feature: self.feature,
        leaksOnly: self.leaksOnly,
        fromSeq: self.from,
        toSeq: self.to,
        text: self.grep,
        changedPath: self.changed
      )
      var printer = ReplayPrinter(
        reader: reader, format: self.format, terminal: .standard, showsChanges: !self.noDiff
      )
      printer.eventsThrough = self.to
      // NB: Following, the journal is left out: it is read once its process has ended.
      var lastID = try self.print(filter, with: &printer, flight: !self.follow)
      printer.finish()
      guard self.follow else { return }
      // NB: A file no recorder was writing was opened as such, leaving nothing beside it; once
      // a recorder begins to write it, it is opened again to read the recorder's commits.
      try reader.verifyRead()
      while true {
        // NB: Following never ends on its own; output that cannot be written ends it, and so
        // does a pipe that nobody reads any more (`| head -3` done), as `tail -f` does: at the
        // next write it would anyway, and until then it would follow for nobody.
        finishOutput()
        if isOutputUnread() { raiseBrokenPipe() }
        try await Task.sleep(for: .milliseconds(200))
        try reader.reopenIfWritten()
        var next = filter
        next.afterID = lastID
        lastID = try self.print(next, with: &printer) ?? lastID
        try printer.printNewEvents()
        try reader.checkUnchanged()
      }
    }

    /// Prints the actions of session `session` matching `filter` that the flight journal
    /// beside the file holds and the file does not: those of a process that ended before they
    /// were written.
    private func printFlight(
      of session: Int64, _ filter: TraceFilter, with printer: inout ReplayPrinter
    ) throws {
      // NB: The journal holds no state changes: none of its actions has a leak or a change.
      guard !filter.leaksOnly, filter.changedPath == nil,
        let flight = try printer.reader.journalActions(session: session)
      else { return }
      let actions = flight.actions.filter { action in
        let category = ActionCategory(rawValue: action.category) ?? .unclassified
        return (filter.categories?.contains(category) ?? true)
          && (filter.feature.map {
            action.feature == $0 || action.feature.hasPrefix($0 + ".")
              || action.feature.hasPrefix($0 + "[")
          } ?? true)
          && (filter.fromSeq.map { action.seq >= $0 } ?? true)
          && (filter.toSeq.map { action.seq <= $0 } ?? true)
          && (filter.text.map {
            action.path.contains($0) || (action.payload?.contains($0) ?? false)
          } ?? true)
      }
      try printer.printFlight(actions, endedIn: flight.endedIn?.seq, session: session)
    }

    /// Prints the actions matching `filter`; returns the last one's row id. With `flight`, each
    /// session's actions are followed by the flight journal's (see ``printFlight(of:_:with:)``).
    private func print(
      _ filter: TraceFilter, with printer: inout ReplayPrinter, flight: Bool = false
    ) throws -> Int64? {
      var lastID = filter.afterID
      var session: Int64?
      var journalsRead = Set<Int64>()
      // NB: A session's actions a recorder copied from its journal are printed as the journal's.
      var copied: [TracedAction] = []
      try printer.reader.forEachAction(matching: filter, includeChanges: !self.noDiff) { action in
        if let previous = session, previous != action.sessionID {
          try printer.printFlight(&copied)
          if flight {
            try self.printFlight(of: previous, filter, with: &printer)
            journalsRead.insert(previous)
          }
        }
        session = action.sessionID
        if action.flight != nil {
          copied.append(action)
        } else {
          try printer.printFlight(&copied)
          try printer.print(action)
        }
        lastID = action.id
      }
      try printer.printFlight(&copied)
      if flight {
        // NB: Then the last session's, and those of sessions none of whose actions matched.
        let sessions = try filter.session.map { [$0] } ?? printer.reader.sessions().map(\.id)
        for id in sessions where !journalsRead.contains(id) {
          try self.printFlight(of: id, filter, with: &printer)
        }
      }
      return lastID
    }
  }
}

/// Prints actions as `replay` does.
struct ReplayPrinter {
  let reader: TraceReader
  let format: OutputFormat
  let terminal: Terminal
  let showsChanges: Bool
  private var sessions: [Int64: TraceSession] = [:]
  private var currentSession: Int64?
  private var jsonValues: [JSONValue] = []
  private var printedCount = 0
  /// The session whose actions are being printed: what a debugger did in it, not printed yet,
  /// the id of the last event read, and the seq of the last action printed (`nil` before the
  /// first).
  private var events:
    (session: Int64, pending: [TraceDebuggerEvent], lastEventID: Int64, lastSeq: Int?)?
  /// The last action whose events are printed (`--to`): those after it are not.
  var eventsThrough: Int?

  init(reader: TraceReader, format: OutputFormat, terminal: Terminal, showsChanges: Bool) {
    self.reader = reader
    self.format = format
    self.terminal = terminal
    self.showsChanges = showsChanges
  }

  mutating func print(_ action: TracedAction) throws {
    switch self.format {
    case .json:
      self.jsonValues.append(action.json(showsChanges: self.showsChanges))
    case .jsonl:
      Swift.print(action.json(showsChanges: self.showsChanges).rendered)
    case .text:
      try self.printText(action)
    }
    self.printedCount += 1
  }

  /// Ends the output: the JSON array, or a line when nothing matched.
  mutating func finish() {
    if self.format == .text { self.printEvents(before: nil) }
    switch self.format {
    case .json:
      Swift.print(JSONValue.array(self.jsonValues).rendered)
    case .text where self.printedCount == 0:
      Swift.print("No actions match.")
    case .text, .jsonl:
      break
    }
  }

  /// Prints actions of one session that a recorder copied from its flight journal into the
  /// file, as the journal's are printed, and empties `actions`.
  mutating func printFlight(_ actions: inout [TracedAction]) throws {
    guard let session = actions.first?.sessionID else { return }
    try self.printFlight(
      actions.map(FlightJournal.Entry.init),
      endedIn: actions.last { $0.flight == .endedProcess }?.seq,
      session: session)
    actions.removeAll()
  }

  /// Prints actions of session `session` from the flight journal, after its others.
  mutating func printFlight(
    _ actions: [FlightJournal.Entry], endedIn: Int?, session id: Int64
  ) throws {
    guard !actions.isEmpty else { return }
    switch self.format {
    case .json, .jsonl:
      for action in actions {
        let json = action.json(session: id, endedProcess: action.seq == endedIn)
        if self.format == .json {
          self.jsonValues.append(json)
        } else {
          Swift.print(json.rendered)
        }
      }
    case .text:
      let session = try self.session(id)
      let paint = self.terminal.paint
      self.enterSession(session)
      Swift.print(
        paint(
          "From the flight journal: the process ended before these were written; their state changes are not known.",
          .dim)
      )
      for action in actions {
        var line = self.line(
          seq: action.seq, timeNs: action.timeNs,
          category: ActionCategory(rawValue: action.category) ?? .unclassified,
          feature: action.feature, caseName: action.caseName, payload: action.payload,
          cause: action.causeSeq, in: session)
        if action.isWithheld {
          line += paint("  (payload withheld: the recorder redacts values)", .dim)
        }
        Swift.print(line)
        if action.seq == endedIn {
          Swift.print(
            String(repeating: " ", count: 7)
              + paint("✝ the process ended in this action's reducer", .red))
        }
      }
    }
    self.printedCount += actions.count
  }

  private mutating func session(_ id: Int64) throws -> TraceSession {
    if let session = self.sessions[id] { return session }
    let session = try self.reader.session(id: id)
    self.sessions[id] = session
    return session
  }

  /// The session's line, before its first action printed.
  private mutating func enterSession(_ session: TraceSession) {
    guard self.currentSession != session.id else { return }
    if self.currentSession != nil { Swift.print() }
    Swift.print(
      self.terminal.paint(
        "Session \(session.id) · \(session.name.terminalSafe) · \(session.rootFeature.terminalSafe) · \(session.startedAt.terminalSafe)",
        .bold
      )
    )
    self.currentSession = session.id
  }

  /// An action's line: seq, time, category, feature, case, payload and cause.
  private func line(
    seq: Int, timeNs: Int64, category: ActionCategory, feature: String, caseName: String,
    payload: String?, cause: Int?, in session: TraceSession
  ) -> String {
    let paint = self.terminal.paint
    // NB: Every text from the file is shown with its terminal controls escaped.
    let feature = (feature.isEmpty ? session.rootFeature : feature).terminalSafe
    var line = [
      "#\(seq)".rightPadded(to: 6),
      String(cFormat: "+%.3fms", Double(timeNs) / 1_000_000).leftPadded(to: 11),
      paint(category.rawValue.rightPadded(to: 12), category.style),
      paint(feature.rightPadded(to: 20), .cyan),
      paint(caseName.terminalSafe, .bold),
    ].joined(separator: " ")
    if let payload { line += "  " + payload.singleLine.terminalSafe }
    if let cause { line += paint("  ← #\(cause)", .dim) }
    return line
  }

  /// Prints, in text, what a debugger did in the session being printed after the last action
  /// printed and before action `seq` (`nil`: to the session's end).
  private mutating func printEvents(before seq: Int?) {
    guard var events = self.events else { return }
    let paint = self.terminal.paint
    while let event = events.pending.first, seq.map({ event.afterSeq < $0 }) ?? true {
      events.pending.removeFirst()
      events.lastEventID = event.id
      if let through = self.eventsThrough, event.afterSeq >= through { continue }
      // NB: Not those before the first action printed (`--from`, `--last`), but those right
      // before it.
      guard let lastSeq = events.lastSeq ?? seq.map({ $0 - 1 }), event.afterSeq >= lastSeq
      else { continue }
      Swift.print(
        [
          "⎇".rightPadded(to: 6),
          String(cFormat: "+%.3fms", Double(event.timeNs) / 1_000_000).leftPadded(to: 11),
          paint("debugger".rightPadded(to: 12), .bold),
          paint(event.summary, .dim),
        ].joined(separator: " "))
    }
    self.events = events
  }

  /// Prints, in text, what a debugger did since the last action printed, read again: following
  /// a file, whose app may be driven as it is followed. Whatever comes next comes after it.
  mutating func printNewEvents() throws {
    guard self.format == .text, var events = self.events else { return }
    events.pending += try self.reader.debuggerEvents(
      session: events.session, after: events.pending.last?.id ?? events.lastEventID)
    self.events = events
    self.printEvents(before: nil)
  }

  private mutating func printText(_ action: TracedAction) throws {
    let session = try self.session(action.sessionID)
    let paint = self.terminal.paint
    if self.events?.session != session.id {
      self.printEvents(before: nil)
      let pending = try self.reader.debuggerEvents(session: session.id)
      self.events = (session.id, pending, 0, nil)
    }
    self.enterSession(session)
    self.printEvents(before: action.seq)
    self.events?.lastSeq = action.seq
    var cause: Int?
    if case let .effect(causeSeq) = action.origin { cause = causeSeq }
    Swift.print(
      self.line(
        seq: action.seq, timeNs: action.timeNs, category: action.category,
        feature: action.feature, caseName: action.caseName, payload: action.payload,
        cause: cause, in: session)
        + (action.origin == .debugger ? paint("  (sent from the debugger's page)", .dim) : ""))
    let indent = String(repeating: " ", count: 7)
    if self.showsChanges {
      for change in action.changes {
        let kind = change.kind == .changed ? "" : paint(" (\(change.kind.rawValue))", .dim)
        Swift.print(indent + change.path.terminalSafe + kind)
        for value in change.old.map({ $0.split(separator: "\n", omittingEmptySubsequences: false) })
          ?? []
        {
          Swift.print(indent + paint("- " + String(value).terminalSafe, .red))
        }
        for value in change.new.map({ $0.split(separator: "\n", omittingEmptySubsequences: false) })
          ?? []
        {
          Swift.print(indent + paint("+ " + String(value).terminalSafe, .green))
        }
      }
    }
    for leak in action.leaks {
      let offender = leak.feature.isEmpty ? session.rootFeature : leak.feature
      Swift.print(
        indent
          + paint(
            "! \(leak.rule.rawValue) (\(offender.terminalSafe)): \(leak.detail.terminalSafe)", .red)
      )
    }
  }
}

extension ActionCategory {
  var style: Terminal.Style {
    switch self {
    case .view: .blue
    case .internal: .magenta
    case .delegate: .green
    case .unclassified: .dim
    }
  }
}

extension FlightJournal.Entry {
  /// The action in `--format json`: an action's members, and `flight`: `returned` for an
  /// action whose reducer returned, `ended_process` for the one the process ended in.
  func json(session: Int64, endedProcess: Bool) -> JSONValue {
    .object([
      ("session", .integer(session)),
      ("seq", .integer(Int64(self.seq))),
      ("time_ns", .integer(self.timeNs)),
      ("origin", .string(self.causeSeq == nil ? "send" : "effect")),
      ("cause_seq", self.causeSeq.map { .integer(Int64($0)) } ?? .null),
      ("path", .string(self.path)),
      ("root_category", .string(self.rootCategory)),
      ("feature", .string(self.feature)),
      ("category", .string(self.category)),
      ("case", .string(self.caseName)),
      ("payload", JSONValue(self.payload)),
      ("payload_json", JSONValue(self.payloadJSON)),
      ("flight", .string(endedProcess ? "ended_process" : "returned")),
    ])
  }
}
