/// The columns of the trace file's tables that rows are written to, in one place: the writer
/// below, and `TraceMerge`'s copies, name them from here. `Schema/tcatrace.sql` declares them;
/// `TraceRowsTests` checks that each list is its table's columns.
package enum TraceColumns {
  /// `sessions`, but `id` (SQLite's row id).
  package static let sessions = [
    "name", "root_feature", "started_at", "ended_at", "dropped_actions", "recorder_version",
    "trimmed_actions", "backlog_fallbacks",
  ]
  /// `actions`, but `id`.
  package static let actions = [
    "session_id", "seq", "time_ns", "duration_ns", "origin", "cause_seq", "path", "root_category",
    "feature", "category", "case_name", "state_path", "payload", "payload_json", "json_changes",
    "at_once", "flight",
  ]
  package static let stateChanges = [
    "action_id", "position", "path", "kind", "old_value", "new_value", "rebuild", "shared",
  ]
  package static let states = ["session_id", "seq", "tree", "json"]
  package static let leaks = ["action_id", "rule", "feature", "detail"]
  package static let debuggerEvents = [
    "session_id", "after_seq", "time_ns", "kind", "to_seq", "ignored_actions",
  ]

  /// `INSERT INTO table (columns) SELECT …` that copies `columns` from the rows of `alias`
  /// (`a.seq`), but those `values` gives in SQL of their own (`session_id: "sm.new"`); `id`
  /// first, from `id`, when given. The `FROM` and what follows are `rest`.
  static func copy(
    into table: String, _ columns: [String], id: String? = nil, from alias: String,
    values: [String: String] = [:], _ rest: String
  ) -> String {
    let names = (id == nil ? [] : ["id"]) + columns
    let selected = (id.map { [$0] } ?? []) + columns.map { values[$0] ?? "\(alias).\($0)" }
    return """
      INSERT INTO \(table) (\(names.joined(separator: ", ")))
        SELECT \(selected.joined(separator: ", "))
        \(rest)
      """
  }

  /// `INSERT INTO table (columns) VALUES (?1, …)`, `OR REPLACE` when `replacing`.
  static func insert(into table: String, _ columns: [String], replacing: Bool = false) -> String {
    "INSERT \(replacing ? "OR REPLACE " : "")INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
      + columns.indices.map { "?\($0 + 1)" }.joined(separator: ", ") + ")"
  }
}

/// Writes rows into a trace file: a session begun and ended, and each action with its state
/// changes, kept states and leaks, from plain values. The one writer of the file's rows; the
/// recorder's writer thread calls it inside its transactions, with its statements prepared
/// once.
package final class TraceRowWriter {
  let connection: SQLiteConnection
  private let insertSession: SQLiteStatement
  private let insertAction: SQLiteStatement
  private let insertChange: SQLiteStatement
  private let insertState: SQLiteStatement
  private let insertLeak: SQLiteStatement
  private var endSession: SQLiteStatement?
  private var insertDebuggerEvent: SQLiteStatement?

  /// Prepares the writer's statements on `connection`, a trace opened for writing.
  package init(connection: SQLiteConnection) throws(TraceFileError) {
    self.connection = connection
    self.insertSession = try connection.prepare(
      TraceColumns.insert(
        into: "sessions", ["name", "root_feature", "started_at", "recorder_version"]))
    self.insertAction = try connection.prepare(
      TraceColumns.insert(into: "actions", TraceColumns.actions))
    self.insertChange = try connection.prepare(
      TraceColumns.insert(into: "state_changes", TraceColumns.stateChanges))
    self.insertState = try connection.prepare(
      TraceColumns.insert(into: "states", TraceColumns.states, replacing: true))
    self.insertLeak = try connection.prepare(
      TraceColumns.insert(into: "leaks", TraceColumns.leaks))
  }

  /// Adds a session, not yet ended; returns its id.
  package func beginSession(
    name: String, rootFeature: String, startedAt: String, recorderVersion: String
  ) throws(TraceFileError) -> Int64 {
    try self.insertSession.run([
      .text(name), .text(rootFeature), .text(startedAt), .text(recorderVersion),
    ])
    return self.connection.lastInsertRowID
  }

  /// Marks session `id` ended at `endedAt` (`nil`: it did not end cleanly), with the number of
  /// actions the recorder dropped, and of those the store's thread analysed because the
  /// analysis backlog was at its bound (`nil`: not counted; see `sessions.backlog_fallbacks`).
  package func endSession(
    id: Int64, endedAt: String?, droppedActions: Int, backlogFallbacks: Int?
  ) throws(TraceFileError) {
    let statement: SQLiteStatement
    if let endSession = self.endSession {
      statement = endSession
    } else {
      statement = try self.connection.prepare(
        "UPDATE sessions SET ended_at = ?1, dropped_actions = ?2, backlog_fallbacks = ?3 WHERE id = ?4"
      )
      self.endSession = statement
    }
    try statement.run([
      SQLiteValue(endedAt), .integer(Int64(droppedActions)),
      SQLiteValue(backlogFallbacks), .integer(id),
    ])
  }

  /// Adds an action; returns its id. `causeSeq` is the seq of the action whose effect sent it
  /// (its origin is then `effect`), `nil` for one sent (`send`, or `debugger` when
  /// `fromDebugger`: sent from the page of `tcatrace serve --live`); `flight`, for one copied
  /// from a flight journal, says how (see `actions.flight`).
  ///
  /// NB: Its strings are borrowed, never copied: the recorder's records are read where they
  /// lie, as copying one retains each of its strings, whose counts the store's thread touches.
  package func insertAction(
    sessionID: Int64, seq: Int, timeNs: Int64, durationNs: Int64, causeSeq: Int?,
    path: String, rootCategory: String, feature: String, category: String, caseName: String,
    statePath: String, payload: String?, payloadJSON: String?, jsonChanges: String?,
    atOnce: Bool, flight: String? = nil, fromDebugger: Bool = false
  ) throws(TraceFileError) -> Int64 {
    let insert = self.insertAction
    insert.reset()
    insert.bind(1, sessionID)
    insert.bind(2, Int64(seq))
    insert.bind(3, timeNs)
    insert.bind(4, durationNs)
    if let causeSeq {
      insert.bind(5, "effect")
      insert.bind(6, Int64(causeSeq))
    } else {
      insert.bind(5, fromDebugger ? "debugger" : "send")
      insert.bind(6, nil)
    }
    insert.bind(7, path)
    insert.bind(8, rootCategory)
    insert.bind(9, feature)
    insert.bind(10, category)
    insert.bind(11, caseName)
    insert.bind(12, statePath)
    insert.bind(13, payload)
    insert.bind(14, payloadJSON)
    insert.bind(15, jsonChanges)
    insert.bind(16, flag: atOnce)
    insert.bind(17, flight)
    try insert.run()
    return self.connection.lastInsertRowID
  }

  /// Adds a state change of action `actionID`, the `position`th it made.
  package func insertChange(
    actionID: Int64, position: Int, path: String, kind: String, old: String?, new: String?,
    rebuild: String?, shared: String?
  ) throws(TraceFileError) {
    let insert = self.insertChange
    insert.reset()
    insert.bind(1, actionID)
    insert.bind(2, Int64(position))
    insert.bind(3, path)
    insert.bind(4, kind)
    insert.bind(5, old)
    insert.bind(6, new)
    insert.bind(7, rebuild)
    insert.bind(8, shared)
    try insert.run()
  }

  /// Keeps the state of session `sessionID` after its action `seq` (0: before the first), as
  /// a tree and as JSON, replacing one kept there before.
  package func insertState(
    sessionID: Int64, seq: Int, tree: String, json: String?
  ) throws(TraceFileError) {
    let insert = self.insertState
    insert.reset()
    insert.bind(1, sessionID)
    insert.bind(2, Int64(seq))
    insert.bind(3, tree)
    insert.bind(4, json)
    try insert.run()
  }

  /// Adds what a debugger did to session `sessionID` after its action `afterSeq` (see
  /// `debugger_events`).
  package func insertDebuggerEvent(
    sessionID: Int64, afterSeq: Int, timeNs: Int64, kind: String, toSeq: Int?,
    ignoredActions: Int?
  ) throws(TraceFileError) {
    let statement: SQLiteStatement
    if let insert = self.insertDebuggerEvent {
      statement = insert
    } else {
      statement = try self.connection.prepare(
        TraceColumns.insert(into: "debugger_events", TraceColumns.debuggerEvents))
      self.insertDebuggerEvent = statement
    }
    try statement.run([
      .integer(sessionID), .integer(Int64(afterSeq)), .integer(timeNs), .text(kind),
      toSeq.map { .integer(Int64($0)) } ?? .null,
      ignoredActions.map { .integer(Int64($0)) } ?? .null,
    ])
  }

  /// Adds a leak of action `actionID`.
  package func insertLeak(
    actionID: Int64, rule: String, feature: String, detail: String
  ) throws(TraceFileError) {
    try self.insertLeak.run([.integer(actionID), .text(rule), .text(feature), .text(detail)])
  }
}
