import Dispatch

/// Reads a trace file, read-only: its sessions, and its actions with their state changes and
/// leaks. The file is never changed, and may be read while a recorder writes it.
///
/// ```swift
/// let reader = try TraceReader(path: "session.db")
/// for session in try reader.sessions() { print(session.name, session.actionCount) }
/// try reader.forEachAction(matching: TraceFilter(categories: [.view], feature: "login")) {
///   print($0.seq, $0.path)
/// }
/// ```
///
/// ``read(path:_:)`` reads a file as `tcatrace` does: checked for damage first, and refused
/// after the read when a recorder began writing it meanwhile.
///
/// A file from someone else is opened so that its schema cannot run code or reach other files
/// (defensive mode, untrusted schema, no extensions, query-only).
public final class TraceReader {
  /// The trace file's path.
  public let path: String
  package private(set) var connection: SQLiteConnection
  private var changesStatement: SQLiteStatement?
  private var leaksStatement: SQLiteStatement?
  /// Whether the file marks actions sent at once and shared changes (schema version 5): asked
  /// of the file once.
  private var markedSends: Bool?
  /// Whether the file counts the actions trimmed from a session's start (schema version 6):
  /// asked of the file once.
  var countsTrimmedActions: Bool?
  /// Whether the file marks actions copied from a flight journal (schema version 7): asked of
  /// the file once.
  private var markedFlight: Bool?
  /// What the file was when it was opened immutable (no recorder was writing it); `nil` when
  /// it was opened to see a recorder's commits.
  private var snapshot: FileSnapshot?

  /// Opens the trace at `path` for reading.
  ///
  /// - Parameters:
  ///   - path: The trace file.
  ///   - live: See what a recorder writes after the file was opened, for following a file as
  ///     it grows. Default: `false`, which reads a file no recorder is writing without leaving
  ///     `-wal` or `-shm` files beside it.
  /// - Throws: `TraceFileError` when the file is missing, a directory, not SQLite, not a
  ///   trace, damaged, or written by a newer TCATrace.
  public init(path: String, live: Bool = false) throws(TraceFileError) {
    self.path = path
    (self.connection, self.snapshot) = try TraceFile.openForReading(path: path, live: live)
  }

  /// A reader of the trace that `connection`, a writer's, has open: for the writers that keep a
  /// state they rebuild before the actions they remove (``TraceRowWriter/trim(session:keepingFrom:path:)``).
  /// Errors name `path`.
  package init(connection: SQLiteConnection, path: String) {
    self.path = path
    self.connection = connection
    self.snapshot = nil
  }

  /// Throws when the file was written since it was opened, so that what was read from it may
  /// be torn; call it after reading. ``read(path:_:)`` calls it for you.
  ///
  /// A file no recorder is writing is read without locks and without leaving files beside
  /// it; a recorder that starts appending to it then, and folds its WAL into it while it is
  /// read, would tear the read. This says so, rather than letting a torn read pass as the
  /// file (or make a healthy file look damaged). A file a recorder was writing as it was opened
  /// is read through the recorder's WAL, which never tears, and never throws here.
  ///
  /// - Throws: `TraceFileError` of kind `.changedWhileReading`.
  public func checkUnchanged() throws(TraceFileError) {
    guard let snapshot = self.snapshot, snapshot.hasChanged(path: self.path) else { return }
    throw self.changedWhileReading
  }

  /// The error of a file written while it was read.
  package var changedWhileReading: TraceFileError {
    TraceFileError(
      kind: .changedWhileReading, path: self.path,
      message:
        "was written while it was read (a recorder began appending to it), so what was read may be torn: read it again"
    )
  }

  /// Keeps SQLite's temporary data in memory, never in temp files; see
  /// ``SQLiteConnection/keepTemporaryDataInMemory()``.
  package func keepTemporaryDataInMemory() throws(TraceFileError) {
    self.keepsTemporaryDataInMemory = true
    try self.connection.keepTemporaryDataInMemory()
  }

  private var keepsTemporaryDataInMemory = false

  /// A check of the file, started beside the reading; see ``IntegrityCheck``.
  package var integrityCheck: IntegrityCheck?

  /// Tables SQLite's `integrity_check` checks with the reading connection once reading ends:
  /// small ones, which take less time to check than a second connection takes to open.
  package var tablesCheckedAfterReading: [String] = []

  /// Checks the whole file now, with the reading connection; see ``IntegrityCheck``.
  ///
  /// - Throws: `TraceFileError` of kind `.corrupt` when SQLite finds the file damaged.
  package func checkIntegrity() throws(TraceFileError) {
    try IntegrityCheck.check(self.connection, path: self.path)
  }

  /// After reading: ``checkUnchanged()``, then waits for ``integrityCheck``, then checks
  /// ``tablesCheckedAfterReading``; throws what they found.
  package func verifyRead() throws(TraceFileError) {
    try self.checkUnchanged()
    try self.integrityCheck?.verify()
    if !self.tablesCheckedAfterReading.isEmpty {
      try IntegrityCheck.check(
        self.connection, path: self.path, tables: self.tablesCheckedAfterReading)
    }
  }

  /// For following a file: when it was opened as a file no recorder was writing, and a
  /// recorder has begun to since (a `-wal` with something in it lies beside it, or the file
  /// changed), opens it again to read what the recorder commits. Call it between reads.
  ///
  /// - Returns: Whether it opened the file again.
  @discardableResult
  package func reopenIfWritten() throws(TraceFileError) -> Bool {
    guard let snapshot = self.snapshot,
      TraceFile.hasWAL(self.path) || snapshot.hasChanged(path: self.path)
    else { return false }
    // NB: Statements go before their connection.
    self.changesStatement = nil
    self.leaksStatement = nil
    self.markedSends = nil
    self.countsTrimmedActions = nil
    self.markedFlight = nil
    let limit = self.connection.stepTimeLimit
    (self.connection, self.snapshot) = try TraceFile.openForReading(path: self.path, live: false)
    self.connection.stepTimeLimit = limit
    if self.keepsTemporaryDataInMemory { try self.connection.keepTemporaryDataInMemory() }
    return true
  }

  /// The longest reading one row may take before the read stops with a `TraceFileError`:
  /// a file whose tables or views never end (an endless recursive CTE behind `actions`, say)
  /// cannot hang a reader. Default: `nil`, no limit.
  public var rowTimeLimit: Duration? {
    get {
      self.connection.stepTimeLimit.map { .nanoseconds(Int64(clamping: $0)) }
    }
    set {
      self.connection.stepTimeLimit = newValue?.clampedNanoseconds
    }
  }

  /// The sessions in the file, oldest first.
  public func sessions() throws(TraceFileError) -> [TraceSession] {
    try self.sessions(where: nil)
  }

  /// The sessions that match `condition`, an SQL expression on `s`, the `sessions` table,
  /// with `values` bound to `?1`, `?2`, ….
  ///
  /// NB: Each session's counts are a pass over its actions: a caller that wants one session
  /// asks for that one, not for all of them.
  package func sessions(
    where condition: String?, _ values: [SQLiteValue] = []
  ) throws(TraceFileError) -> [TraceSession] {
    // NB: Traces written before `session_sources` was added lack it, before version 6
    // `trimmed_actions`, and before version 9 `backlog_fallbacks`.
    let hasSources = try self.connection.hasTable("session_sources")
    let hasTrimmed = try self.hasColumn("trimmed_actions", in: "sessions")
    let hasFallbacks = try self.hasColumn("backlog_fallbacks", in: "sessions")
    let statement = try self.connection.prepare(
      """
      SELECT s.id, s.name, s.root_feature, s.started_at, s.ended_at, s.dropped_actions,
        s.recorder_version,
        (SELECT count(*) FROM actions a WHERE a.session_id = s.id),
        (SELECT count(*) FROM leaks l JOIN actions a ON a.id = l.action_id WHERE a.session_id = s.id),
        -- NB: Actions run one after another, so the last one ends last; found by the
        -- (session_id, seq) index rather than a scan of the session.
        coalesce((SELECT a.time_ns + a.duration_ns FROM actions a WHERE a.session_id = s.id
                  ORDER BY a.seq DESC LIMIT 1), 0),
        -- NB: Not a join: a file from someone else may hold two sources of a session.
        \(hasSources ? Self.sourceColumns : "NULL, NULL"),
        \(hasTrimmed ? "s.trimmed_actions" : "0"),
        \(hasFallbacks ? "s.backlog_fallbacks" : "NULL")
      FROM sessions s
      \(condition.map { "WHERE " + $0 } ?? "")
      ORDER BY s.id
      """
    )
    statement.bind(values)
    var sessions: [TraceSession] = []
    while try statement.step() {
      sessions.append(
        TraceSession(
          id: try statement.integer(0),
          name: try statement.string(1),
          rootFeature: try statement.string(2),
          startedAt: try statement.string(3),
          endedAt: try statement.optionalString(4),
          droppedActions: Int(clamping: try statement.integer(5)),
          recorderVersion: try statement.string(6),
          actionCount: Int(clamping: try statement.integer(7)),
          leakCount: Int(clamping: try statement.integer(8)),
          durationNs: try statement.integer(9),
          source: try statement.optionalString(10).map { file throws(TraceFileError) in
            TraceSession.Source(file: file, sessionID: try statement.integer(11))
          },
          trimmedActions: Int(clamping: try statement.integer(12)),
          backlogFallbacks: try statement.optionalInteger(13).map { Int(clamping: $0) }
        )
      )
    }
    return sessions
  }

  /// The file and id a session of `s` was merged from, for ``sessions(where:_:)``.
  private static let sourceColumns = """
    (SELECT src.file FROM session_sources src WHERE src.session_id = s.id LIMIT 1),
    (SELECT src.original_id FROM session_sources src WHERE src.session_id = s.id LIMIT 1)
    """

  /// Calls `body` with each action that matches `filter`, in the order they were written,
  /// without holding them all in memory.
  ///
  /// - Parameters:
  ///   - filter: Which actions. Default: all.
  ///   - includeChanges: Read each action's state changes. Default: `true`.
  public func forEachAction(
    matching filter: TraceFilter = TraceFilter(),
    includeChanges: Bool = true,
    _ body: (TracedAction) throws -> Void
  ) throws {
    try self.forEachAction(matching: filter, order: .written, includeChanges: includeChanges, body)
  }

  /// The order in which ``forEachAction(matching:order:limit:includeChanges:_:)`` reads.
  package enum ActionOrder {
    /// The order the actions were written in.
    case written
    /// By seq, up or down: within one session, what its `(session_id, seq)` index reads
    /// from any seq without a scan from the first.
    case seqAscending, seqDescending
  }

  /// ``forEachAction(matching:includeChanges:_:)`` in `order`, stopping after `limit` actions.
  package func forEachAction(
    matching filter: TraceFilter,
    order: ActionOrder,
    limit: Int? = nil,
    includeChanges: Bool = true,
    _ body: (TracedAction) throws -> Void
  ) throws {
    let (sql, values) = Self.query(
      filter, order: order, limit: limit, marksSends: try self.marksSends(),
      marksFlight: try self.marksFlight(),
      marksOrder: try filter.changedPath != nil && self.hasColumn("rebuild", in: "state_changes")
    )
    let descending = order == .seqDescending
    let statement = try self.connection.prepare(sql)
    statement.bind(values)
    // NB: A session's actions are numbered from 1 in the order they were written: a seq seen
    // again, or out of order, is a damaged file, not an action to show twice. The last seq of
    // the session being read is kept aside: sessions rarely interleave.
    var lastSeq: [Int64: Int] = [:]
    var current: (session: Int64, seq: Int)?
    while try statement.step() {
      let id = try statement.integer(0)
      let sessionID = try statement.integer(1)
      let seq = Int(clamping: try statement.integer(2))
      if current?.session != sessionID {
        if let current { lastSeq[current.session] = current.seq }
        current = lastSeq[sessionID].map { (sessionID, $0) }
      }
      if let last = current?.seq, descending ? seq >= last : seq <= last {
        throw TraceFileError(
          kind: .corrupt, path: self.path,
          message: descending
            ? "holds action #\(seq) of session \(sessionID) out of order"
            : "holds action #\(seq) of session \(sessionID) after action #\(last)"
        )
      }
      current = (sessionID, seq)
      let action = TracedAction(
        id: id,
        sessionID: sessionID,
        seq: seq,
        timeNs: try statement.integer(3),
        durationNs: try statement.integer(4),
        origin: try self.origin(statement, 5, cause: try statement.optionalInteger(6), of: seq),
        path: try statement.string(7),
        rootCategory: try self.category(statement, 8),
        feature: try statement.string(9),
        category: try self.category(statement, 10),
        caseName: try statement.string(11),
        statePath: try statement.string(12),
        payload: try statement.optionalString(13),
        payloadJSON: try statement.optionalString(14),
        changes: includeChanges ? try self.changes(of: id) : [],
        leaks: try self.leaks(of: id),
        atOnce: !statement.isNull(15),
        flight: try self.flight(statement, 16)
      )
      try body(action)
    }
  }

  /// The actions that match `filter`, in the order they were written.
  public func actions(
    matching filter: TraceFilter = TraceFilter(), includeChanges: Bool = true
  ) throws -> [TracedAction] {
    var actions: [TracedAction] = []
    try self.forEachAction(matching: filter, includeChanges: includeChanges) { actions.append($0) }
    return actions
  }

  // MARK: - Queries

  /// The query of the actions `filter` matches; `marksSends`: whether the file has the
  /// `at_once` column; `marksFlight`: whether it has the `flight` column; `marksOrder`: whether
  /// it has the `rebuild` column, which tells a collection's new order.
  package static func query(
    _ filter: TraceFilter, order: ActionOrder = .written, limit: Int? = nil, marksSends: Bool,
    marksFlight: Bool = false, marksOrder: Bool = false
  ) -> (String, [SQLiteValue]) {
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    func parameter(_ value: SQLiteValue) -> String {
      values.append(value)
      return "?\(values.count)"
    }
    if let session = filter.session {
      conditions.append("a.session_id = \(parameter(.integer(session)))")
    }
    if let categories = filter.categories {
      let list = ActionCategory.allCases.filter(categories.contains)
        .map { parameter(.text($0.rawValue)) }
        .joined(separator: ", ")
      conditions.append(list.isEmpty ? "0" : "a.category IN (\(list))")
    }
    if let feature = filter.feature, !feature.isEmpty {
      let name = parameter(.text(feature))
      conditions.append(
        "(a.feature = \(name) OR substr(a.feature, 1, length(\(name)) + 1) IN (\(name) || '.', \(name) || '['))"
      )
    }
    if filter.leaksOnly {
      conditions.append("EXISTS (SELECT 1 FROM leaks l WHERE l.action_id = a.id)")
    }
    if let fromSeq = filter.fromSeq {
      conditions.append("a.seq >= \(parameter(.integer(Int64(fromSeq))))")
    }
    if let toSeq = filter.toSeq {
      conditions.append("a.seq <= \(parameter(.integer(Int64(toSeq))))")
    }
    if let text = filter.text, !text.isEmpty {
      let needle = parameter(.text(text))
      conditions.append(
        "(instr(a.path, \(needle)) > 0 OR instr(coalesce(a.payload, ''), \(needle)) > 0)")
    }
    if let path = filter.changedPath {
      // NB: Below the path, `.` or `[` follows it; above it, one of them follows the change's.
      // A change above it that only put a collection in a new order (its `rebuild` is the
      // order alone) kept each element as it was.
      let path = parameter(.text(path))
      let reordered = marksOrder ? #"substr(coalesce(c.rebuild, ''), 1, 9) = '{"order":'"# : "0"
      conditions.append(
        """
        EXISTS (SELECT 1 FROM state_changes c WHERE c.action_id = a.id AND (\(path) = '' \
        OR c.path = \(path) \
        OR substr(c.path, 1, length(\(path)) + 1) IN (\(path) || '.', \(path) || '[') \
        OR ((c.path = '' OR substr(\(path), 1, length(c.path) + 1) IN (c.path || '.', c.path || '[')) \
        AND NOT \(reordered))))
        """)
    }
    if let afterID = filter.afterID {
      conditions.append("a.id > \(parameter(.integer(afterID)))")
    }
    let sql = """
      SELECT a.id, a.session_id, a.seq, a.time_ns, a.duration_ns, a.origin, a.cause_seq, a.path,
        a.root_category, a.feature, a.category, a.case_name, a.state_path, a.payload,
        a.payload_json, \(marksSends ? "a.at_once" : "NULL"), \(marksFlight ? "a.flight" : "NULL")
      FROM actions a
      \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
      ORDER BY \(order == .written ? "a.id" : order == .seqAscending ? "a.session_id, a.seq" : "a.session_id DESC, a.seq DESC")\(limit.map { " LIMIT \($0)" } ?? "")
      """
    return (sql, values)
  }

  private func changes(of actionID: Int64) throws(TraceFileError) -> [StateChange] {
    let statement: SQLiteStatement
    if let prepared = self.changesStatement {
      statement = prepared
    } else {
      let shared = try self.marksSends() ? "shared" : "NULL"
      statement = try self.connection.prepare(
        """
        SELECT path, kind, old_value, new_value, \(shared)
        FROM state_changes WHERE action_id = ?1 ORDER BY position
        """
      )
      self.changesStatement = statement
    }
    statement.reset()
    statement.bind(1, actionID)
    var changes: [StateChange] = []
    while try statement.step() {
      var change = try self.change(statement, from: 0)
      change.sharedPath = try statement.optionalString(4)
      changes.append(change)
    }
    return changes
  }

  /// The state change in the columns of `statement` from `column`: its path, kind, old and new
  /// value.
  func change(_ statement: SQLiteStatement, from column: Int) throws(TraceFileError) -> StateChange
  {
    let kind: StateChange.Kind
    if let match = statement.match(column + 1, Self.changeKindNames) {
      kind = StateChange.Kind.allCases[match]
    } else {
      let kindName = try statement.string(column + 1)
      guard let named = StateChange.Kind(rawValue: kindName) else {
        throw self.unexpected("state change kind", kindName)
      }
      kind = named
    }
    return StateChange(
      path: try statement.string(column), kind: kind,
      old: try statement.optionalString(column + 2), new: try statement.optionalString(column + 3)
    )
  }

  /// Whether the file marks actions sent at once and shared changes: traces older than schema
  /// version 5 have neither column.
  func marksSends() throws(TraceFileError) -> Bool {
    if let markedSends { return markedSends }
    let actions = try self.hasColumn("at_once", in: "actions")
    let changes = try self.hasColumn("shared", in: "state_changes")
    let marks = actions && changes
    self.markedSends = marks
    return marks
  }

  /// Whether the file marks actions copied from a flight journal: traces older than schema
  /// version 7 have no `flight` column.
  func marksFlight() throws(TraceFileError) -> Bool {
    if let markedFlight { return markedFlight }
    let marks = try self.hasColumn("flight", in: "actions")
    self.markedFlight = marks
    return marks
  }

  /// How the action in the columns of `statement` at `column` came from a flight journal.
  private func flight(
    _ statement: SQLiteStatement, _ column: Int
  ) throws(TraceFileError) -> TracedAction.Flight? {
    guard let name = try statement.optionalString(column) else { return nil }
    guard let flight = TracedAction.Flight(rawValue: name) else {
      throw self.unexpected("flight mark", name)
    }
    return flight
  }

  private func leaks(of actionID: Int64) throws(TraceFileError) -> [Leak] {
    let statement: SQLiteStatement
    if let prepared = self.leaksStatement {
      statement = prepared
    } else {
      statement = try self.connection.prepare(
        "SELECT rule, feature, detail FROM leaks WHERE action_id = ?1 ORDER BY rowid"
      )
      self.leaksStatement = statement
    }
    statement.reset()
    statement.bind(1, actionID)
    var leaks: [Leak] = []
    while try statement.step() {
      leaks.append(
        Leak(
          rule: try self.rule(statement.optionalString(0)), feature: try statement.string(1),
          detail: try statement.string(2)
        )
      )
    }
    return leaks
  }

  /// The category in column `index` of `statement`.
  private func category(_ statement: SQLiteStatement, _ index: Int) throws(TraceFileError)
    -> ActionCategory
  {
    if let match = statement.match(index, Self.categoryNames) {
      return ActionCategory.allCases[match]
    }
    return try self.category(statement.optionalString(index))
  }

  private static let categoryNames = ActionCategory.allCases.map { Array($0.rawValue.utf8) }
  private static let changeKindNames = StateChange.Kind.allCases.map { Array($0.rawValue.utf8) }

  package func category(_ name: String?) throws(TraceFileError) -> ActionCategory {
    guard let name, let category = ActionCategory(rawValue: name) else {
      throw self.unexpected("category", name ?? "NULL")
    }
    return category
  }

  package func rule(_ name: String?) throws(TraceFileError) -> LeakRule {
    guard let name, let rule = LeakRule(rawValue: name) else {
      throw self.unexpected("leak rule", name ?? "NULL")
    }
    return rule
  }

  /// The origin in column `index` of `statement`, of action `seq` whose cause is `cause`.
  ///
  /// An effect's action is caused by an earlier action of its session: a cause that is not one
  /// (negative, itself, later, a loop) is a damaged or edited file.
  func origin(
    _ statement: SQLiteStatement, _ index: Int, cause rawCause: Int64?, of seq: Int
  ) throws(TraceFileError) -> TracedAction.Origin {
    let cause = rawCause.map { Int(clamping: $0) }
    // NB: Matched once: this runs for every action a reader reads.
    let match = statement.match(index, Self.originNames)
    if let cause, match != 0, !(1..<seq).contains(cause) {
      throw TraceFileError(
        kind: .corrupt, path: self.path,
        message: "holds action #\(seq) caused by #\(cause), which is not an earlier action"
      )
    }
    switch (match, cause) {
    case (0?, _): return .send
    case let (1?, cause?): return .effect(cause: cause)
    default: return try self.origin(statement.optionalString(index), cause: cause)
    }
  }

  private static let originNames = [Array("send".utf8), Array("effect".utf8)]

  private func origin(_ name: String?, cause: Int?) throws(TraceFileError) -> TracedAction.Origin {
    switch (name, cause) {
    case ("send", _): return .send
    case let ("effect", cause?): return .effect(cause: cause)
    case ("debugger", nil): return .debugger
    default: throw self.unexpected("origin", name ?? "NULL")
    }
  }

  private func unexpected(_ what: String, _ value: String) -> TraceFileError {
    TraceFileError(
      kind: .corrupt, path: self.path,
      message: "holds an unknown \(what) '\(value)': the file is damaged or was edited"
    )
  }
}

/// SQLite's `PRAGMA integrity_check` of a trace, or of some of its tables, run on a thread of
/// Dispatch's pool, with a connection of its own, while a reader reads it: a damaged file gives
/// its damage, not a part of its rows presented as the whole.
///
/// NB: SQLite notices damage only in the pages a query reads, and a damaged page can make a
/// query miss rows (the rest of a session, every change of an action) without an error; an
/// index that lost rows makes a filter that reads it miss them, and no read of the table finds
/// that. `integrity_check` reads every page of the file (or of a table and its indexes), once,
/// and checks each index against its table and each row against its `NOT NULL` and `CHECK`
/// constraints. `quick_check` skips the indexes' contents: a damaged `actions_by_category`
/// passes it.
package final class IntegrityCheck: @unchecked Sendable {
  // NB: `outcome` is written by the checking thread before `done` is signalled, and read after.
  private var outcome: Result<Void, TraceFileError> = .success(())
  private let done = DispatchSemaphore(value: 0)

  /// Starts checking the trace at `path`: the whole file, or `tables` and their indexes.
  package init(path: String, tables: [String]? = nil) {
    DispatchQueue.global().async { [self] in
      do throws(TraceFileError) {
        let connection = try TraceFile.openForReading(path: path, live: false).connection
        try Self.check(connection, path: path, tables: tables)
      } catch {
        self.outcome = .failure(error)
      }
      self.done.signal()
    }
  }

  /// Runs `integrity_check` with `connection`, on the whole file or on `tables` and their
  /// indexes; throws the first damage found. A table the file does not have (`states`, in a
  /// trace older than version 2) is skipped.
  package static func check(
    _ connection: SQLiteConnection, path: String, tables: [String]? = nil
  ) throws(TraceFileError) {
    // NB: `nil`: the whole file.
    let targets: [String?] = tables ?? [nil]
    for table in targets {
      let problem: String?
      let what = table.map { " of its '\($0)' table" } ?? ""
      do throws(TraceFileError) {
        if let table, !(try connection.hasTable(table)) { continue }
        problem = try TraceFile.integrityProblem(connection, table: table)
      } catch  where error.kind == .corrupt {
        throw TraceFileError(
          kind: .corrupt, path: path,
          message: "does not pass SQLite's integrity check\(what) (\(error.message))")
      }
      if let problem {
        throw TraceFileError(
          kind: .corrupt, path: path,
          message: "does not pass SQLite's integrity check\(what) (\(problem))")
      }
    }
  }

  /// Waits for the check to end; throws what it found.
  package func verify() throws(TraceFileError) {
    self.done.wait()
    self.done.signal()
    try self.outcome.get()
  }
}
