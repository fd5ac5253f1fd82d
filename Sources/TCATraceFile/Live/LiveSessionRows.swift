/// Reads one session's rows from the trace file its recorder writes, as the messages of a live
/// connection (see ``LiveProtocol``): at each call, those the recorder has committed since the
/// last. What is sent is what was written: the values the recorder redacted are redacted here.
///
/// The file is opened for each call and closed after it, read-only: between calls the feed
/// holds nothing open, so that the recorder, closing the file, is its last connection and
/// leaves no `-wal` beside it.
package final class LiveSessionFeed {
  private let path: String
  private let session: Int64
  private var connection: SQLiteConnection!
  private var hasSentSession = false
  private var lastActionID: Int64 = 0
  private var lastSeq = 0
  private var lastStateSeq = -1
  private var lastEventID: Int64 = 0
  private var hasEnded = false
  private var actions: SQLiteStatement?
  private var changes: SQLiteStatement?
  private var leaks: SQLiteStatement?
  private var states: SQLiteStatement?

  /// A feed of session `session` of the trace at `path`, from its start.
  package init(path: String, session: Int64) {
    self.path = path
    self.session = session
  }

  /// Whether the session's end has been read: nothing more will come.
  package var isComplete: Bool { self.hasEnded }

  /// The messages of what the recorder committed since the last call, at most `limit` actions
  /// of them: the session first, then each action, each state kept after it, and the session's
  /// end once every action before it has been read.
  ///
  /// - Parameter live: Whether a recorder may be writing the file: it is then opened to see its
  ///   commits, taking SQLite's locks; otherwise (its recorder has closed it, leaving no
  ///   `-wal`) it is opened as a file nobody writes, which leaves nothing beside it.
  package func next(limit: Int = 256, live: Bool = false) throws(TraceFileError) -> [LiveMessage] {
    guard !self.hasEnded else { return [] }
    self.connection = try TraceFile.openForReading(path: self.path, live: live).connection
    defer {
      (self.actions, self.changes, self.leaks, self.states) = (nil, nil, nil, nil)
      self.connection = nil
    }
    return try self.connection.transaction(.deferred) { () throws(TraceFileError) in
      var messages: [LiveMessage] = []
      if !self.hasSentSession {
        guard let session = try self.sessionRow() else { return [] }
        messages.append(.session(session))
        self.hasSentSession = true
      }
      let actions = try self.actionRows(limit: limit)
      messages += actions.map(LiveMessage.action)
      messages += try self.stateRows()
      messages += try self.eventRows()
      if actions.count < limit, let end = try self.end() {
        messages.append(end)
        self.hasEnded = true
      }
      return messages
    }
  }

  private func sessionRow() throws(TraceFileError) -> LiveSession? {
    let statement = try self.connection.prepare(
      "SELECT name, root_feature, started_at, recorder_version FROM sessions WHERE id = ?1")
    statement.bind(1, self.session)
    guard try statement.step() else { return nil }
    return LiveSession(
      name: try statement.string(0), rootFeature: try statement.string(1),
      startedAt: try statement.string(2), recorderVersion: try statement.string(3))
  }

  private func prepared(
    _ statement: inout SQLiteStatement?, _ sql: String
  ) throws(TraceFileError) -> SQLiteStatement {
    if let statement {
      statement.reset()
      return statement
    }
    let made = try self.connection.prepare(sql)
    statement = made
    return made
  }

  private func actionRows(limit: Int) throws(TraceFileError) -> [LiveAction] {
    let statement = try self.prepared(
      &self.actions,
      """
      SELECT id, seq, time_ns, duration_ns, cause_seq, path, root_category, feature, category,
        case_name, state_path, payload, payload_json, json_changes, at_once,
        origin = 'debugger'
      FROM actions WHERE session_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3
      """)
    statement.bind(1, self.session)
    statement.bind(2, self.lastActionID)
    statement.bind(3, Int64(limit))
    var rows: [(id: Int64, action: LiveAction)] = []
    while try statement.step() {
      rows.append(
        (
          try statement.integer(0),
          LiveAction(
            seq: Int(try statement.integer(1)), timeNs: try statement.integer(2),
            durationNs: try statement.integer(3),
            causeSeq: try statement.optionalInteger(4).map { Int($0) },
            path: try statement.string(5), rootCategory: try statement.string(6),
            feature: try statement.string(7), category: try statement.string(8),
            caseName: try statement.string(9), statePath: try statement.string(10),
            payload: try statement.optionalString(11),
            payloadJSON: try statement.optionalString(12),
            jsonChanges: try statement.optionalString(13), atOnce: !statement.isNull(14),
            changes: [], leaks: [], fromDebugger: try statement.integer(15) == 1
          )
        ))
    }
    var actions: [LiveAction] = []
    for (id, var action) in rows {
      action.changes = try self.changeRows(of: id)
      action.leaks = try self.leakRows(of: id)
      actions.append(action)
      self.lastActionID = id
      self.lastSeq = action.seq
    }
    return actions
  }

  private func changeRows(of actionID: Int64) throws(TraceFileError) -> [LiveAction.Change] {
    let statement = try self.prepared(
      &self.changes,
      """
      SELECT path, kind, old_value, new_value, rebuild, shared
      FROM state_changes WHERE action_id = ?1 ORDER BY position
      """)
    statement.bind(1, actionID)
    var changes: [LiveAction.Change] = []
    while try statement.step() {
      changes.append(
        LiveAction.Change(
          path: try statement.string(0), kind: try statement.string(1),
          old: try statement.optionalString(2), new: try statement.optionalString(3),
          rebuild: try statement.optionalString(4), shared: try statement.optionalString(5)))
    }
    return changes
  }

  private func leakRows(of actionID: Int64) throws(TraceFileError) -> [LiveAction.Leak] {
    let statement = try self.prepared(
      &self.leaks,
      "SELECT rule, feature, detail FROM leaks WHERE action_id = ?1 ORDER BY rowid")
    statement.bind(1, actionID)
    var leaks: [LiveAction.Leak] = []
    while try statement.step() {
      leaks.append(
        LiveAction.Leak(
          rule: try statement.string(0), feature: try statement.string(1),
          detail: try statement.string(2)))
    }
    return leaks
  }

  /// The states kept after actions already read, and not read before.
  private func stateRows() throws(TraceFileError) -> [LiveMessage] {
    let statement = try self.prepared(
      &self.states,
      """
      SELECT seq, tree, json FROM states
      WHERE session_id = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq
      """)
    statement.bind(1, self.session)
    statement.bind(2, Int64(self.lastStateSeq))
    statement.bind(3, Int64(self.lastSeq))
    var states: [LiveMessage] = []
    while try statement.step() {
      let seq = Int(try statement.integer(0))
      states.append(
        .state(seq: seq, tree: try statement.string(1), json: try statement.optionalString(2)))
      self.lastStateSeq = seq
    }
    return states
  }

  /// What a debugger did after actions already read, and not read before.
  private func eventRows() throws(TraceFileError) -> [LiveMessage] {
    let events = try TraceReader.debuggerEvents(
      connection: self.connection, path: self.path, session: self.session,
      after: self.lastEventID, upTo: self.lastSeq)
    if let last = events.last { self.lastEventID = last.id }
    return events.map {
      .debuggerEvent(
        afterSeq: $0.afterSeq, timeNs: $0.timeNs, kind: $0.kind.rawValue, toSeq: $0.toSeq,
        ignoredActions: $0.ignoredActions)
    }
  }

  /// The session's end, once its recorder has ended it.
  private func end() throws(TraceFileError) -> LiveMessage? {
    let statement = try self.connection.prepare(
      """
      SELECT ended_at, dropped_actions, backlog_fallbacks FROM sessions
      WHERE id = ?1 AND ended_at IS NOT NULL
      """)
    statement.bind(1, self.session)
    guard try statement.step() else { return nil }
    return .end(
      endedAt: try statement.string(0), droppedActions: Int(try statement.integer(1)),
      backlogFallbacks: try statement.optionalInteger(2).map { Int(clamping: $0) })
  }
}

/// Writes the session a live connection carries into a trace file of its own, by the rows
/// writer the recorder uses (``TraceRowWriter``), checking each message against what came
/// before: an app's messages are untrusted.
package final class LiveSessionReceiver {
  private let connection: SQLiteConnection
  private let rows: TraceRowWriter
  private var session: Int64?
  private var lastSeq = 0
  private var hasEnded = false

  /// A receiver writing into the trace at `path`, made if it does not exist.
  package init(path: String) throws(TraceFileError) {
    let connection = try TraceFile.openForWriting(path: path)
    try TraceFile.prepareForAppending(connection)
    self.connection = connection
    self.rows = try TraceRowWriter(connection: connection)
  }

  /// The session's id in the file, once its row has arrived.
  package var sessionID: Int64? { self.session }

  /// The seq of the last action written.
  package var lastWrittenSeq: Int { self.lastSeq }

  /// Whether the session's end has arrived.
  package var hasReceivedEnd: Bool { self.hasEnded }

  /// Writes `messages` in one transaction: all of them, or, when one is not what may come
  /// next, none.
  ///
  /// - Throws: ``LiveProtocolError`` for a message out of place or that the trace's schema
  ///   refuses; `TraceFileError` when the file cannot be written.
  package func receive(_ messages: [LiveMessage]) throws -> Void {
    var refusal: LiveProtocolError?
    let (lastSeq, session, ended) = (self.lastSeq, self.session, self.hasEnded)
    do {
      try self.connection.transaction(.takingTheWriteLock) { () throws(TraceFileError) in
        for message in messages {
          if let problem = try self.write(message) {
            refusal = problem
            throw TraceFileError(kind: .sqlite, path: "", message: problem.reason)
          }
        }
      }
    } catch {
      (self.lastSeq, self.session, self.hasEnded) = (lastSeq, session, ended)
      if let refusal { throw refusal }
      if error.kind == .sqlite, error.message.contains("constraint") {
        throw LiveProtocolError("rows the trace's schema refuses (\(error.message))")
      }
      throw error
    }
  }

  /// Writes one message; returns why it may not come now, instead of writing it.
  private func write(_ message: LiveMessage) throws(TraceFileError) -> LiveProtocolError? {
    if self.hasEnded { return LiveProtocolError("a message after the session's end") }
    switch message {
    case .hello, .welcome, .refused, .busy:
      return LiveProtocolError("a greeting after the greetings")
    case .command, .answer:
      return LiveProtocolError("a command or an answer among the session's rows")
    case let .session(session):
      guard self.session == nil else { return LiveProtocolError("a second session") }
      self.session = try self.rows.beginSession(
        name: session.name, rootFeature: session.rootFeature, startedAt: session.startedAt,
        recorderVersion: session.recorderVersion)
    case let .action(action):
      guard let session = self.session else {
        return LiveProtocolError("an action before its session")
      }
      guard action.seq > self.lastSeq else {
        return LiveProtocolError("action #\(action.seq) after #\(self.lastSeq)")
      }
      if let cause = action.causeSeq, !(1..<action.seq).contains(cause) {
        return LiveProtocolError("action #\(action.seq) caused by #\(cause), not one before it")
      }
      let id = try self.rows.insertAction(
        sessionID: session, seq: action.seq, timeNs: action.timeNs,
        durationNs: action.durationNs, causeSeq: action.causeSeq, path: action.path,
        rootCategory: action.rootCategory, feature: action.feature, category: action.category,
        caseName: action.caseName, statePath: action.statePath, payload: action.payload,
        payloadJSON: action.payloadJSON, jsonChanges: action.jsonChanges, atOnce: action.atOnce,
        fromDebugger: action.fromDebugger && action.causeSeq == nil)
      for (position, change) in action.changes.enumerated() {
        try self.rows.insertChange(
          actionID: id, position: position, path: change.path, kind: change.kind,
          old: change.old, new: change.new, rebuild: change.rebuild, shared: change.shared)
      }
      for leak in action.leaks {
        try self.rows.insertLeak(
          actionID: id, rule: leak.rule, feature: leak.feature, detail: leak.detail)
      }
      self.lastSeq = action.seq
    case let .state(seq, tree, json):
      guard let session = self.session else {
        return LiveProtocolError("a state before its session")
      }
      guard (0...self.lastSeq).contains(seq) else {
        return LiveProtocolError("a state after action #\(seq), which has not come")
      }
      try self.rows.insertState(sessionID: session, seq: seq, tree: tree, json: json)
    case let .end(endedAt, droppedActions, backlogFallbacks):
      guard let session = self.session else {
        return LiveProtocolError("an end before its session")
      }
      guard droppedActions >= 0 else { return LiveProtocolError("a negative count of drops") }
      guard (backlogFallbacks ?? 0) >= 0 else {
        return LiveProtocolError("a negative count of fallbacks")
      }
      try self.rows.endSession(
        id: session, endedAt: endedAt, droppedActions: droppedActions,
        backlogFallbacks: backlogFallbacks)
      self.hasEnded = true
    case let .debuggerEvent(afterSeq, timeNs, kind, toSeq, ignoredActions):
      guard let session = self.session else {
        return LiveProtocolError("a debugger event before its session")
      }
      guard (0...self.lastSeq).contains(afterSeq) else {
        return LiveProtocolError("a debugger event after action #\(afterSeq), which has not come")
      }
      guard TraceDebuggerEvent.Kind(rawValue: kind) != nil, (toSeq ?? 0) >= 0,
        (ignoredActions ?? 0) >= 0
      else {
        return LiveProtocolError("a debugger event that is not one a recorder writes")
      }
      try self.rows.insertDebuggerEvent(
        sessionID: session, afterSeq: afterSeq, timeNs: timeNs, kind: kind, toSeq: toSeq,
        ignoredActions: ignoredActions)
    }
    return nil
  }
}
