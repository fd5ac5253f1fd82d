/// What a debugger (the page of `tcatrace serve --live`) did to the app between two of its
/// actions: a row of `debugger_events`.
public struct TraceDebuggerEvent: Equatable, Sendable {
  public enum Kind: String, Equatable, Sendable {
    /// The store took the state after action ``TraceDebuggerEvent/toSeq``.
    case jump
    /// The store took back the state it had before the first jump since the last return.
    case back
    /// The app's own actions were ignored from here.
    case lock
    /// No longer; ``TraceDebuggerEvent/ignoredActions`` were.
    case unlock
  }

  /// The event's row id: in the order the debugger did them.
  public var id: Int64
  /// The last action the store had processed; 0 before the first.
  public var afterSeq: Int
  /// When, in nanoseconds since the session started.
  public var timeNs: Int64
  public var kind: Kind
  /// For a jump: the action whose state the store took (0: the state before the first).
  public var toSeq: Int?
  /// For an unlock: the app's actions ignored while it was locked.
  public var ignoredActions: Int?

  public init(
    id: Int64, afterSeq: Int, timeNs: Int64, kind: Kind, toSeq: Int?, ignoredActions: Int?
  ) {
    self.id = id
    self.afterSeq = afterSeq
    self.timeNs = timeNs
    self.kind = kind
    self.toSeq = toSeq
    self.ignoredActions = ignoredActions
  }

  /// What happened, in words: `the app took the state after #2`.
  public var summary: String {
    switch self.kind {
    case .jump:
      let seq = self.toSeq ?? 0
      return seq == 0
        ? "the app took the state before the first action"
        : "the app took the state after #\(seq)"
    case .back:
      return "the app took back the state it had before the jumps"
    case .lock:
      return "the app was locked: its own actions were ignored"
    case .unlock:
      let ignored = self.ignoredActions ?? 0
      return "the app was unlocked (\(ignored) action\(ignored == 1 ? "" : "s") ignored)"
    }
  }
}

extension TraceReader {
  /// What a debugger did to the app in session `session`, in order, from the event with id
  /// above `after`: none in a trace written before version 8, which has no `debugger_events`.
  ///
  /// - Throws: `TraceFileError` of kind `.corrupt` for a row that is not one a recorder writes.
  public func debuggerEvents(
    session: Int64, after: Int64 = 0
  ) throws(TraceFileError) -> [TraceDebuggerEvent] {
    try Self.debuggerEvents(
      connection: self.connection, path: self.path, session: session, after: after,
      upTo: Int.max)
  }

  /// The events of session `session` after the one with id `after`, done after an action up to
  /// `upTo`, from `connection`, the trace at `path`.
  package static func debuggerEvents(
    connection: SQLiteConnection, path: String, session: Int64, after: Int64, upTo: Int
  ) throws(TraceFileError) -> [TraceDebuggerEvent] {
    guard try connection.hasTable("debugger_events") else { return [] }
    let statement = try connection.prepare(
      """
      SELECT rowid, after_seq, time_ns, kind, to_seq, ignored_actions FROM debugger_events
      WHERE session_id = ?1 AND rowid > ?2 AND after_seq <= ?3 ORDER BY rowid
      """
    )
    statement.bind([.integer(session), .integer(after), .integer(Int64(upTo))])
    var events: [TraceDebuggerEvent] = []
    while try statement.step() {
      let kindName = try statement.optionalString(3)
      guard let kind = kindName.flatMap(TraceDebuggerEvent.Kind.init(rawValue:)) else {
        throw TraceFileError(
          kind: .corrupt, path: path,
          message:
            "holds an unknown debugger event '\(kindName ?? "NULL")': the file is damaged or was edited"
        )
      }
      let afterSeq = try statement.integer(1)
      let toSeq = try statement.optionalInteger(4)
      let ignored = try statement.optionalInteger(5)
      guard afterSeq >= 0, (toSeq ?? 0) >= 0, (ignored ?? 0) >= 0 else {
        throw TraceFileError(
          kind: .corrupt, path: path,
          message:
            "holds a debugger event with a negative seq or count: the file is damaged or was edited"
        )
      }
      events.append(
        TraceDebuggerEvent(
          id: try statement.integer(0), afterSeq: Int(clamping: afterSeq),
          timeNs: try statement.integer(2), kind: kind, toSeq: toSeq.map { Int(clamping: $0) },
          ignoredActions: ignored.map { Int(clamping: $0) }))
    }
    return events
  }
}
