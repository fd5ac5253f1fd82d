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
  /// What the flight journal beside the file (`<file>-flight`, or `<file>-flight-<session>`
  /// where a later recorder kept it) holds of session `session` that the file does not: the actions of a process that ended before its writer committed them,
  /// and the one whose reducer it ended in. `nil` when there is no journal, it is another
  /// session's or the session ended, or the process that wrote it still runs on this machine
  /// (its writer commits what the journal holds).
  package func flightActions(session: Int64) throws(TraceFileError) -> FlightActions? {
    // NB: The journal a later recorder kept aside for the session, or the one beside the file.
    let journal = [
      FlightJournal.path(forTrace: self.path, session: Int(session)),
      FlightJournal.path(forTrace: self.path),
    ].lazy.compactMap { FlightJournal.read(path: $0) }
      .first { $0.sessionID.map(Int64.init) == session }
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
