extension TraceFile {
  /// Copies into the trace what the flight journals beside it hold of sessions whose process
  /// ended before its recorder wrote them (see `FlightJournal`), then removes each journal
  /// copied: a recorder calls it once it has readied the file for appending
  /// (``prepareForAppending(_:)``), before it writes a session of its own.
  ///
  /// The journals read are `<trace>-flight` and `<trace>-flight-<id>` of each session the file
  /// holds as not ended. One is copied when its process is neither running nor this one, its
  /// session is in the file, not ended, and the one it was written for (its row's `started_at`,
  /// `FlightJournal.isJournal(ofSession:startedAt:)`), and the file holds that session's actions
  /// up to the seq the journal says were committed. Its
  /// actions after the session's last are appended as that session's, with `actions.flight`
  /// saying how each ended; a gap between the two (a writer more than the journal's slots
  /// behind) counts as dropped actions.
  ///
  /// Nothing here fails the recorder: a journal that cannot be copied (damaged, a busy file) is
  /// left where it is, and `tcatrace` reads it there.
  ///
  /// - Returns: The journals copied and removed.
  @discardableResult
  package static func foldFlightJournals(_ connection: SQLiteConnection) -> [String] {
    let tracePath = connection.path
    // NB: At most the last thousand open sessions: a file from someone else could hold any
    // number, and each is a look at the folder.
    var openSessions: [Int64] = []
    if let statement = try? connection.prepare(
      "SELECT id FROM sessions WHERE ended_at IS NULL ORDER BY id DESC LIMIT 1000")
    {
      while (try? statement.step()) == true, let id = try? statement.integer(0) {
        // NB: An id an `Int` cannot hold (32 bits on arm64_32) names no journal.
        if Int(exactly: id) != nil { openSessions.append(id) }
      }
    }
    let ownPID = FlightJournal.currentPID
    var folded: [String] = []
    let candidates =
      [(FlightJournal.path(forTrace: tracePath), nil as Int64?)]
      + openSessions.map { (FlightJournal.path(forTrace: tracePath, session: Int($0)), $0) }
    for (path, session) in candidates {
      guard let identity = FileStatus(path)?.identity,
        let journal = FlightJournal.read(path: path), !journal.hasEnded,
        let sessionID = journal.sessionID.map(Int64.init),
        session.map({ $0 == sessionID }) ?? true
      else { continue }
      // NB: A journal of this process's pid is one it writes (another process may have moved
      // it aside), or of a process that ended with the same pid: left for `tcatrace`.
      if journal.pid == ownPID || FlightJournal.isRunning(pid: journal.pid) { continue }
      guard (try? self.fold(journal, session: sessionID, into: connection)) == true else {
        continue
      }
      // NB: Only while it is the file that was read: a recorder starting elsewhere may have put
      // a journal of its own there.
      FlightJournal.remove(path, identity: identity)
      folded.append(path)
    }
    return folded
  }

  /// Copies `journal`'s actions the file lacks into session `session`; returns whether the file
  /// now holds what the journal does, `false` when the journal is not one of this file's (its
  /// session ended, or is missing actions the journal says were committed).
  private static func fold(
    _ journal: FlightJournal, session: Int64, into connection: SQLiteConnection
  ) throws(TraceFileError) -> Bool {
    // NB: Under the write lock, with the session's last action read in it: another recorder
    // opening the file may be copying the same journal.
    try connection.transaction(.takingTheWriteLock) { () throws(TraceFileError) in
      let state = try connection.prepare(
        """
        SELECT s.ended_at IS NULL,
          coalesce((SELECT max(a.seq) FROM actions a WHERE a.session_id = s.id), 0),
          s.started_at
        FROM sessions s WHERE s.id = ?1
        """
      )
      state.bind(1, session)
      guard try state.step(), try state.integer(0) == 1,
        journal.isJournal(ofSession: session, startedAt: try state.string(2))
      else { return false }
      let lastSeq = Int(clamping: try state.integer(1))
      guard lastSeq >= journal.committedSeq else { return false }
      let actions = journal.uncommitted.filter { $0.seq > lastSeq }
      guard let first = actions.first else { return true }
      let endedIn = journal.endedIn?.seq
      let rows = try TraceRowWriter(connection: connection)
      // NB: What the file's checks allow; the journal is untrusted, and `tcatrace` reads
      // another category there as unclassified.
      func category(_ name: String) -> String {
        (ActionCategory(rawValue: name) ?? .unclassified).rawValue
      }
      for action in actions {
        _ = try rows.insertAction(
          sessionID: session, seq: action.seq, timeNs: action.timeNs, durationNs: 0,
          causeSeq: action.causeSeq, path: action.path,
          rootCategory: category(action.rootCategory), feature: action.feature,
          category: category(action.category), caseName: action.caseName, statePath: "",
          payload: action.payload, payloadJSON: action.payloadJSON, jsonChanges: nil,
          atOnce: false, flight: action.seq == endedIn ? "ended_process" : "returned"
        )
      }
      if first.seq > lastSeq + 1 {
        let dropped = try connection.prepare(
          "UPDATE sessions SET dropped_actions = dropped_actions + ?2 WHERE id = ?1")
        try dropped.run([.integer(session), .integer(Int64(first.seq - lastSeq - 1))])
      }
      return true
    }
  }
}
