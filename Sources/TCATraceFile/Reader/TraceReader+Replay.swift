/// An action as a replay reads it: what it was, where it came from, and what it changed.
package struct ReplayedAction: Sendable {
  package var seq: Int
  package var origin: TracedAction.Origin
  /// The action's case path, as recorded.
  package var path: String
  /// The whole action as JSON; `nil` when its type was not `Encodable`.
  package var payloadJSON: String?
  /// The state changes it caused, in their recorded order.
  package var changes: [StateChange]
}

extension TraceReader {
  /// The number of actions of `session` its recorder wrote and their highest seq: equal when
  /// no action is missing (their difference is ``firstStep(session:)`` when its first actions
  /// were trimmed). Those copied from a flight journal, whose state changes are not known, are
  /// left out.
  package func actionExtent(session: Int64) throws(TraceFileError) -> (count: Int, lastSeq: Int) {
    let statement = try self.connection.prepare(
      "SELECT count(*), coalesce(max(seq), 0) FROM actions WHERE session_id = ?1"
        + (try self.writtenOnly(""))
    )
    statement.bind(1, session)
    guard try statement.step() else { return (0, 0) }
    return (Int(clamping: try statement.integer(0)), Int(clamping: try statement.integer(1)))
  }

  /// Each action of `session` its recorder wrote (not one copied from a flight journal, whose
  /// state changes are not known), by seq, with its state changes, read in one pass: what a
  /// replay needs and no more (no rendered payload, times or leaks).
  ///
  /// - Parameter body: Called with each action; returns `false` to stop reading.
  package func forEachReplayedAction(
    session: Int64, _ body: (ReplayedAction) throws -> Bool
  ) throws {
    // NB: One statement joins each action to its changes: a statement of its own per action
    // costs more than reading it.
    let statement = try self.connection.prepare(
      """
      SELECT a.id, a.seq, a.origin, a.cause_seq, a.path, a.payload_json,
        c.path, c.kind, c.old_value, c.new_value
      FROM actions a LEFT JOIN state_changes c ON c.action_id = a.id
      WHERE a.session_id = ?1\(try self.writtenOnly("a."))
      ORDER BY a.seq, c.position
      """
    )
    statement.bind(1, session)
    var current: (id: Int64, action: ReplayedAction)?
    while try statement.step() {
      let id = try statement.integer(0)
      if current?.id != id {
        if let (_, action) = current, try !body(action) { return }
        let seq = Int(clamping: try statement.integer(1))
        if let previous = current?.action.seq, seq <= previous {
          throw TraceFileError(
            kind: .corrupt, path: self.path,
            message: "holds action #\(seq) of session \(session) after action #\(previous)"
          )
        }
        current = (
          id,
          ReplayedAction(
            seq: seq,
            origin: try self.origin(statement, 2, cause: try statement.optionalInteger(3), of: seq),
            path: try statement.string(4),
            payloadJSON: try statement.optionalString(5),
            changes: []
          )
        )
      }
      guard !statement.isNull(6) else { continue }
      current?.action.changes.append(try self.change(statement, from: 6))
    }
    if let (_, action) = current { _ = try body(action) }
  }
}

extension TraceReader {
  /// The first seq of `session` that has no action, below its highest and after its first step
  /// (``firstStep(session:)``); `nil` when none is missing.
  package func firstMissingSeq(session: Int64) throws(TraceFileError) -> Int? {
    var expected = try self.firstStep(session: session) + 1
    let statement = try self.connection.prepare(
      "SELECT seq FROM actions WHERE session_id = ?1 AND seq >= ?2 ORDER BY seq"
    )
    statement.bind(1, session)
    statement.bind(2, Int64(expected))
    while try statement.step() {
      guard Int(clamping: try statement.integer(0)) == expected else { return expected }
      expected += 1
    }
    return nil
  }

  /// The actions of `session` sent by effects of an action at or before seq `cause`, and
  /// after seq `after`: for each cause, the first such action, by cause.
  package func effectActions(
    session: Int64, causedThrough cause: Int, sentAfter after: Int
  ) throws(TraceFileError) -> [(cause: Int, seq: Int, path: String)] {
    let statement = try self.connection.prepare(
      """
      SELECT cause_seq, seq, path FROM actions
      WHERE session_id = ?1 AND origin = 'effect' AND cause_seq <= ?2 AND seq > ?3
      ORDER BY cause_seq, seq
      """
    )
    statement.bind(1, session)
    statement.bind(2, Int64(cause))
    statement.bind(3, Int64(after))
    var actions: [(cause: Int, seq: Int, path: String)] = []
    while try statement.step() {
      let cause = Int(clamping: try statement.integer(0))
      if actions.last?.cause == cause { continue }
      actions.append((cause, Int(clamping: try statement.integer(1)), try statement.string(2)))
    }
    return actions
  }
}
