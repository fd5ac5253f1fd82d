import ArgumentParser
import TCATraceFile
import ToolSupport

extension TCATraceCommand {
  /// `tcatrace sessions FILE`: one line per recorded session.
  struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sessions",
      abstract: "List the sessions in a trace: id, name, start, duration, actions, leaks.",
      discussion: """
        A session that never ended (still recording, or killed) is marked 'open'. In a trace \
        'tcatrace merge' wrote, FROM says which file each session was recorded in, and its id \
        there. TRIMMED, when a session has lost its first actions (to an export of its last \
        part), says how many: ACTIONS counts those kept. FALLBACKS, when the app sent actions \
        faster than its recorder's writer analysed them, counts the actions the store's thread \
        analysed itself instead, at the app's cost ('-': not counted, as while a session is \
        recorded, or where actions are analysed there whatever the backlog holds: in tests, or \
        for a state that may hold a @Shared value).

        A session whose process ended before its recorder closed it (a crash, a kill) shows \
        what the flight journal beside the file (FILE-flight) holds and the file lacks: 'ended \
        in #N case' for the action whose reducer the process ended in, or 'ended after #N' \
        with the last action the journal kept; 'tcatrace replay' prints them.
        """
    )

    @OptionGroup var trace: TraceFileArguments

    @Option(help: "Output format: text, json or jsonl.")
    var format: OutputFormat = .text

    func run() throws {
      let (sessions, flights) = try self.trace.read(checking: ["sessions", "actions", "leaks"]) {
        reader in
        let sessions = try reader.sessions()
        var flights: [Int64: FlightActions] = [:]
        for session in sessions where session.endedAt == nil {
          flights[session.id] = try reader.flightActions(session: session.id)
        }
        return (sessions, flights)
      }
      switch self.format {
      case .text:
        guard !sessions.isEmpty else {
          print("No sessions in '\(self.trace.file.terminalSafe)'.")
          return
        }
        // NB: Where sessions came from, in a trace `tcatrace merge` wrote.
        let merged = sessions.contains { $0.source != nil }
        let trimmed = sessions.contains { $0.trimmedActions > 0 }
        let fellBack = sessions.contains { ($0.backlogFallbacks ?? 0) > 0 }
        var columns: [(title: String, alignment: Table.Alignment)] = [
          ("ID", .right), ("NAME", .left), ("ROOT", .left), ("STARTED", .left),
          ("DURATION", .right), ("ACTIONS", .right), ("LEAKS", .right),
        ]
        if trimmed { columns.append(("TRIMMED", .right)) }
        if fellBack { columns.append(("FALLBACKS", .right)) }
        if merged { columns.append(("FROM", .left)) }
        columns.append(("", .left))
        var table = Table(columns: columns)
        for session in sessions {
          var row = [
            String(session.id), session.name, session.rootFeature, session.startedAt,
            formatDuration(Double(session.durationNs)), String(session.actionCount),
            String(session.leakCount),
          ]
          if trimmed { row.append(String(session.trimmedActions)) }
          if fellBack { row.append(session.backlogFallbacks.map(String.init) ?? "-") }
          if merged { row.append(session.source.map { "\($0.file) #\($0.sessionID)" } ?? "") }
          row.append(session.endedAt == nil ? (flights[session.id]?.summary ?? "open") : "")
          table.rows.append(row)
        }
        for line in table.lines(terminal: .standard) {
          print(line.trimmingSuffix())
        }
      case .json, .jsonl:
        printJSON(
          sessions.map { session in
            guard case let .object(members) = session.json else { return session.json }
            return .object(members + [("flight", flights[session.id]?.json ?? .null)])
          },
          format: self.format)
      }
    }
  }
}

extension TraceSession {
  /// The session in `--format json`.
  var json: JSONValue {
    .object([
      ("id", .integer(self.id)),
      ("name", .string(self.name)),
      ("root_feature", .string(self.rootFeature)),
      ("started_at", .string(self.startedAt)),
      ("ended_at", JSONValue(self.endedAt)),
      ("duration_ns", .integer(self.durationNs)),
      ("actions", .integer(Int64(self.actionCount))),
      ("leaks", .integer(Int64(self.leakCount))),
      ("dropped_actions", .integer(Int64(self.droppedActions))),
      ("trimmed_actions", .integer(Int64(self.trimmedActions))),
      ("backlog_fallbacks", self.backlogFallbacks.map { .integer(Int64($0)) } ?? .null),
      ("recorder_version", .string(self.recorderVersion)),
      (
        "source",
        self.source.map {
          .object([("file", .string($0.file)), ("session_id", .integer($0.sessionID))])
        } ?? .null
      ),
    ])
  }
}

extension String {
  func trimmingSuffix() -> String {
    var string = self
    while string.last == " " { string.removeLast() }
    return string
  }
}

extension FlightActions {
  /// The session's last column: where its process ended.
  var summary: String {
    if let endedIn = self.endedIn {
      return "ended in #\(endedIn.seq) \(endedIn.caseName.terminalSafe)"
    }
    return "ended after #\(self.actions.last?.seq ?? 0)"
  }

  /// In `--format json`: the seqs the journal holds, and the one the process ended in.
  var json: JSONValue {
    .object([
      ("actions", .array(self.actions.map { .integer(Int64($0.seq)) })),
      ("ended_in_seq", self.endedIn.map { .integer(Int64($0.seq)) } ?? .null),
    ])
  }
}
