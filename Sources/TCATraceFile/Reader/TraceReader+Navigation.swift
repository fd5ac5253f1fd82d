extension TraceReader {
  /// The seq of the last action of `session`; `0` when it has none yet. `written`: of the last
  /// one its recorder wrote, the last whose state after it is known (those after it, copied
  /// from a flight journal, have none).
  package func lastSeq(session: Int64, written: Bool = false) throws(TraceFileError) -> Int {
    let statement = try self.connection.prepare(
      "SELECT coalesce(max(seq), 0) FROM actions WHERE session_id = ?1"
        + (written ? try self.writtenOnly("") : "")
    )
    statement.bind(1, session)
    guard try statement.step() else { return 0 }
    return Int(clamping: try statement.integer(0))
  }

  /// ` AND flight IS NULL` (on the actions table `alias`, `a.`, or none) when the file marks
  /// actions copied from a flight journal, to read only those their recorder wrote.
  package func writtenOnly(_ alias: String) throws(TraceFileError) -> String {
    try self.marksFlight() ? " AND \(alias)flight IS NULL" : ""
  }

  /// The step of `session` whose state the file keeps first: `0`, the state before its first
  /// action, unless its first actions were trimmed (``TraceSession/trimmedActions``), when it is
  /// the last of them, whose state after it is kept where the actions left begin. The state
  /// after every step from it through the last action rebuilds.
  package func firstStep(session: Int64) throws(TraceFileError) -> Int {
    let counts: Bool
    if let known = self.countsTrimmedActions {
      counts = known
    } else {
      // NB: A file of schema version 1 has no `states` either, and nothing trimmed.
      let hasStates = try self.hasColumn("seq", in: "states")
      let hasCount = try self.hasColumn("trimmed_actions", in: "sessions")
      counts = hasStates && hasCount
      self.countsTrimmedActions = counts
    }
    guard counts else { return 0 }
    let statement = try self.connection.prepare(
      """
      SELECT CASE WHEN s.trimmed_actions > 0
        THEN (SELECT coalesce(min(st.seq), 0) FROM states st WHERE st.session_id = s.id)
        ELSE 0 END
      FROM sessions s WHERE s.id = ?1
      """
    )
    statement.bind(1, session)
    guard try statement.step() else { return 0 }
    return Int(clamping: try statement.integer(0))
  }

  /// The action `seq` of `session`, with its changes and leaks; `nil` when there is none.
  package func action(session: Int64, seq: Int) throws -> TracedAction? {
    try self.actions(session: session, from: seq, through: seq).first
  }

  /// The actions of `session` numbered `from` through `through`, by seq.
  package func actions(
    session: Int64, from: Int, through: Int, includeChanges: Bool = true
  ) throws -> [TracedAction] {
    var actions: [TracedAction] = []
    try self.forEachAction(
      matching: TraceFilter(session: session, fromSeq: from, toSeq: through),
      order: .seqAscending, includeChanges: includeChanges
    ) { actions.append($0) }
    return actions
  }

  /// The first action after `seq` that matches `filter` (whose session must be set), or the
  /// last one before it when `backward`; `nil` when there is none.
  package func action(
    matching filter: TraceFilter, after seq: Int, backward: Bool = false
  ) throws -> TracedAction? {
    var filter = filter
    if backward {
      filter.toSeq = min(filter.toSeq ?? .max, seq - 1)
    } else {
      filter.fromSeq = max(filter.fromSeq ?? .min, seq + 1)
    }
    var found: TracedAction?
    try self.forEachAction(
      matching: filter, order: backward ? .seqDescending : .seqAscending, limit: 1
    ) { found = $0 }
    return found
  }

  /// The seqs of the actions that the effects of action `seq` of `session` sent, among the
  /// `window` actions after it.
  ///
  /// NB: Bounded, as the file has no index by cause: an effect's actions mostly follow soon
  /// after its action, and reading up to the end of a long session at every step would not be
  /// instant.
  package func consequences(session: Int64, of seq: Int, window: Int) throws(TraceFileError)
    -> [Int]
  {
    let statement = try self.connection.prepare(
      """
      SELECT seq FROM actions
      WHERE session_id = ?1 AND seq > ?2 AND seq <= ?2 + ?3 AND origin = 'effect' AND cause_seq = ?2
      ORDER BY seq
      """
    )
    statement.bind([.integer(session), .integer(Int64(seq)), .integer(Int64(window))])
    var seqs: [Int] = []
    while try statement.step() { seqs.append(Int(clamping: try statement.integer(0))) }
    return seqs
  }
}

extension TraceReader {
  /// When `session` ended (its recorder closed); `nil` while it is being recorded.
  package func endedAt(session: Int64) throws(TraceFileError) -> String? {
    let statement = try self.connection.prepare("SELECT ended_at FROM sessions WHERE id = ?1")
    statement.bind(1, session)
    guard try statement.step() else { return nil }
    return try statement.optionalString(0)
  }
}
