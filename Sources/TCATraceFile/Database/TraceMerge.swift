internal import CSQLite

/// Copies the sessions of trace files into a new trace: `tcatrace merge`.
///
/// Each input is checked whole before anything is copied from it (a trace this version reads,
/// with all its tables, that `PRAGMA integrity_check` finds sound), then read through a read-only
/// attachment in one transaction, so a file a recorder is writing gives one moment of it. Its
/// sessions and actions get new ids after those copied before, in the order of their old ones
/// — ranks, not an offset, so no id in a file from someone else can overflow them — and each
/// session a row in `session_sources` saying where it was recorded. Rows of sessions or actions
/// the input does not hold are damage, and refuse it: merging never drops part of a file.
///
/// The merged file is new and thrown away when the merge fails, so it is written without a
/// journal on disk and without syncs; the caller syncs it once complete.
package final class TraceMerge {
  private let connection: SQLiteConnection
  /// The path the merged trace is for, which errors in writing it name.
  private let destination: String
  /// The last trace copied from, which errors in reading what was copied name.
  private var lastInput: String?

  /// Starts a merged trace in the empty file at `path`.
  ///
  /// - Parameter destination: Where the trace goes once complete: what errors in writing it
  ///   name.
  package init(path: String, destination: String) throws(TraceFileError) {
    self.destination = destination
    self.connection = try TraceFile.openForWriting(path: path)
    self.connection.distrustSchemas()
    try self.connection.execute(
      """
      PRAGMA journal_mode = MEMORY;
      PRAGMA synchronous = OFF;
      PRAGMA temp_store = MEMORY;
      CREATE TEMP TABLE merged_sessions (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
      CREATE TEMP TABLE merged_actions (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
      CREATE TEMP TABLE skipped_sessions (old INTEGER PRIMARY KEY, copy INTEGER NOT NULL);
      CREATE TEMP TABLE excluded_sessions (old INTEGER PRIMARY KEY);
      CREATE TEMP TABLE selected_sessions (id INTEGER PRIMARY KEY);
      """
    )
  }

  /// A session of an input that the merged trace holds already, which is not copied again:
  /// the same recording, reached twice (a merged trace and one of its sources).
  package struct Skipped: Equatable, Sendable {
    /// Its id in the input.
    package var id: Int64
    /// The id of its copy in the merged trace.
    package var copy: Int64
  }

  /// Copies every session of the trace at `path` that the merged trace does not hold already.
  ///
  /// - Parameters:
  ///   - name: What `session_sources.file` says of the sessions recorded in it.
  ///   - sessions: The sessions to copy, by their ids in the file; `nil`: all of them.
  /// - Returns: The sessions and actions copied, and the sessions skipped.
  /// - Throws: `TraceFileError` when the file is not a trace this version reads, is damaged,
  ///   lacks a session asked for (`.notInFile`), or was written while it was copied (nothing
  ///   of it is then kept), or when the merged trace cannot be written.
  @discardableResult
  package func append(
    _ path: String, as name: String, sessions: [Int64]? = nil
  ) throws(TraceFileError) -> (sessions: Int64, actions: Int64, skipped: [Skipped]) {
    let (version, hasSources, snapshot) = try Self.check(path)
    self.lastInput = path
    let attach = try self.connection.prepare("ATTACH DATABASE ?1 AS input")
    // NB: Read-only, and without locks when no recorder was writing it (see
    // `TraceFile.openForReading`): attaching it leaves nothing beside it.
    attach.bind([
      .text(SQLiteConnection.uri(path) + (snapshot == nil ? "?mode=ro" : "?mode=ro&immutable=1"))
    ])
    do {
      try attach.run()
    } catch {
      throw TraceFileError(
        kind: .sqlite, path: path, sqliteCode: error.sqliteCode, message: error.message)
    }
    defer { try? self.connection.execute("DETACH DATABASE input") }
    let counts: (sessions: Int64, actions: Int64, skipped: [Skipped])
    do throws(TraceFileError) {
      counts = try self.connection.transaction(.deferred) { () throws(TraceFileError) in
        let counts = try self.copy(
          from: path, version: version, hasSources: hasSources, name: name, sessions: sessions)
        if let snapshot, snapshot.hasChanged(path: path) {
          throw TraceFileError(
            kind: .changedWhileReading, path: path,
            message:
              "was written while it was merged (a recorder began appending to it): merge again"
          )
        }
        return counts
      }
    } catch {
      throw self.blame(error, input: path)
    }
    return counts
  }

  /// Checks that the file at `path` is a whole trace this version reads.
  ///
  /// - Returns: Its schema version; whether it has `session_sources`; what it was when checked,
  ///   when no recorder was writing it (`nil` when one was).
  private static func check(
    _ path: String
  ) throws(TraceFileError) -> (version: Int64, hasSources: Bool, snapshot: FileSnapshot?) {
    let (connection, snapshot) = try TraceFile.openForReading(path: path, live: false)
    let version = try TraceFile.header(connection).version
    let tables =
      ["sessions", "actions", "state_changes", "leaks"] + (version >= 2 ? ["states"] : [])
      + (version >= 8 ? ["debugger_events"] : [])
    for table in tables where !(try connection.hasTable(table)) {
      throw TraceFileError(
        kind: .corrupt, path: path, message: "has a trace's header but not all of a trace's tables")
    }
    // NB: The check every command makes of a file, and its words.
    try IntegrityCheck.check(connection, path: path)
    return (version, try connection.hasTable("session_sources"), snapshot)
  }

  /// Finds the sessions of the input that the merged trace holds already, into
  /// `temp.skipped_sessions`: those recorded in the same file with the same id (by the
  /// `session_sources` of both, a session an input recorded itself being from that input)
  /// and with the same name and start. A file is the same when its name as given is, or when
  /// both names lead to the same file.
  private func findSkipped(name: String, hasSources: Bool) throws(TraceFileError) -> [Skipped] {
    try self.connection.execute("DELETE FROM temp.skipped_sessions")
    let copied = try self.connection.prepare(
      """
      SELECT s.id, src.file, src.original_id, s.name, s.started_at
      FROM main.sessions s JOIN main.session_sources src ON src.session_id = s.id
      """
    )
    var copies: [(id: Int64, file: String, originalID: Int64, name: String?, start: String?)] = []
    while try copied.step() {
      copies.append(
        (copied.int64(0), copied.text(1) ?? "", copied.int64(2), copied.text(3), copied.text(4)))
    }
    guard !copies.isEmpty else { return [] }
    let input = try self.connection.prepare(
      hasSources
        ? """
        SELECT s.id, coalesce(src.file, ?1), coalesce(src.original_id, s.id), s.name, s.started_at
        FROM input.sessions s LEFT JOIN input.session_sources src ON src.session_id = s.id
        ORDER BY s.id
        """
        : "SELECT s.id, ?1, s.id, s.name, s.started_at FROM input.sessions s ORDER BY s.id"
    )
    input.bind([.text(name)])
    func sameFile(_ first: String, _ second: String) -> Bool {
      guard first != second else { return true }
      guard let identity = FileStatus(first)?.identity else { return false }
      return FileStatus(second)?.identity == identity
    }
    var skipped: [Skipped] = []
    while try input.step() {
      let (id, file, originalID, name, start) = (
        input.int64(0), input.text(1) ?? "", input.int64(2), input.text(3), input.text(4)
      )
      if let copy = copies.first(where: {
        $0.originalID == originalID && $0.name == name && $0.start == start
          && sameFile($0.file, file)
      }) {
        skipped.append(Skipped(id: id, copy: copy.id))
      }
    }
    let insert = try self.connection.prepare(
      "INSERT INTO temp.skipped_sessions (old, copy) VALUES (?1, ?2)")
    for session in skipped {
      try insert.run([.integer(session.id), .integer(session.copy)])
    }
    return skipped
  }

  private func copy(
    from path: String, version: Int64, hasSources: Bool, name: String, sessions selected: [Int64]?
  ) throws(TraceFileError) -> (sessions: Int64, actions: Int64, skipped: [Skipped]) {
    let skipped = try self.findSkipped(name: name, hasSources: hasSources)
    try self.exclude(notIn: selected, of: path)
    // NB: What the rows of the sessions left out are: the rest of each table is copied whole.
    let notSkipped = "NOT IN (SELECT old FROM temp.excluded_sessions)"
    let skippedActions =
      "NOT IN (SELECT id FROM input.actions WHERE session_id IN (SELECT old FROM temp.excluded_sessions))"
    // NB: Ids here are ranks from 1, so the next ones cannot overflow.
    let sessionBase =
      try self.connection.integer("SELECT coalesce(max(id), 0) FROM main.sessions") ?? 0
    let actionBase =
      try self.connection.integer("SELECT coalesce(max(id), 0) FROM main.actions") ?? 0
    // NB: The columns versions before 5 lack are NULL, as a recorder appending to such a file
    // leaves them in its older sessions.
    let rebuild = version >= 2 ? "c.rebuild" : "NULL"
    let json = version >= 3 ? "st.json" : "NULL"
    let jsonChanges = version >= 4 ? "a.json_changes" : "NULL"
    let atOnce = version >= 5 ? "a.at_once" : "NULL"
    let shared = version >= 5 ? "c.shared" : "NULL"
    let trimmed = version >= 6 ? "s.trimmed_actions" : "0"
    let flight = version >= 7 ? "a.flight" : "NULL"
    let fallbacks = version >= 9 ? "s.backlog_fallbacks" : "NULL"
    try self.connection.execute(
      """
      DELETE FROM temp.merged_sessions;
      DELETE FROM temp.merged_actions;
      INSERT INTO temp.merged_sessions (old, new)
        SELECT id, \(sessionBase) + row_number() OVER (ORDER BY id) FROM input.sessions
        WHERE id \(notSkipped);
      INSERT INTO temp.merged_actions (old, new)
        SELECT id, \(actionBase) + row_number() OVER (ORDER BY id) FROM input.actions
        WHERE session_id \(notSkipped);
      \(TraceColumns.copy(
        into: "main.sessions", TraceColumns.sessions, id: "m.new", from: "s",
        values: ["trimmed_actions": trimmed, "backlog_fallbacks": fallbacks],
        "FROM input.sessions s JOIN temp.merged_sessions m ON m.old = s.id ORDER BY m.new"));
      """
    )
    let sessions = try self.connection.integer("SELECT count(*) FROM temp.merged_sessions") ?? 0
    let actions = try self.connection.integer("SELECT count(*) FROM temp.merged_actions") ?? 0
    try self.copyAll(
      actions, "actions", of: "sessions", from: path,
      TraceColumns.copy(
        into: "main.actions", TraceColumns.actions, id: "am.new", from: "a",
        values: [
          "session_id": "sm.new", "json_changes": jsonChanges, "at_once": atOnce,
          "flight": flight,
        ],
        """
        FROM input.actions a
        JOIN temp.merged_actions am ON am.old = a.id
        JOIN temp.merged_sessions sm ON sm.old = a.session_id
        ORDER BY am.new
        """)
    )
    try self.copyAll(
      try self.connection.integer(
        "SELECT count(*) FROM input.state_changes WHERE action_id \(skippedActions)") ?? 0,
      "state changes", of: "actions", from: path,
      TraceColumns.copy(
        into: "main.state_changes", TraceColumns.stateChanges, from: "c",
        values: ["action_id": "am.new", "rebuild": rebuild, "shared": shared],
        """
        FROM input.state_changes c JOIN temp.merged_actions am ON am.old = c.action_id
        ORDER BY am.new, c.position
        """)
    )
    if version >= 2 {
      try self.copyAll(
        try self.connection.integer(
          "SELECT count(*) FROM input.states WHERE session_id \(notSkipped)") ?? 0,
        "kept states", of: "sessions", from: path,
        TraceColumns.copy(
          into: "main.states", TraceColumns.states, from: "st",
          values: ["session_id": "sm.new", "json": json],
          """
          FROM input.states st JOIN temp.merged_sessions sm ON sm.old = st.session_id
          ORDER BY sm.new, st.seq
          """)
      )
    }
    try self.copyAll(
      try self.connection.integer(
        "SELECT count(*) FROM input.leaks WHERE action_id \(skippedActions)") ?? 0,
      "leaks", of: "actions", from: path,
      TraceColumns.copy(
        into: "main.leaks", TraceColumns.leaks, from: "l", values: ["action_id": "am.new"],
        """
        FROM input.leaks l JOIN temp.merged_actions am ON am.old = l.action_id
        ORDER BY am.new, l.rowid
        """)
    )
    if version >= 8 {
      try self.copyAll(
        try self.connection.integer(
          "SELECT count(*) FROM input.debugger_events WHERE session_id \(notSkipped)") ?? 0,
        "debugger events", of: "sessions", from: path,
        TraceColumns.copy(
          into: "main.debugger_events", TraceColumns.debuggerEvents, from: "d",
          values: ["session_id": "sm.new"],
          """
          FROM input.debugger_events d JOIN temp.merged_sessions sm ON sm.old = d.session_id
          ORDER BY sm.new, d.rowid
          """)
      )
    }
    // NB: A session merged before keeps the file it was recorded in.
    let sources = try self.connection.prepare(
      hasSources
        ? """
        INSERT INTO main.session_sources (session_id, file, original_id)
          SELECT m.new, coalesce(src.file, ?1), coalesce(src.original_id, m.old)
          FROM temp.merged_sessions m LEFT JOIN input.session_sources src ON src.session_id = m.old
        """
        : """
        INSERT INTO main.session_sources (session_id, file, original_id)
          SELECT m.new, ?1, m.old FROM temp.merged_sessions m
        """
    )
    sources.bind([.text(name)])
    try sources.run()
    return (sessions, actions, skipped)
  }

  /// Keeps of each session copied only its actions that began in its last `nanoseconds` (from
  /// the end of its last action), and the state before the first of them; see
  /// ``TraceRowWriter/trim(session:keepingFrom:path:)``, which may keep fewer.
  ///
  /// - Returns: The actions removed.
  @discardableResult
  package func keepLast(nanoseconds: Int64) throws(TraceFileError) -> Int {
    let path = self.lastInput ?? self.destination
    return try self.connection.transaction(.deferred) { () throws(TraceFileError) in
      let rows = try TraceRowWriter(connection: self.connection)
      let sessions = try self.connection.prepare("SELECT id FROM main.sessions ORDER BY id")
      var ids: [Int64] = []
      while try sessions.step() { ids.append(try sessions.integer(0)) }
      // NB: The last action at least: it began before the session's end.
      let first = try self.connection.prepare(
        """
        SELECT coalesce(
          (SELECT min(seq) FROM main.actions
           WHERE session_id = ?1 AND time_ns >= (
             SELECT max(time_ns + duration_ns) FROM main.actions WHERE session_id = ?1) - ?2),
          (SELECT max(seq) FROM main.actions WHERE session_id = ?1))
        """
      )
      var removed = 0
      for id in ids {
        first.bind([.integer(id), .integer(max(0, nanoseconds))])
        guard try first.step(), let seq = try first.optionalInteger(0) else { continue }
        first.reset()
        removed += try rows.trim(session: id, keepingFrom: Int(clamping: seq), path: path)
      }
      return removed
    }
  }

  /// Rewrites the merged trace without the pages that rows removed left free, so that it is as
  /// small as what it holds. Runs outside any transaction.
  package func compact() throws(TraceFileError) {
    try self.connection.execute("VACUUM")
  }

  /// Fills `temp.excluded_sessions` with the input's sessions not to copy: those skipped, and
  /// those not in `selected` (when given), each of which the input must hold.
  private func exclude(notIn selected: [Int64]?, of path: String) throws(TraceFileError) {
    try self.connection.execute(
      """
      DELETE FROM temp.excluded_sessions;
      INSERT INTO temp.excluded_sessions (old) SELECT old FROM temp.skipped_sessions;
      """
    )
    guard let selected else { return }
    let held = try self.connection.prepare("SELECT count(*) FROM input.sessions WHERE id = ?1")
    for id in selected {
      held.reset()
      held.bind(1, id)
      guard try held.step(), try held.integer(0) == 1 else {
        throw TraceFileError(kind: .notInFile, path: path, message: "has no session \(id)")
      }
    }
    try self.connection.execute("DELETE FROM temp.selected_sessions")
    let insert = try self.connection.prepare(
      "INSERT OR IGNORE INTO temp.selected_sessions (id) VALUES (?1)")
    for id in selected { try insert.run([.integer(id)]) }
    try self.connection.execute(
      """
      INSERT OR IGNORE INTO temp.excluded_sessions (old)
        SELECT id FROM input.sessions WHERE id NOT IN (SELECT id FROM temp.selected_sessions)
      """
    )
  }

  /// Runs `sql`, which copies rows of `table`, and checks that it copied all `count` of them:
  /// the rest belong to `owners` the file does not hold.
  private func copyAll(
    _ count: Int64, _ table: String, of owners: String, from path: String, _ sql: String
  ) throws(TraceFileError) {
    try self.connection.execute(sql)
    let missing = count - self.connection.changes
    guard missing == 0 else {
      throw TraceFileError(
        kind: .corrupt, path: path,
        message:
          "holds \(missing) \(missing == 1 ? String(table.dropLast()) : table) of \(owners) it does not have"
      )
    }
  }

  /// `error`, from copying the trace at `input`, said of the file at fault: the input, unless
  /// the merged trace could not be written.
  private func blame(_ error: TraceFileError, input: String) -> TraceFileError {
    guard error.path == self.connection.path, let code = error.sqliteCode else { return error }
    switch code & 0xFF {
    case SQLITE_FULL, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM:
      return TraceFileError(
        kind: .notWritable, path: self.destination,
        message: "cannot be written (\(error.message)): nothing was written there"
      )
    case SQLITE_NOMEM, SQLITE_INTERRUPT:
      return TraceFileError(kind: .sqlite, path: input, sqliteCode: code, message: error.message)
    default:
      // NB: What SQLite refuses in copying a whole trace (a constraint, a missing column, a
      // value of the wrong type where a key goes) is something wrong in that trace.
      return TraceFileError(
        kind: .corrupt, path: input, message: "cannot be copied (\(error.message))")
    }
  }
}
