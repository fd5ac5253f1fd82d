extension TraceReader {
  /// The whole state of `session` right after its action `seq` (`0`: before its first action),
  /// as CustomDump rendered the store's state then.
  ///
  /// ```swift
  /// let state = try reader.state(session: 1, after: 412)
  /// print(state.rendered())
  /// print(state.node(at: "login.twoFactor")?.rendered() ?? "no such path")
  /// ```
  ///
  /// It is rebuilt from the nearest state the recorder kept before it and the changes since,
  /// which are at most about as many as the state has nodes: any step costs about the same.
  ///
  /// - Throws: `TraceFileError` of kind `.notInFile` when the session has no action `seq`, or
  ///   was recorded without states (by a TCATrace before schema version 2); `.corrupt` when the
  ///   file's states and changes do not fit together.
  public func state(session: Int64, after seq: Int) throws(TraceFileError) -> StateNode {
    var state: StateNode?
    do {
      try self.forEachState(session: session, from: seq, through: seq) { _, node in state = node }
    } catch let error as TraceFileError {
      throw error
    } catch {
      // NB: The body above throws nothing; what is thrown is the reader's.
      throw self.damaged("could not be read: \(error)")
    }
    guard let state else { throw self.damaged("holds no state of session \(session) after action #\(seq)") }
    return state
  }

  /// Calls `body` with the state of `session` after each of its actions from `from` through
  /// `through` (`0`: the state before the first), in order: one rebuild for them all, where
  /// ``state(session:after:)`` for each would rebuild each from a kept state.
  public func forEachState(
    session: Int64, from: Int, through: Int, _ body: (Int, StateNode) throws -> Void
  ) throws {
    let actions = try self.connection.integer(
      "SELECT coalesce(max(seq), 0) FROM actions WHERE session_id = \(session)"
    ) ?? 0
    for seq in [from, through] where seq < 0 || Int64(seq) > actions {
      throw TraceFileError(
        kind: .notInFile, path: self.path,
        message: "has no action #\(seq) in session \(session), which has \(actions) action\(actions == 1 ? "" : "s"): ask for 0 (the state before the first) to \(actions)"
      )
    }
    guard from <= through else { return }
    guard try self.holdsStates(session: session) else {
      throw TraceFileError(
        kind: .notInFile, path: self.path,
        message: "holds no states for session \(session): it was recorded by a TCATrace older than schema version 2, which kept only changes; record it again to see its state at each step"
      )
    }
    let keyframe = try self.connection.prepare(
      "SELECT seq, tree FROM states WHERE session_id = ?1 AND seq <= ?2 ORDER BY seq DESC LIMIT 1"
    )
    keyframe.bind([.integer(session), .integer(Int64(from))])
    guard try keyframe.step() else {
      throw self.damaged("holds no state of session \(session) before action #\(from), though it holds later ones")
    }
    let start = try keyframe.integer(0)
    var state: StateNode
    let tree = try keyframe.string(1)
    do throws(StateJSONError) {
      state = try StateNode(json: tree)
    } catch {
      throw self.damaged("holds a state of session \(session), after action #\(start), that \(error.reason)")
    }
    // NB: Every action between the kept state and `through` must be there: a recorder that
    // dropped actions (its buffer was full) lost their changes, and the state after them is
    // unknown.
    let present = try self.connection.integer(
      "SELECT count(*) FROM actions WHERE session_id = \(session) AND seq > \(start) AND seq <= \(through)"
    ) ?? 0
    guard present == Int64(through) - start else {
      throw TraceFileError(
        kind: .notInFile, path: self.path,
        message: "lacks \(Int64(through) - start - present) of the actions between #\(start) and #\(through) of session \(session) (the recorder dropped them), so the state after them cannot be rebuilt"
      )
    }
    if Int64(from) == start { try body(from, state) }
    // NB: Rebuilding needs no old values.
    let changes = try self.connection.prepare(
      """
      SELECT a.seq, c.path, c.kind, NULL, c.new_value, c.rebuild
      FROM actions a LEFT JOIN state_changes c ON c.action_id = a.id
      WHERE a.session_id = ?1 AND a.seq > ?2 AND a.seq <= ?3
      ORDER BY a.seq, c.position
      """
    )
    changes.bind([.integer(session), .integer(start), .integer(Int64(through))])
    var pending: [StateChange] = []
    var pendingSeq: Int64?
    // NB: The states before `from` are not asked for: the changes of the actions up to it are
    // applied together, without those a later change at the same place overwrites (a field
    // typed into, a counter: the changes since a keyframe are mostly such).
    var unseen: [(seq: Int64, changes: [StateChange])] = []
    func apply(_ changes: [StateChange], of seq: Int64) throws {
      guard !changes.isEmpty else { return }
      do throws(StateRebuildError) {
        state = try state.applying(changes)
      } catch {
        throw self.damaged("holds a state change of action #\(seq) of session \(session) that does not fit the state: \(error)")
      }
    }
    func finishAction() throws {
      guard let seq = pendingSeq else { return }
      defer { pending.removeAll(keepingCapacity: true) }
      if seq < Int64(from) {
        if !pending.isEmpty { unseen.append((seq, pending)) }
        return
      }
      if seq == Int64(from) {
        unseen.append((seq, pending))
        StateChange.removeOverwritten(from: &unseen)
        for action in unseen { try apply(action.changes, of: action.seq) }
        unseen = []
      } else {
        try apply(pending, of: seq)
      }
      try body(Int(seq), state)
    }
    while try changes.step() {
      let actionSeq = try changes.integer(0)
      if actionSeq != pendingSeq {
        try finishAction()
        pendingSeq = actionSeq
      }
      // NB: An action that changed nothing is one row, with NULLs for its changes.
      guard let path = try changes.optionalString(1) else { continue }
      let kindName = try changes.string(2)
      guard let kind = StateChange.Kind(rawValue: kindName) else {
        throw self.damaged("holds an unknown state change kind '\(kindName)'")
      }
      var rebuild: StateChange.Rebuild?
      if let json = try changes.optionalString(5) {
        do throws(StateJSONError) {
          rebuild = try StateChange.Rebuild(json: json)
        } catch {
          throw self.damaged("holds a state change of action #\(actionSeq) of session \(session) that \(error.reason)")
        }
      }
      pending.append(
        StateChange(
          path: path, kind: kind, old: try changes.optionalString(3),
          new: try changes.optionalString(4), rebuild: rebuild
        )
      )
    }
    try finishAction()
  }

  /// The whole state of `session` right before its action `seq`: ``state(session:after:)`` of
  /// `seq - 1`.
  public func state(session: Int64, before seq: Int) throws(TraceFileError) -> StateNode {
    try self.state(session: session, after: seq - 1)
  }

  /// Whether the file keeps states for `session`: it was recorded with schema version 2 or
  /// later.
  public func holdsStates(session: Int64) throws(TraceFileError) -> Bool {
    let hasTable = try self.connection.integer(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'states'"
    ) == 1
    guard hasTable else { return false }
    return try self.connection.integer(
      "SELECT count(*) FROM (SELECT 1 FROM states WHERE session_id = \(session) LIMIT 1)"
    ) == 1
  }

  /// The state's own JSON right after the action `seq` of `session` (`0`: before its first
  /// action), as `JSONEncoder` wrote it (keys sorted, redacted values read `"<redacted>"`),
  /// where the recorder kept the whole state — always before the first action, and at its
  /// keyframes — and the state's type is `Encodable`; `nil` elsewhere, and in files from before
  /// schema version 3.
  ///
  /// ```swift
  /// let initial = try reader.stateJSON(session: 1, after: 0)
  ///   .map { try JSONDecoder().decode(Counter.State.self, from: Data($0.utf8)) }
  /// ```
  public func stateJSON(session: Int64, after seq: Int) throws(TraceFileError) -> String? {
    let hasColumn = try self.connection.integer(
      "SELECT count(*) FROM pragma_table_info('states') WHERE name = 'json'"
    ) == 1
    guard hasColumn else { return nil }
    let statement = try self.connection.prepare(
      "SELECT json FROM states WHERE session_id = ?1 AND seq = ?2"
    )
    statement.bind([.integer(session), .integer(Int64(seq))])
    guard try statement.step() else { return nil }
    return try statement.optionalString(0)
  }

  private func damaged(_ message: String) -> TraceFileError {
    TraceFileError(kind: .corrupt, path: self.path, message: message)
  }
}
