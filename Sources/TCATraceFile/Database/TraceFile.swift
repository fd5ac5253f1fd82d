internal import CSQLite
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opening trace files: creating them, checking they are ours, refusing what is not.
package enum TraceFile {
  /// Opens `path` to append sessions, creating the file and its schema if needed. An existing
  /// trace is not changed: ``prepareForAppending(_:)`` checks it, then upgrades it and puts it
  /// in WAL mode, before anything is appended.
  ///
  /// - Throws: `TraceFileError` when the path is a directory, or the file is not SQLite, not a
  ///   trace, damaged, or from a newer TCATrace — such a file is left untouched — or when it
  ///   cannot be created or written.
  /// - Parameter waiting: Whether to wait (up to 5 s) while another connection holds a lock
  ///   the opening needs. Without waiting, such a lock fails the opening at once with
  ///   `SQLITE_BUSY` (see ``TraceFileError/isBusy``), for a caller that must not block.
  package static func openForWriting(
    path: String, waiting: Bool = true
  ) throws(TraceFileError) -> SQLiteConnection {
    try self.checkNotDirectory(path, FileStatus(path))
    let connection = try SQLiteConnection(path: path, mode: .readWrite)
    if !waiting { connection.setBusyTimeout(milliseconds: 0) }
    // NB: The header is read before anything is written, so a file that turns out not to be
    // ours is never changed.
    var (applicationID, version, tableCount) = try self.header(connection)
    if applicationID == 0, version == 0, tableCount == 0 {
      // NB: Another recorder may be creating the same new file: the header is read again under
      // the write lock (which waits for the other's), and the schema written only if the file
      // is still empty. WAL comes after: switching waits for no lock and fails at once when
      // another connection is in the file.
      try connection.transaction(.takingTheWriteLock) { () throws(TraceFileError) in
        (applicationID, version, tableCount) = try self.header(connection)
        if applicationID == 0, version == 0, tableCount == 0 {
          try connection.execute(
            """
            PRAGMA application_id = \(TraceSchema.applicationID);
            PRAGMA user_version = \(TraceSchema.version);
            \(TraceSchema.sql)
            """
          )
          (applicationID, version) = (Int64(TraceSchema.applicationID), Int64(TraceSchema.version))
        }
      }
    }
    try self.checkIsTrace(path: path, applicationID: applicationID, version: version)
    if !waiting { connection.setBusyTimeout(milliseconds: SQLiteConnection.busyTimeout) }
    return connection
  }

  /// Readies the trace `connection` opened (``openForWriting(path:waiting:)``) for appending:
  /// checks that the file is whole (``checkBeforeAppending(_:version:)``), and only then brings an
  /// older trace to this version and puts the file in WAL mode. A damaged file is refused as
  /// it was, byte for byte: switching its journal alone rewrites its header.
  ///
  /// It reads every page, so it runs where waiting does not matter (the recorder's writer
  /// thread).
  ///
  /// - Throws: `TraceFileError` of kind `.corrupt` when the file is damaged; a busy error
  ///   (``TraceFileError/isBusy``) while another connection holds a lock for longer than 5 s.
  package static func prepareForAppending(_ connection: SQLiteConnection) throws(TraceFileError) {
    let version = try self.header(connection).version
    try self.checkBeforeAppending(connection, version: version)
    if version < Int64(TraceSchema.version) { try self.upgrade(connection) }
    try self.useWAL(connection, waiting: true)
    try connection.execute("PRAGMA synchronous = NORMAL")
  }

  /// Brings an older trace to this version before a recorder appends to it: to a version-1
  /// file, the `states` table and the `rebuild` column of `state_changes`; to a version-2 file,
  /// the `json` column of `states`; to a version-3 file, the `json_changes` column of
  /// `actions`; to a version-4 file, the `at_once` column of `actions` and the `shared` column
  /// of `state_changes`; to a version-5 file, the `trimmed_actions` column of `sessions`; to a
  /// version-6 file, the `flight` column of `actions`; to a version-7 file, the `debugger_events`
  /// table, and the origin `debugger`; to a version-8 file, the `backlog_fallbacks` column of
  /// `sessions`. Its older sessions leave them empty (none trimmed, fallbacks not counted).
  private static func upgrade(_ connection: SQLiteConnection) throws(TraceFileError) {
    // NB: Under the write lock, with the version read again: another recorder may be
    // upgrading the same file.
    try connection.transaction(.takingTheWriteLock) { () throws(TraceFileError) in
      let version = try self.header(connection).version
      if version < 2 {
        // NB: The table as this version creates it, `json` column included.
        try connection.execute(
          """
          ALTER TABLE state_changes ADD COLUMN rebuild TEXT;
          \(TraceSchema.statesTableSQL)
          """
        )
      } else if version < 3 {
        try connection.execute("ALTER TABLE states ADD COLUMN json TEXT")
      }
      if version < 4 {
        try connection.execute("ALTER TABLE actions ADD COLUMN json_changes TEXT")
      }
      if version < 5 {
        try connection.execute(
          """
          ALTER TABLE actions ADD COLUMN at_once INTEGER CHECK (at_once = 1);
          ALTER TABLE state_changes ADD COLUMN shared TEXT;
          """
        )
      }
      if version < 6 {
        try connection.execute(
          "ALTER TABLE sessions ADD COLUMN trimmed_actions INTEGER NOT NULL DEFAULT 0")
      }
      if version < 7 {
        try connection.execute(
          "ALTER TABLE actions ADD COLUMN flight TEXT CHECK (flight IN ('returned', 'ended_process'))"
        )
      }
      if version < 8 {
        try self.allowDebuggerOrigin(connection)
        if try !connection.hasTable("debugger_events") {
          try connection.execute(TraceSchema.debuggerEventsSQL)
        }
      }
      if version < 9 {
        try connection.execute(
          "ALTER TABLE sessions ADD COLUMN backlog_fallbacks INTEGER CHECK (backlog_fallbacks >= 0)"
        )
      }
      try connection.execute("PRAGMA user_version = \(TraceSchema.version)")
    }
  }

  /// Lets `actions.origin` be 'debugger' in a file older than version 8, whose `CHECK` allows
  /// only 'send' and 'effect'. SQLite cannot alter a constraint: the table is made again as this
  /// version's schema has it, its rows copied, ids and all, and the old one dropped, with its
  /// indexes and the views that read it made again after (SQLite's "generalized ALTER TABLE
  /// procedure", <https://sqlite.org/lang_altertable.html>). Plain statements only: no edit of
  /// `sqlite_schema`, which SQLite's defensive mode (on by default for apps on Apple's
  /// platforms) forbids. In the upgrade's transaction; it rewrites the table once.
  private static func allowDebuggerOrigin(_ connection: SQLiteConnection) throws(TraceFileError) {
    let columns = (["id"] + TraceColumns.actions).joined(separator: ", ")
    try connection.execute(
      """
      DROP VIEW IF EXISTS timeline;
      DROP VIEW IF EXISTS leak_report;
      CREATE TABLE new_actions (\(TraceSchema.actionsTableSQL.dropFirst("CREATE TABLE actions (".count));
      INSERT INTO new_actions (\(columns)) SELECT \(columns) FROM actions ORDER BY id;
      DROP TABLE actions;
      ALTER TABLE new_actions RENAME TO actions;
      \(TraceSchema.actionsIndexesSQL)
      \(TraceSchema.viewsSQL)
      """
    )
  }

  /// Checks, before anything is appended to the trace `connection` opened, that the file is
  /// whole: its tables are there and `PRAGMA quick_check` finds nothing wrong. It reads every
  /// page, so it runs where waiting does not matter (the recorder's writer thread).
  ///
  /// - Throws: `TraceFileError` of kind `.corrupt` when the file is damaged.
  private static func checkBeforeAppending(
    _ connection: SQLiteConnection, version: Int64
  ) throws(TraceFileError) {
    let path = connection.path
    do throws(TraceFileError) {
      // NB: A version-1 trace has no `states` table yet: upgrading adds it.
      let tables = try connection.integer(
        """
        SELECT count(*) FROM sqlite_master
        WHERE type = 'table' AND name IN ('sessions', 'actions', 'state_changes', 'leaks', 'states')
        """
      )
      guard tables == (version < 2 ? 4 : 5) else {
        throw TraceFileError(
          kind: .corrupt, path: path,
          message: "is damaged: it has a trace's header but not all of a trace's tables"
        )
      }
      if let problem = try self.quickCheck(connection) {
        throw TraceFileError(
          kind: .corrupt, path: path, message: "is damaged (PRAGMA quick_check: \(problem))")
      }
    } catch  where error.kind == .corrupt && error.sqliteCode != nil {
      throw TraceFileError(kind: .corrupt, path: path, message: "is damaged (\(error.message))")
    }
  }

  /// The first problem `PRAGMA integrity_check` finds in the file, or in `table` and its
  /// indexes, on one line; `nil` when there is none. It reads every page, and looks each
  /// table's rows up in its indexes.
  package static func integrityProblem(
    _ connection: SQLiteConnection, table: String? = nil
  ) throws(TraceFileError) -> String? {
    try self.problem("integrity_check", connection, table: table)
  }

  /// The first problem `PRAGMA quick_check` finds in the file, on one line; `nil` when there
  /// is none. It reads every page, but not the indexes' entries.
  package static func quickCheck(_ connection: SQLiteConnection) throws(TraceFileError) -> String? {
    try self.problem("quick_check", connection, table: nil)
  }

  private static func problem(
    _ pragma: String, _ connection: SQLiteConnection, table: String?
  ) throws(TraceFileError) -> String? {
    let check = try connection.prepare(
      table.map { "PRAGMA \(pragma)(\"\($0)\")" } ?? "PRAGMA \(pragma)(1)"
    )
    guard try check.step(), let result = check.text(0) else { return "it said nothing" }
    guard result != "ok" else { return nil }
    // NB: One line: the report is several ("*** in database main ***", then what).
    return result.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("***") }.joined(
      separator: " ")
  }

  /// Puts the file in WAL mode (a no-op when it is), retrying while another connection holds
  /// it: the switch does not wait as other statements do.
  private static func useWAL(_ connection: SQLiteConnection, waiting: Bool) throws(TraceFileError) {
    let deadline = DispatchTime.now().uptimeNanoseconds + (waiting ? 5_000_000_000 : 0)
    while true {
      do throws(TraceFileError) {
        try connection.execute("PRAGMA journal_mode = WAL")
        return
      } catch
        where error.sqliteCode.map({ $0 & 0xFF }) == SQLITE_BUSY
        && DispatchTime.now().uptimeNanoseconds < deadline
      {
        usleep(10_000)
      }
    }
  }

  /// Opens `path` read-only, checking that it is a trace this version can read.
  ///
  /// - Parameter live: Open so as to see what a writer commits later (for following a file).
  ///   Otherwise a file with no `-wal` beside it, which no one is writing, is opened immutable,
  ///   and reading it leaves nothing beside it.
  ///
  /// - Returns: The connection, and what the file was as it was opened (`snapshot`) when it was
  ///   opened immutable; `nil` when it was opened to see a writer's commits.
  ///
  /// NB: An immutable connection takes no locks, so a recorder that starts appending and
  /// checkpoints its WAL into the file while it is read would tear what is read: a reader
  /// compares the snapshot with the file as it ends (``FileSnapshot/hasChanged(path:)``).
  package static func openForReading(
    path: String, live: Bool
  ) throws(TraceFileError) -> (connection: SQLiteConnection, snapshot: FileSnapshot?) {
    // NB: Taken before the file is opened: a change that starts after is seen.
    let snapshot = FileSnapshot(path)
    guard let status = FileStatus(path) else {
      throw TraceFileError(
        kind: .notFound, path: path, message: "does not exist: check the path"
      )
    }
    try self.checkNotDirectory(path, status)
    if !status.isRegularFile {
      throw TraceFileError(
        kind: .notATrace, path: path,
        message:
          "is not a regular file (a pipe, a device or a socket), so it is not a trace: give the path of a trace file"
      )
    }
    if status.size == 0 {
      throw TraceFileError(
        kind: .notATrace, path: path,
        message:
          "is empty, so it is not a trace: a recorder writes its header when it opens the file"
      )
    }
    let immutable = !live && !self.hasWAL(path)
    let connection = try SQLiteConnection(
      path: path, mode: immutable ? .readOnlyImmutable : .readOnly
    )
    try connection.execute("PRAGMA query_only = ON")
    let ((applicationID, version, _), notATable) = try self.headerAndViews(connection)
    try self.checkIsTrace(path: path, applicationID: applicationID, version: version)
    // NB: A trace's tables are tables: one made a view (of an endless recursive CTE, say) could
    // give rows forever, each in no time, which no limit on a row's time stops.
    if let notATable {
      let parts = notATable.split(separator: " ", maxSplits: 1)
      throw TraceFileError(
        kind: .corrupt, path: path,
        message: "holds '\(parts.first ?? "")' as a \(parts.last ?? "") where a trace has a table"
      )
    }
    return (connection, immutable ? snapshot : nil)
  }

  /// The bytes of the file at `path` and of its `-wal`: what reading all of it reads.
  package static func size(_ path: String) -> Int {
    [path, path + "-wal"].reduce(0) { total, path in
      total + (FileStatus(path).map { Int(clamping: $0.size) } ?? 0)
    }
  }

  /// Whether a `-wal` with something in it lies beside `path`: a recorder is writing the file,
  /// or one died before it could fold its WAL into the file. An empty one, left behind, holds
  /// nothing to read; reading the file without it leaves no `-shm` beside it.
  package static func hasWAL(_ path: String) -> Bool {
    FileStatus(path + "-wal").map { $0.size > 0 } ?? false
  }

  private static func checkNotDirectory(_ path: String, _ status: FileStatus?)
    throws(TraceFileError)
  {
    if status?.isDirectory == true {
      throw TraceFileError(
        kind: .isDirectory, path: path, message: "is a directory, not a trace file"
      )
    }
  }

  package static func header(
    _ connection: SQLiteConnection
  ) throws(TraceFileError) -> (applicationID: Int64, version: Int64, tableCount: Int64) {
    try self.headerAndViews(connection).header
  }

  /// The file's header, and the first of a trace's tables that is not a table in it (`nil`:
  /// none), as `name type`.
  private static func headerAndViews(
    _ connection: SQLiteConnection
  ) throws(TraceFileError) -> (
    header: (applicationID: Int64, version: Int64, tableCount: Int64), notATable: String?
  ) {
    // NB: One statement, so one snapshot: read as three, a recorder creating the file between
    // them showed an empty header over a file with tables, which is "not a trace".
    let statement = try connection.prepare(
      """
      SELECT a.application_id, v.user_version, (SELECT count(*) FROM sqlite_master),
        (SELECT name || ' ' || type FROM sqlite_master
         WHERE name IN ('sessions', 'actions', 'state_changes', 'leaks', 'states', 'session_sources')
           AND type != 'table'
         LIMIT 1)
      FROM pragma_application_id() AS a, pragma_user_version() AS v
      """
    )
    guard try statement.step() else { return ((0, 0, 0), nil) }
    return (
      (statement.int64(0), statement.int64(1), statement.int64(2)), try statement.optionalString(3)
    )
  }

  private static func checkIsTrace(
    path: String, applicationID: Int64, version: Int64
  ) throws(TraceFileError) {
    guard applicationID == Int64(TraceSchema.applicationID) else {
      throw TraceFileError(
        kind: .notATrace, path: path,
        message: "is a SQLite database but not a TCATrace file (no trace header)"
      )
    }
    guard version <= Int64(TraceSchema.version) else {
      throw TraceFileError(
        kind: .newerSchema(Int(version)), path: path,
        message: """
          was written by a newer TCATrace (schema version \(version); this one reads up to \
          \(TraceSchema.version)): update tcatrace to read it
          """
      )
    }
  }
}

/// A file's identity, size and times, to tell whether anything wrote to it.
package struct FileSnapshot: Equatable, Sendable {
  private var device: UInt64
  private var inode: UInt64
  /// The file's size, in bytes.
  package private(set) var size: Int64
  private var modified: timespec
  private var changed: timespec

  package init?(_ path: String) {
    var info = stat()
    guard FileName.withCString(path, { stat($0, &info) }) == 0 else { return nil }
    self.device = UInt64(info.st_dev)
    self.inode = UInt64(info.st_ino)
    self.size = Int64(info.st_size)
    #if canImport(Darwin)
      self.modified = info.st_mtimespec
      self.changed = info.st_ctimespec
    #else
      self.modified = info.st_mtim
      self.changed = info.st_ctim
    #endif
  }

  /// Whether the file at `path` is no longer the one of this snapshot, or was written since.
  package func hasChanged(path: String) -> Bool {
    FileSnapshot(path) != self
  }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
      && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
      && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
  }
}

/// What `stat` says of a path, following links; `nil` when there is nothing there.
///
/// NB: One system call: `FileManager`'s attributes build a dictionary of bridged values, whose
/// types the runtime looks up the first time, in every `tcatrace` command that opens a trace.
package struct FileStatus {
  package var isDirectory: Bool
  /// Whether it is a file of its own: not a directory, a pipe, a device or a socket.
  package var isRegularFile: Bool
  package var size: Int64
  /// Which file it is: two paths with the same identity name the same file.
  package var identity: Identity

  package struct Identity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
  }

  package init?(_ path: String) {
    var info = stat()
    guard FileName.withCString(path, { stat($0, &info) }) == 0 else { return nil }
    self.isDirectory = info.st_mode & S_IFMT == S_IFDIR
    self.isRegularFile = info.st_mode & S_IFMT == S_IFREG
    self.size = Int64(info.st_size)
    self.identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }
}
