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
  /// A recorded change that the state has no place for is left out (see
  /// ``state(session:after:unplaced:)``, which says which).
  ///
  /// - Throws: `TraceFileError` of kind `.notInFile` when the session has no action `seq`, or
  ///   was recorded without states (by a TCATrace before schema version 2); `.corrupt` when
  ///   SQLite or the trace's schema finds the file damaged.
  public func state(session: Int64, after seq: Int) throws(TraceFileError) -> StateNode {
    try self.state(session: session, after: seq, unplaced: { _ in })
  }

  /// The state of `session` after its action `seq`, as ``state(session:after:)`` rebuilds it,
  /// handing `unplaced` each recorded change on the way that the state has no place for: it is
  /// left out, and the rest of the state is rebuilt.
  public func state(
    session: Int64, after seq: Int, unplaced: (UnplacedChange) -> Void
  ) throws(TraceFileError) -> StateNode {
    var state: StateNode?
    do {
      try self.forEachState(session: session, from: seq, through: seq, unplaced: unplaced) {
        _, node in state = node
      }
    } catch let error as TraceFileError {
      throw error
    } catch {
      // NB: The body above throws nothing; what is thrown is the reader's.
      throw self.damaged("could not be read: \(error)")
    }
    guard let state else {
      throw self.damaged("holds no state of session \(session) after action #\(seq)")
    }
    return state
  }

  /// Calls `body` with the state of `session` after each of its actions from `from` through
  /// `through` (`0`: the state before the first), in order: one rebuild for them all, where
  /// ``state(session:after:)`` for each would rebuild each from a kept state. Each recorded
  /// change that the state has no place for is left out and handed to `unplaced`.
  public func forEachState(
    session: Int64, from: Int, through: Int, unplaced: (UnplacedChange) -> Void = { _ in },
    _ body: (Int, StateNode) throws -> Void
  ) throws {
    try self.checkHasSteps(session: session, from, through)
    guard from <= through else { return }
    let kept = try self.keptState(session: session, from: from, through: through)
    var state: StateNode
    let tree = try kept.keyframe.string(1)
    do throws(StateJSONError) {
      state = try StateNode(json: tree)
    } catch {
      throw self.damaged(
        "holds a state of session \(session), after action #\(kept.seq), that \(error.reason)")
    }
    // NB: The states before `from` are not asked for: the changes up to it are applied
    // together, read last first so that those a later change overwrites are left unread.
    if Int64(from) > kept.seq {
      let actions = try self.changesTogether(
        session: session, after: kept.seq, through: Int64(from), idOffset: kept.idOffset)
      self.apply(actions, to: &state, session: session, unplaced: unplaced)
    }
    try body(from, state)
    guard through > from else { return }
    let changes = try self.connection.prepare(
      """
      SELECT a.seq, c.path, c.kind, NULL, c.new_value, c.rebuild
      FROM actions a LEFT JOIN state_changes c ON c.action_id = a.id
      WHERE a.session_id = ?1 AND a.seq > ?2 AND a.seq <= ?3
      ORDER BY a.seq, c.position
      """
    )
    changes.bind([.integer(session), .integer(Int64(from)), .integer(Int64(through))])
    var pending: [StateChange] = []
    var pendingSeq: Int64?
    func finishAction() throws {
      guard let seq = pendingSeq else { return }
      if !pending.isEmpty {
        state = state.applying(pending) { error in
          unplaced(
            UnplacedChange(session: session, seq: Int(seq), path: error.path, reason: error.reason))
        }
        pending.removeAll(keepingCapacity: true)
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
      let kind = try self.stateChangeKind(changes, 2)
      let rebuild = try self.rebuild(changes, 5, of: actionSeq, session: session)
      pending.append(
        StateChange(
          path: path, kind: kind, old: try changes.optionalString(3),
          new: try changes.optionalString(4), rebuild: rebuild
        )
      )
    }
    try finishAction()
  }

  /// Checks that `session` has a state after each of `seqs`: an action with that seq, or 0,
  /// the state before the first (or, when its first actions were trimmed, the last of them:
  /// ``firstStep(session:)``).
  private func checkHasSteps(session: Int64, _ seqs: Int...) throws(TraceFileError) {
    let actions = try self.lastSeq(session: session, written: true)
    let first = try self.firstStep(session: session)
    for seq in seqs where seq > actions || seq < first || seq < 0 {
      if seq > actions, seq <= (try self.lastSeq(session: session)) {
        throw TraceFileError(
          kind: .notInFile, path: self.path,
          message:
            "knows no state of session \(session) after action #\(seq): its process ended before its recorder wrote the actions after #\(actions), and the flight journal kept only what they were; ask for \(first) to \(actions)"
        )
      }
      guard seq < first, seq >= 0 else {
        throw TraceFileError(
          kind: .notInFile, path: self.path,
          message: first == 0
            ? "has no action #\(seq) in session \(session), which has \(actions) action\(actions == 1 ? "" : "s"): ask for 0 (the state before the first) to \(actions)"
            : "has no action #\(seq) in session \(session), which keeps actions #\(first + 1) to #\(actions): ask for \(first) (the state before the first kept) to \(actions)"
        )
      }
      throw TraceFileError(
        kind: .notInFile, path: self.path,
        message:
          "keeps no state of session \(session) before action #\(first + 1): its actions through #\(first) were trimmed from the file (an export of its last part); ask for \(first) to \(actions)"
      )
    }
  }

  /// The state kept nearest before action `from` of `session`, to rebuild the states after its
  /// actions `from` through `through` from (steps of the session, ``checkHasSteps(session:_:)``,
  /// `from` not after `through`), after checking that those actions are in the file with every
  /// action between. `keyframe`: the statement that read it, its tree in column 1. `idOffset`:
  /// what the actions' row ids are their seqs plus, up to `from`, when it is one number.
  private func keptState(
    session: Int64, from: Int, through: Int
  ) throws(TraceFileError) -> (seq: Int64, keyframe: SQLiteStatement, idOffset: Int64?) {
    guard try self.holdsStates(session: session) else {
      throw TraceFileError(
        kind: .notInFile, path: self.path,
        message:
          "holds no states for session \(session): it was recorded by a TCATrace older than schema version 2, which kept only changes; record it again to see its state at each step"
      )
    }
    let keyframe = try self.connection.prepare(
      "SELECT seq, tree FROM states WHERE session_id = ?1 AND seq <= ?2 ORDER BY seq DESC LIMIT 1"
    )
    keyframe.bind([.integer(session), .integer(Int64(from))])
    guard try keyframe.step() else {
      throw self.damaged(
        "holds no state of session \(session) before action #\(from), though it holds later ones")
    }
    let start = try keyframe.integer(0)
    // NB: Every action between the kept state and `through` must be there: a recorder that
    // dropped actions (its buffer was full) lost their changes, and the state after them is
    // unknown.
    let counts = try self.connection.prepare(
      "SELECT count(*) FROM actions WHERE session_id = ?1 AND seq > ?2 AND seq <= ?3"
    )
    counts.bind([.integer(session), .integer(start), .integer(Int64(through))])
    guard try counts.step() else {
      throw self.damaged("could not count the actions of session \(session)")
    }
    let present = try counts.integer(0)
    guard present == Int64(through) - start else {
      throw TraceFileError(
        kind: .notInFile, path: self.path,
        message:
          "lacks \(Int64(through) - start - present) of the actions between #\(start) and #\(through) of session \(session) (the recorder dropped them), so the state after them cannot be rebuilt"
      )
    }
    // NB: Whether the actions' row ids up to `from` are their seqs plus one offset (see
    // `changesTogether`). A recorder writes a session's actions in the order of their seqs:
    // their row ids rise with them. All of them there, the first's and the last's ids their
    // seqs plus the same offset, every one's is, with no other action's between. (Checked row
    // by row, it cost twice what the count does; a file whose ids do not rise with
    // their seqs is no recorder's, and its changes are read as its ids say.)
    var offset: Int64?
    if Int64(from) > start, let candidate = try self.idOffset(session: session, seq: start + 1),
      try self.idOffset(session: session, seq: Int64(from)) == candidate,
      !start.addingReportingOverflow(candidate).overflow
    {
      offset = candidate
    }
    return (start, keyframe, offset)
  }

  /// The changes of `session`'s actions after `start` through `end`, without those a later
  /// change overwrites (see ``OverwrittenChanges``): read last first, and the new value of one
  /// overwritten is not read. Each action with the changes it keeps, in the order made.
  private func changesTogether(
    session: Int64, after start: Int64, through end: Int64, idOffset offset: Int64?
  ) throws(TraceFileError) -> [(seq: Int64, changes: [StateChange])] {
    // NB: When the actions' row ids are their seqs plus one offset (no other session's
    // actions were written between them: the common case), their changes are one range of
    // `state_changes`, read in order without looking each action up: a third of the time.
    let statement: SQLiteStatement
    if let offset {
      statement = try self.connection.prepare(
        """
        SELECT action_id, path, kind, new_value, rebuild, kind = 'changed' AND rebuild IS NULL
        FROM state_changes
        WHERE action_id > ?1 AND action_id <= ?2
        ORDER BY action_id DESC, position DESC
        """
      )
      statement.bind([.integer(start + offset), .integer(end + offset)])
    } else {
      statement = try self.connection.prepare(
        """
        SELECT a.seq, c.path, c.kind, c.new_value, c.rebuild, c.kind = 'changed' AND c.rebuild IS NULL
        FROM actions a JOIN state_changes c ON c.action_id = a.id
        WHERE a.session_id = ?1 AND a.seq > ?2 AND a.seq <= ?3
        ORDER BY a.seq DESC, c.position DESC
        """
      )
      statement.bind([.integer(session), .integer(start), .integer(end)])
    }
    var overwritten = OverwrittenChanges()
    // The actions, last first, each with the changes it keeps, last first.
    var actions: [(seq: Int64, changes: [StateChange])] = []
    var path: String?
    while try statement.step() {
      let seq = try statement.integer(0) - (offset ?? 0)
      if actions.last?.seq != seq {
        overwritten.actionEnded()
        actions.append((seq, []))
      }
      // NB: A change with nothing for rebuilding but its new value (column 5) replaces its
      // value whole; to the path of the change met just before it, it is overwritten, and is
      // dropped unread. (Column 5 says so of some of the changes `isOverwritten(by:)` takes
      // to replace their values whole, never of others: the rest are read and asked.)
      if statement.int64(5) == 1, let bytes = statement.textBytesIfText(1),
        overwritten.repeatsLastPath(bytes)
      {
        continue
      }
      // NB: Most changes of a long session are to a few paths, read again and again.
      path = try statement.string(1, sameAs: path)
      let path = path!
      let kind = try self.stateChangeKind(statement, 2)
      let rebuild = try self.rebuild(statement, 4, of: seq, session: session)
      var change = StateChange(path: path, kind: kind, old: nil, new: nil, rebuild: rebuild)
      guard !overwritten.isOverwritten(by: change) else { continue }
      change.new = try statement.optionalString(3)
      actions[actions.count - 1].changes.append(change)
    }
    return actions.reversed().compactMap {
      $0.changes.isEmpty ? nil : ($0.seq, $0.changes.reversed())
    }
  }

  /// Applies `actions`' changes (as ``changesTogether(session:after:through:idOffset:)`` reads
  /// them) to `state`, handing `unplaced` those it has no place for.
  private func apply(
    _ actions: [(seq: Int64, changes: [StateChange])], to state: inout StateNode, session: Int64,
    unplaced: (UnplacedChange) -> Void
  ) {
    for action in actions {
      state = state.applying(action.changes) { error in
        unplaced(
          UnplacedChange(
            session: session, seq: Int(action.seq), path: error.path, reason: error.reason))
      }
    }
  }

  /// The whole state of `session` right after its action `seq`, rendered: what
  /// `state(session:after:).rendered()` returns, in less time for a large state.
  ///
  /// ```swift
  /// print(try reader.renderedState(session: 1, after: 412))
  /// ```
  ///
  /// Only the parts of the kept state that a change since reaches are built into nodes; the
  /// rest is printed straight from the kept state's JSON.
  ///
  /// - Throws: What ``state(session:after:)`` throws.
  public func renderedState(session: Int64, after seq: Int) throws(TraceFileError) -> String {
    String(decoding: try self.renderedStateBytes(session: session, after: seq), as: UTF8.self)
  }

  /// ``renderedState(session:after:)``'s UTF-8, not made into a `String`: a state of a
  /// megabyte is printed without checking and copying it once more.
  package func renderedStateBytes(
    session: Int64, after seq: Int, unplaced: (UnplacedChange) -> Void = { _ in }
  ) throws(TraceFileError) -> [UInt8] {
    try self.checkHasSteps(session: session, seq)
    let kept = try self.keptState(session: session, from: seq, through: seq)
    let actions =
      Int64(seq) > kept.seq
      ? try self.changesTogether(
        session: session, after: kept.seq, through: Int64(seq), idOffset: kept.idOffset)
      : []
    var wanted: Set<String> = []
    var targets: Set<String> = []
    for action in actions {
      for change in action.changes where wanted.insert(change.path).inserted {
        wanted.formUnion(OverwrittenChanges.ancestors(of: change.path))
      }
      for change in action.changes { targets.insert(change.path) }
    }
    // NB: Read where SQLite holds it. Not checked to be UTF-8 here: what is not stays so in
    // the bytes written, and is replaced as `String` replaces it when they are made one, as
    // it is when the JSON is read into a `String` (the JSON's structure is ASCII either way).
    let bytes = try kept.keyframe.textBytes(1)
    // NB: The statement holds the bytes: it is kept until they are read.
    let rendered: [UInt8]? = withExtendedLifetime(kept.keyframe) {
      var parser = JSONParser(bytes: bytes)
      var reader = PartialStateReader(
        stubs: StateStubs(bytes: bytes), wanted: wanted, targets: targets)
      do throws(StateJSONError) {
        var state = try reader.node(&parser, path: "", depth: 0)
        if reader.stopped {
          reader.stubs.cursor.offset = parser.index
        } else {
          parser.skipSpace()
          guard parser.index == bytes.count else { return nil }
        }
        for action in actions {
          guard let applied = try? state.applying(action.changes) else { return nil }
          state = applied
        }
        var renderer = StateRenderer()
        renderer.stubs = reader.stubs
        // NB: A state renders to about as many bytes as its JSON has, most of them stubs'.
        renderer.bytes.reserveCapacity(bytes.count)
        renderer.write(state, name: nil, indent: 0, isRoot: true)
        guard !renderer.failed else { return nil }
        if reader.stopped {
          // NB: Every rest printed, then the `]`s that end the state, then nothing.
          let cursor = reader.stubs.cursor
          guard cursor.printed == reader.stubs.rests.count else { return nil }
          parser.index = cursor.offset
          for _ in 0..<reader.closers { try parser.expect(UInt8(ascii: "]")) }
          parser.skipSpace()
          guard parser.index == bytes.count else { return nil }
        }
        return renderer.bytes.array
      } catch {
        return nil
      }
    }
    if let rendered { return rendered }
    // NB: What cannot be read so (a damaged file, a change the state has no place for) is read
    // whole, which says what is wrong.
    return Array(try self.state(session: session, after: seq, unplaced: unplaced).rendered().utf8)
  }

  /// The offset from action `seq` of `session`'s seq to its row id; `nil` when there is no
  /// such action, or the offset overflows (a damaged file's ids may be anything).
  private func idOffset(session: Int64, seq: Int64) throws(TraceFileError) -> Int64? {
    let statement = try self.connection.prepare(
      "SELECT id FROM actions WHERE session_id = ?1 AND seq = ?2")
    statement.bind([.integer(session), .integer(seq)])
    guard try statement.step() else { return nil }
    let (offset, overflow) = try statement.integer(0).subtractingReportingOverflow(seq)
    return overflow ? nil : offset
  }

  /// What rebuilding needs of a change of action `seq`, in column `index` of `statement`.
  private func rebuild(
    _ statement: SQLiteStatement, _ index: Int, of seq: Int64, session: Int64
  ) throws(TraceFileError) -> StateChange.Rebuild? {
    guard let json = try statement.optionalString(index) else { return nil }
    do throws(StateJSONError) {
      return try StateChange.Rebuild(json: json)
    } catch {
      throw self.damaged(
        "holds a state change of action #\(seq) of session \(session) that \(error.reason)")
    }
  }

  private static let kindNames: [[UInt8]] = [
    Array("changed".utf8), Array("added".utf8), Array("removed".utf8),
  ]

  /// The state change kind in column `index` of `statement`.
  private func stateChangeKind(_ statement: SQLiteStatement, _ index: Int) throws(TraceFileError)
    -> StateChange.Kind
  {
    switch statement.match(index, Self.kindNames) {
    case 0?: return .changed
    case 1?: return .added
    case 2?: return .removed
    default: break
    }
    let kindName = try statement.string(index)
    guard let kind = StateChange.Kind(rawValue: kindName) else {
      throw self.damaged("holds an unknown state change kind '\(kindName)'")
    }
    return kind
  }

  /// The whole state of `session` right before its action `seq`: ``state(session:after:)`` of
  /// `seq - 1`.
  public func state(session: Int64, before seq: Int) throws(TraceFileError) -> StateNode {
    try self.state(session: session, after: seq - 1)
  }

  /// Whether the file keeps states for `session`: it was recorded with schema version 2 or
  /// later.
  public func holdsStates(session: Int64) throws(TraceFileError) -> Bool {
    guard try self.connection.hasTable("states") else { return false }
    return try self.connection.integer(
      "SELECT count(*) FROM (SELECT 1 FROM states WHERE session_id = \(session) LIMIT 1)"
    ) == 1
  }

  /// The state's own JSON right after the action `seq` of `session` (`0`: before its first
  /// action), as `JSONEncoder` writes it (keys sorted, slashes unescaped; redacted values read
  /// `"<redacted>"`), when the state's type is `Encodable`: the JSON of the nearest state the
  /// recorder kept, with the changes to it that each action since made (`actions.json_changes`)
  /// applied. `nil` when the state is not `Encodable`, when the recorder could not follow its
  /// JSON at one of those actions, and, for files from before schema version 4, after any
  /// action but those whose whole state was kept (version 3), or after every action (before).
  ///
  /// ```swift
  /// let json = try reader.stateJSON(session: 1, after: 412)
  ///   .map { try JSONDecoder().decode(AppFeature.State.self, from: Data($0.utf8)) }
  /// ```
  ///
  /// - Throws: ``TraceFileError`` when the file is damaged: a kept JSON or a change that is
  ///   not what the recorder writes, or that does not apply.
  public func stateJSON(session: Int64, after seq: Int) throws(TraceFileError) -> String? {
    guard try self.hasColumn("json", in: "states") else { return nil }
    let kept = try self.connection.prepare(
      "SELECT seq, json FROM states WHERE session_id = ?1 AND seq <= ?2 ORDER BY seq DESC LIMIT 1"
    )
    kept.bind([.integer(session), .integer(Int64(seq))])
    guard try kept.step(), let json = try kept.optionalString(1) else { return nil }
    let keptSeq = Int(try kept.integer(0))
    if keptSeq == seq { return json }
    guard try self.hasColumn("json_changes", in: "actions") else { return nil }
    let actions = try self.connection.prepare(
      """
      SELECT seq, json_changes FROM actions
      WHERE session_id = ?1 AND seq > ?2 AND seq <= ?3
      ORDER BY seq
      """
    )
    actions.bind([.integer(session), .integer(Int64(keptSeq)), .integer(Int64(seq))])
    var document = StateJSONDocument(json: json)
    var expected = keptSeq + 1
    while try actions.step() {
      let actionSeq = Int(try actions.integer(0))
      // NB: An action missing, or one whose changes were not followed: the JSON is not known.
      guard actionSeq == expected, let text = try actions.optionalString(1) else { return nil }
      expected += 1
      do throws(StateJSONError) {
        for change in try StateJSONChange.changes(from: text) {
          try document.apply(change)
        }
      } catch {
        throw self.damaged(
          "holds a change to the state's JSON at action #\(actionSeq) of session \(session) that \(error.reason)"
        )
      }
    }
    guard expected == seq + 1 else { return nil }
    return document.json
  }

  /// Whether `table` has a column `column`: files of older schema versions lack some.
  func hasColumn(_ column: String, in table: String) throws(TraceFileError) -> Bool {
    try self.connection.integer(
      "SELECT count(*) FROM pragma_table_info('\(table)') WHERE name = '\(column)'"
    ) == 1
  }

  private func damaged(_ message: String) -> TraceFileError {
    TraceFileError(kind: .corrupt, path: self.path, message: message)
  }
}
