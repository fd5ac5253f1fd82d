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
        part), says how many: ACTIONS counts those kept.
        """
    )

    @OptionGroup var trace: TraceFileArguments

    @Option(help: "Output format: text, json or jsonl.")
    var format: OutputFormat = .text

    func run() throws {
      let sessions = try self.trace.read(checking: ["sessions", "actions", "leaks"]) {
        try $0.sessions()
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
        var columns: [(title: String, alignment: Table.Alignment)] = [
          ("ID", .right), ("NAME", .left), ("ROOT", .left), ("STARTED", .left),
          ("DURATION", .right), ("ACTIONS", .right), ("LEAKS", .right),
        ]
        if trimmed { columns.append(("TRIMMED", .right)) }
        if merged { columns.append(("FROM", .left)) }
        columns.append(("", .left))
        var table = Table(columns: columns)
        for session in sessions {
          table.rows.append(
            [
              String(session.id), session.name, session.rootFeature, session.startedAt,
              formatDuration(Double(session.durationNs)), String(session.actionCount),
              String(session.leakCount),
            ]
              + (trimmed ? [String(session.trimmedActions)] : [])
              + (merged ? [session.source.map { "\($0.file) #\($0.sessionID)" } ?? ""] : [])
              + [session.endedAt == nil ? "open" : ""]
          )
        }
        for line in table.lines(terminal: .standard) {
          print(line.trimmingSuffix())
        }
      case .json, .jsonl:
        printJSON(sessions.map(\.json), format: self.format)
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
