/// What the flight journal beside a trace holds of one of its sessions that the trace lacks.
package struct FlightActions: Sendable, Equatable {
  /// The actions after the session's last in the trace, in order: their reducers ran (or, for
  /// the last, had begun), and their state changes are not known.
  package var actions: [FlightJournal.Entry]
  /// The action whose reducer the process ended in; `nil` when it ended elsewhere (in an
  /// effect, killed between actions).
  package var endedIn: FlightJournal.Entry?
}

extension TraceReader {
  /// The actions of session `session` that its process's flight journal holds and its recorder
  /// did not write: those a later recorder copied into the file (see `actions.flight`), or else
  /// those the journal beside the file still holds (``journalActions(session:)``). `nil` when
  /// there are none.
  package func flightActions(session: Int64) throws(TraceFileError) -> FlightActions? {
    if try self.marksFlight() {
      // NB: They come after the session's others: read from its last back to the first that
      // its recorder wrote.
      struct Done: Error {}
      var actions: [TracedAction] = []
      do {
        try self.forEachAction(
          matching: TraceFilter(session: session), order: .seqDescending, includeChanges: false
        ) { action in
          guard action.flight != nil else { throw Done() }
          actions.append(action)
        }
      } catch is Done {
      } catch let error as TraceFileError {
        throw error
      } catch {
        throw TraceFileError(kind: .sqlite, path: self.path, message: "\(error)")
      }
      if !actions.isEmpty {
        return FlightActions(
          actions: actions.reversed().map(FlightJournal.Entry.init),
          endedIn: actions.first { $0.flight == .endedProcess }.map(FlightJournal.Entry.init))
      }
    }
    return try self.journalActions(session: session)
  }

  /// What the flight journal beside the file (`<file>-flight`, or `<file>-flight-<session>`
  /// where a later recorder kept it) holds of session `session` that the file does not: the
  /// actions of a process that ended before its writer committed them, and the one whose reducer
  /// it ended in. `nil` when there is no journal, it is another session's (or another row's of
  /// the same id) or the session ended, or the process that wrote it still runs on this machine (its writer commits what the
  /// journal holds).
  package func journalActions(session: Int64) throws(TraceFileError) -> FlightActions? {
    // NB: The journal a later recorder kept aside for the session, or the one beside the file,
    // written for this session's row: not one left by another trace once at the same path.
    let row = try self.connection.prepare("SELECT started_at FROM sessions WHERE id = ?1")
    row.bind(1, session)
    guard let id = Int(exactly: session), try row.step() else { return nil }
    let startedAt = try row.string(0)
    let journal = [
      FlightJournal.path(forTrace: self.path, session: id),
      FlightJournal.path(forTrace: self.path),
    ].lazy.compactMap { FlightJournal.read(path: $0) }
      .first { $0.isJournal(ofSession: session, startedAt: startedAt) }
    guard let journal, !journal.hasEnded, !FlightJournal.isRunning(pid: journal.pid) else {
      return nil
    }
    // NB: The journal's committed seq is written after the commit: a process that ended in
    // between left actions in both.
    let lastSeq = try self.lastSeq(session: session)
    let actions = journal.uncommitted.filter { $0.seq > lastSeq }
    guard !actions.isEmpty else { return nil }
    return FlightActions(
      actions: actions, endedIn: journal.endedIn.flatMap { $0.seq > lastSeq ? $0 : nil })
  }
}

extension FlightJournal.Entry {
  /// The journal's entry of an action a recorder copied from it into the file.
  package init(_ action: TracedAction) {
    var cause: Int?
    if case let .effect(causeSeq) = action.origin { cause = causeSeq }
    self.init(
      seq: action.seq, state: action.flight == .endedProcess ? .inReducer : .returned,
      causeSeq: cause, timeNs: action.timeNs, path: action.path,
      rootCategory: action.rootCategory.rawValue, feature: action.feature,
      category: action.category.rawValue, caseName: action.caseName, payload: action.payload,
      payloadJSON: action.payloadJSON, isWithheld: false, isTruncated: false)
  }
}
