extension TraceRowWriter {
  /// Removes the actions of `session` before its action `first`, with their state changes and
  /// leaks and the states kept among them, and adds their number to the session's
  /// `trimmed_actions`: for a file kept within a size limit, or the part of a session an export
  /// keeps. What is left reads as a session of its own: the state before `first` is kept (its
  /// tree, and its JSON when the file follows it), rebuilt from the file, so that the state
  /// after every action left rebuilds.
  ///
  /// When that state cannot be rebuilt (actions before `first` are missing, which a recorder
  /// whose buffer was full drops), the session is cut where it next kept a whole state, after
  /// `first`; with none there, nothing is removed.
  ///
  /// - Parameter path: The trace the rows came from, which errors in reading them name.
  /// - Returns: The actions removed.
  package func trim(
    session: Int64, keepingFrom first: Int, path: String
  ) throws(TraceFileError) -> Int {
    let reader = TraceReader(connection: self.connection, path: path)
    var cut = try min(first - 1, reader.lastSeq(session: session, written: true))
    guard cut > 0 else { return 0 }
    var state: (tree: String, json: String?)?
    do throws(TraceFileError) {
      let tree = try reader.state(session: session, after: cut).json
      state = (tree, try reader.stateJSON(session: session, after: cut))
    } catch  where error.kind == .notInFile {
      let next = try self.connection.prepare(
        "SELECT min(seq) FROM states WHERE session_id = ?1 AND seq >= ?2")
      next.bind([.integer(session), .integer(Int64(cut))])
      guard try next.step(), let seq = try next.optionalInteger(0) else { return 0 }
      cut = Int(clamping: seq)
    }
    let values: [SQLiteValue] = [.integer(session), .integer(Int64(cut))]
    let actions = "SELECT id FROM actions WHERE session_id = ?1 AND seq <= ?2"
    try self.connection.prepare("DELETE FROM leaks WHERE action_id IN (\(actions))").run(values)
    try self.connection.prepare("DELETE FROM state_changes WHERE action_id IN (\(actions))").run(
      values)
    try self.connection.prepare("DELETE FROM actions WHERE session_id = ?1 AND seq <= ?2").run(
      values)
    let removed = self.connection.changes
    try self.connection.prepare("DELETE FROM states WHERE session_id = ?1 AND seq < ?2").run(values)
    // NB: What a debugger did before the state the session now starts from.
    if try self.connection.hasTable("debugger_events") {
      try self.connection.prepare(
        "DELETE FROM debugger_events WHERE session_id = ?1 AND after_seq < ?2"
      ).run(values)
    }
    if let state {
      try self.insertState(sessionID: session, seq: cut, tree: state.tree, json: state.json)
    }
    try self.connection.prepare(
      "UPDATE sessions SET trimmed_actions = trimmed_actions + ?2 WHERE id = ?1"
    ).run([.integer(session), .integer(removed)])
    return Int(clamping: removed)
  }
}

extension TraceRowWriter {
  /// Removes the session `id` and all its rows: for a file kept within a size limit, which
  /// drops its oldest sessions first.
  package func deleteSession(_ id: Int64) throws(TraceFileError) {
    let values: [SQLiteValue] = [.integer(id)]
    let actions = "SELECT id FROM actions WHERE session_id = ?1"
    try self.connection.prepare("DELETE FROM leaks WHERE action_id IN (\(actions))").run(values)
    try self.connection.prepare("DELETE FROM state_changes WHERE action_id IN (\(actions))").run(
      values)
    try self.connection.prepare("DELETE FROM actions WHERE session_id = ?1").run(values)
    try self.connection.prepare("DELETE FROM states WHERE session_id = ?1").run(values)
    if try self.connection.hasTable("debugger_events") {
      try self.connection.prepare("DELETE FROM debugger_events WHERE session_id = ?1").run(values)
    }
    if try self.connection.hasTable("session_sources") {
      try self.connection.prepare("DELETE FROM session_sources WHERE session_id = ?1").run(values)
    }
    try self.connection.prepare("DELETE FROM sessions WHERE id = ?1").run(values)
  }
}
