internal import CSQLite
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connection to one SQLite file; used from one thread at a time.
package final class SQLiteConnection {
  package let handle: OpaquePointer
  package let path: String
  /// Whether this connection writes; its errors say "while writing".
  package let isWriting: Bool

  package enum Mode: Equatable {
    /// Creates the file if missing.
    case readWrite
    /// Never writes; refuses a schema that could run code (for files from others). Sees what
    /// a live writer commits.
    case readOnly
    /// `readOnly`, for a file no one is writing (no `-wal` beside it): no locks, and no `-wal`
    /// or `-shm` files are created beside it.
    case readOnlyImmutable
  }

  package init(path: String, mode: Mode) throws(TraceFileError) {
    self.path = path
    self.isWriting = mode == .readWrite
    var handle: OpaquePointer?
    var flags: Int32
    // NB: Always a URI of the absolute path: SQLite takes some file names as other things
    // (`:memory:` is an in-memory database, `file:…` a URI), and a path is just a file.
    var filename = Self.uri(path)
    switch mode {
    case .readWrite: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    case .readOnly: flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
    case .readOnlyImmutable:
      flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
      filename += "?immutable=1"
    }
    flags |= SQLITE_OPEN_URI
    let code = sqlite3_open_v2(filename, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let error = TraceFileError(code: code, db: handle, path: path, isWriting: mode == .readWrite)
      // NB: A failed open still allocates a handle, which must be closed.
      sqlite3_close(handle)
      throw error
    }
    self.handle = handle
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, Self.busyTimeout)
    if mode != .readWrite {
      csqlite_enable_defensive(handle)
      csqlite_disable_trusted_schema(handle)
      // NB: No other database may be attached to a reader: a query cannot reach other files.
      sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 0)
    }
  }

  deinit {
    sqlite3_close_v2(self.handle)
  }

  /// Keeps SQLite's temporary data (sorts, materialized views and subqueries, transient
  /// indexes) in memory rather than in temp files: with ``limitMemory(toBytes:)``, a query whose
  /// temporary data never stops growing stops at the limit instead of filling the disk.
  package func keepTemporaryDataInMemory() throws(TraceFileError) {
    try self.execute("PRAGMA temp_store = MEMORY")
  }

  /// Limits the memory SQLite allocates in this process, for every connection, to `bytes`
  /// (`sqlite3_hard_heap_limit64`); past it a statement fails with `SQLITE_NOMEM`. For a
  /// program that reads files from others, not for a library inside an app.
  ///
  /// NB: SQLite enforces the limit only with its memory statistics on, which a build may turn
  /// off by default (`SQLITE_DEFAULT_MEMSTATUS=0`): they are turned on first, which takes only
  /// before SQLite is first used in the process (see ``isMemoryLimitEnforced``).
  package static func limitMemory(toBytes bytes: Int64) {
    _ = csqlite_enable_memory_statistics()
    sqlite3_hard_heap_limit64(bytes)
  }

  /// Whether SQLite counts what it allocates, and so enforces ``limitMemory(toBytes:)``: it has
  /// allocated something once a connection is open, and counts 0 with its statistics off.
  package static var isMemoryLimitEnforced: Bool {
    sqlite3_memory_used() > 0
  }

  /// The limit ``limitMemory(toBytes:)`` set, in bytes; 0 when there is none.
  package static var memoryLimit: Int64 {
    sqlite3_hard_heap_limit64(-1)
  }

  /// How long a statement waits for a lock another connection holds, in milliseconds.
  package static let busyTimeout: Int32 = 5_000

  /// How long a statement waits for a lock another connection holds before it fails with
  /// `SQLITE_BUSY`, in milliseconds; 0 fails at once. Connections start at ``busyTimeout``.
  package func setBusyTimeout(milliseconds: Int32) {
    sqlite3_busy_timeout(self.handle, milliseconds)
  }

  /// The longest one step of a statement (reading one row) may take, in nanoseconds, before
  /// it is interrupted; `nil`: no limit. A file whose views never end (an endless recursive
  /// CTE behind `actions`) then cannot hang a reader, or fill the disk with its temp files.
  package var stepTimeLimit: UInt64? {
    didSet {
      if self.stepTimeLimit == nil {
        sqlite3_progress_handler(self.handle, 0, nil, nil)
      } else if oldValue == nil {
        // NB: Checked every 1,000 virtual machine instructions: a clock read per ~10 µs of
        // work.
        sqlite3_progress_handler(
          self.handle, 1_000, interruptAfterDeadline, Unmanaged.passUnretained(self).toOpaque()
        )
      }
    }
  }

  /// When the running step must stop, in uptime nanoseconds.
  fileprivate var deadline: UInt64 = .max
  /// Whether the last step was stopped by ``stepTimeLimit``.
  fileprivate(set) var stepTimedOut = false

  /// The process's working directory; `.` when it cannot be read (it was removed), which
  /// makes a relative path's URI one SQLite refuses rather than another file's.
  private static func currentDirectory() -> String {
    guard let path = getcwd(nil, 0) else { return "." }
    defer { free(path) }
    return String(cString: path)
  }

  /// `path` as a `file://` URI of its absolute path, with every byte but ASCII letters,
  /// digits and `/-._~` escaped: `//server/x.db`, `:memory:`, `a?b#c%d.db` and names that are
  /// not UTF-8 (see ``FileName``) are files like any other.
  package static func uri(_ path: String) -> String {
    let absolute =
      path.hasPrefix("/") ? path : Self.currentDirectory() + "/" + path
    var uri = "file://"
    for byte in FileName.bytes(absolute) {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"),
        UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
        uri.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        uri +=
          "%" + String(byte >> 4, radix: 16, uppercase: true)
          + String(byte & 0xF, radix: 16, uppercase: true)
      }
    }
    return uri
  }

  package func execute(_ sql: String) throws(TraceFileError) {
    let code = sqlite3_exec(self.handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else {
      throw TraceFileError(
        code: code, db: self.handle, path: self.path, sql: sql, isWriting: self.isWriting
      )
    }
  }

  /// How a transaction begins.
  package enum TransactionStart: String {
    /// Locks as it goes (`BEGIN`): a read takes no write lock, here or in an attached file.
    case deferred = "BEGIN"
    /// Takes the write lock before it reads (`BEGIN IMMEDIATE`).
    case takingTheWriteLock = "BEGIN IMMEDIATE"
  }

  /// Runs `body` in a transaction begun as `start` says: committed when `body` returns, rolled
  /// back when it throws.
  package func transaction<Result>(
    _ start: TransactionStart, _ body: () throws(TraceFileError) -> Result
  ) throws(TraceFileError) -> Result {
    try self.execute(start.rawValue)
    do throws(TraceFileError) {
      let result = try body()
      try self.execute("COMMIT")
      return result
    } catch {
      try? self.execute("ROLLBACK")
      throw error
    }
  }

  /// Folds the WAL into the file and leaves it empty (`wal_checkpoint(TRUNCATE)`): should
  /// closing not delete the WAL, the file alone holds what was written.
  package func checkpointTruncatingWAL() throws(TraceFileError) {
    try self.execute("PRAGMA wal_checkpoint(TRUNCATE)")
  }

  package func prepare(_ sql: String) throws(TraceFileError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(self.handle, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      if code == SQLITE_OK {
        // NB: SQLite prepares nothing, and says "not an error", for a text of only spaces and
        // comments.
        throw TraceFileError(
          kind: .sqlite, path: self.path, sqliteCode: SQLITE_MISUSE,
          message: "the query is empty", sql: sql, isWriting: self.isWriting
        )
      }
      throw TraceFileError(
        code: code, db: self.handle, path: self.path, sql: sql, isWriting: self.isWriting
      )
    }
    return SQLiteStatement(handle: statement, connection: self, sql: sql)
  }

  /// Prepares `sql`, which must be one statement: text after the first statement (`SELECT 1;
  /// DROP TABLE leaks`) is an error rather than ignored.
  package func prepareSingle(_ sql: String) throws(TraceFileError) -> SQLiteStatement {
    let statement = try self.prepare(sql)
    var tailStatement: OpaquePointer?
    var tailCode = SQLITE_OK
    var rest = ""
    sql.withCString { text in
      var tail: UnsafePointer<CChar>?
      // NB: Prepared again only to find where the first statement ends; the tail is then
      // prepared to see whether it holds a statement, or only spaces and comments.
      var first: OpaquePointer?
      sqlite3_prepare_v2(self.handle, text, -1, &first, &tail)
      sqlite3_finalize(first)
      if let tail, tail.pointee != 0 {
        rest = String(cString: tail)
        tailCode = sqlite3_prepare_v2(self.handle, tail, -1, &tailStatement, nil)
      }
    }
    guard tailStatement == nil, tailCode == SQLITE_OK else {
      sqlite3_finalize(tailStatement)
      let trimmed = rest.trimmed
      throw TraceFileError(
        kind: .sqlite, path: self.path, sqliteCode: SQLITE_MISUSE,
        message:
          "the query is more than one statement ('\(trimmed.prefix(60))' follows the first); run one at a time",
        sql: sql, isWriting: self.isWriting
      )
    }
    return statement
  }

  /// The first column of the first row of `sql`, as an integer.
  package func integer(_ sql: String) throws(TraceFileError) -> Int64? {
    let statement = try self.prepare(sql)
    guard try statement.step() else { return nil }
    return statement.isNull(0) ? nil : statement.int64(0)
  }

  /// Whether the file has a table named `name` (not a view, nor an index).
  package func hasTable(_ name: String) throws(TraceFileError) -> Bool {
    let statement = try self.prepare(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1"
    )
    statement.bind([.text(name)])
    return try statement.step() && statement.int64(0) == 1
  }

  /// The rows the last statement inserted, updated or deleted.
  package var changes: Int64 {
    sqlite3_changes64(self.handle)
  }

  /// Keeps the schemas of files this connection attaches from calling functions with side
  /// effects or changing the schema table: for a writer that reads files from others.
  package func distrustSchemas() {
    csqlite_enable_defensive(self.handle)
    csqlite_disable_trusted_schema(self.handle)
  }

  package var lastInsertRowID: Int64 {
    sqlite3_last_insert_rowid(self.handle)
  }
}

/// A prepared statement, reused by resetting it.
package final class SQLiteStatement {
  package let handle: OpaquePointer
  unowned let connection: SQLiteConnection
  package let sql: String
  /// The bytes of the short texts bound since the last reset, which SQLite reads where they
  /// lie (see `bind(_:_:)`).
  ///
  /// NB: Unchecked: a statement is used by one thread at a time, and each text bound would
  /// check its access.
  @exclusivity(unchecked) private var texts = BoundTexts()

  package init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
    self.handle = handle
    self.connection = connection
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(self.handle)
    self.texts.deallocate()
  }

  /// Binds `values` to the parameters `?1`, `?2`, … and resets the statement first.
  package func bind(_ values: [SQLiteValue]) {
    self.reset()
    for (index, value) in values.enumerated() {
      let position = Int32(index + 1)
      switch value {
      case .null: sqlite3_bind_null(self.handle, position)
      case let .integer(integer): self.bind(position, integer)
      case let .text(text): self.bind(position, text)
      }
    }
  }

  /// Resets the statement, to bind its parameters anew: each holds NULL until it is bound
  /// again. (The short texts bound before are written over by the next ones.)
  package func reset() {
    sqlite3_reset(self.handle)
    sqlite3_clear_bindings(self.handle)
    self.texts.release()
  }

  /// Binds `integer` to the parameter `?position`.
  package func bind(_ position: Int32, _ integer: Int64) {
    sqlite3_bind_int64(self.handle, position, integer)
  }

  /// Binds 1 to the parameter `?position` when `flag` is set, NULL otherwise: a mark that is
  /// usually absent costs a record one byte.
  package func bind(_ position: Int32, flag: Bool) {
    if flag {
      sqlite3_bind_int64(self.handle, position, 1)
    } else {
      sqlite3_bind_null(self.handle, position)
    }
  }

  /// Binds `text` to the parameter `?position`; `nil` binds NULL.
  ///
  /// A short text is copied into room the statement keeps from one row to the next, which
  /// SQLite reads where it lies until ``reset()``. SQLite's own copy (`SQLITE_TRANSIENT`)
  /// allocated and freed memory for each, under the lock of SQLite's memory statistics where
  /// they are kept (Debian's SQLite keeps them): `sqlite3_bind_text` counted about 710
  /// instructions a text, 11 texts an action in `Composable`'s burst, and the writer's thread
  /// 4,040 an action more than now. A longer one is copied by SQLite, as before: kept, its room
  /// would hold as much for as long as the statement.
  package func bind(_ position: Int32, _ text: String?) {
    guard var text else {
      sqlite3_bind_null(self.handle, position)
      return
    }
    // NB: The string's own UTF-8, with its length: no C string is made for it. (A string whose
    // UTF-8 is not contiguous, a lazily bridged `NSString`, is made contiguous first.)
    text.withUTF8 { self.bind(position, UnsafeRawBufferPointer($0)) }
  }

  private func bind(_ position: Int32, _ bytes: UnsafeRawBufferPointer) {
    guard let start = bytes.baseAddress, bytes.count > 0 else {
      // NB: An empty string may have no bytes to point to; SQLite binds NULL for no pointer.
      let empty = UnsafeRawPointer(("" as StaticString).utf8Start)
      sqlite3_bind_text(self.handle, position, empty.assumingMemoryBound(to: CChar.self), 0, nil)
      return
    }
    guard bytes.count <= BoundTexts.longest else {
      sqlite3_bind_text(
        self.handle, position, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
        sqliteTransient)
      return
    }
    let room = self.texts.room(for: bytes.count)
    room.copyMemory(from: start, byteCount: bytes.count)
    // NB: SQLITE_STATIC: SQLite reads the bytes where they lie, which stay until `reset()`.
    sqlite3_bind_text(
      self.handle, position, room.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
  }

  /// Steps once: `true` when a row is available, `false` when done.
  @discardableResult
  package func step() throws(TraceFileError) -> Bool {
    let connection = self.connection
    if let limit = connection.stepTimeLimit {
      connection.stepTimedOut = false
      let (deadline, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(limit)
      connection.deadline = overflow ? .max : deadline
    }
    let code = sqlite3_step(self.handle)
    connection.deadline = .max
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case SQLITE_INTERRUPT where connection.stepTimedOut:
      let seconds = Double(connection.stepTimeLimit ?? 0) / 1_000_000_000
      throw TraceFileError(
        kind: .sqlite, path: connection.path, sqliteCode: code,
        message:
          "reading one row took longer than \(seconds.formatted) s, so it was stopped: the file's tables or views do not end, as in a damaged or hostile file",
        sql: self.sql, isWriting: connection.isWriting
      )
    default:
      throw TraceFileError(
        code: code, db: self.connection.handle, path: self.connection.path, sql: self.sql,
        isWriting: self.connection.isWriting
      )
    }
  }

  /// Runs the statement with `values` to the end.
  package func run(_ values: [SQLiteValue]) throws(TraceFileError) {
    self.bind(values)
    try self.run()
  }

  /// Runs the statement, with the values bound to it, to the end.
  package func run() throws(TraceFileError) {
    while try self.step() {}
  }

  package var columnCount: Int { Int(sqlite3_column_count(self.handle)) }

  package func columnName(_ index: Int) -> String {
    String(cString: sqlite3_column_name(self.handle, Int32(index)))
  }

  package func isNull(_ index: Int) -> Bool {
    sqlite3_column_type(self.handle, Int32(index)) == SQLITE_NULL
  }

  package func int64(_ index: Int) -> Int64 {
    sqlite3_column_int64(self.handle, Int32(index))
  }

  /// The text in column `index`, whole: a NUL in it is kept, not the end.
  package func text(_ index: Int) -> String? {
    guard let text = sqlite3_column_text(self.handle, Int32(index)) else { return nil }
    let count = Int(sqlite3_column_bytes(self.handle, Int32(index)))
    return String(decoding: UnsafeRawBufferPointer(start: text, count: count), as: UTF8.self)
  }

  /// The integer in column `index`. Anything else (text, a real number, a blob, NULL) where a
  /// trace holds an integer is a damaged or foreign file, not a zero.
  package func integer(_ index: Int) throws(TraceFileError) -> Int64 {
    guard sqlite3_column_type(self.handle, Int32(index)) == SQLITE_INTEGER else {
      throw self.wrongType(index, expected: "an integer")
    }
    return sqlite3_column_int64(self.handle, Int32(index))
  }

  /// The integer in column `index`, or `nil` for NULL; see ``integer(_:)``.
  package func optionalInteger(_ index: Int) throws(TraceFileError) -> Int64? {
    switch sqlite3_column_type(self.handle, Int32(index)) {
    case SQLITE_INTEGER: return sqlite3_column_int64(self.handle, Int32(index))
    case SQLITE_NULL: return nil
    default: throw self.wrongType(index, expected: "an integer")
    }
  }

  /// The text in column `index`. Anything else where a trace holds text is a damaged or
  /// foreign file.
  package func string(_ index: Int) throws(TraceFileError) -> String {
    guard sqlite3_column_type(self.handle, Int32(index)) == SQLITE_TEXT, let text = self.text(index)
    else { throw self.wrongType(index, expected: "text") }
    return text
  }

  /// The text in column `index`, as ``string(_:)``; `previous` itself when the text is the
  /// same, compared byte for byte: a column that repeats itself row after row is made into a
  /// `String` once.
  package func string(_ index: Int, sameAs previous: String?) throws(TraceFileError) -> String {
    guard let previous, let bytes = self.textBytesIfText(index) else {
      return try self.string(index)
    }
    return previous.hasUTF8(bytes) ? previous : try self.string(index)
  }

  /// The bytes of the text in column `index`, where SQLite holds them, as ``textBytes(_:)``
  /// reads them; `nil` when it is not text.
  package func textBytesIfText(_ index: Int) -> UnsafeRawBufferPointer? {
    guard sqlite3_column_type(self.handle, Int32(index)) == SQLITE_TEXT,
      let text = sqlite3_column_text(self.handle, Int32(index))
    else { return nil }
    return UnsafeRawBufferPointer(
      start: text, count: Int(sqlite3_column_bytes(self.handle, Int32(index))))
  }

  /// The bytes of the text in column `index`, where SQLite holds them: valid until the
  /// statement steps again, is reset or is finalized. Not checked to be UTF-8. Anything but
  /// text is a damaged or foreign file.
  package func textBytes(_ index: Int) throws(TraceFileError) -> UnsafeBufferPointer<UInt8> {
    guard let bytes = self.textBytesIfText(index) else {
      throw self.wrongType(index, expected: "text")
    }
    return bytes.assumingMemoryBound(to: UInt8.self)
  }

  /// The text in column `index`, or `nil` for NULL; see ``string(_:)``.
  package func optionalString(_ index: Int) throws(TraceFileError) -> String? {
    switch sqlite3_column_type(self.handle, Int32(index)) {
    case SQLITE_TEXT:
      guard let text = self.text(index) else { throw self.wrongType(index, expected: "text") }
      return text
    case SQLITE_NULL: return nil
    default: throw self.wrongType(index, expected: "text")
    }
  }

  /// Which of `names` the text in column `index` is, compared byte for byte without making a
  /// `String` of it; `nil` when it is none of them, or not text.
  package func match(_ index: Int, _ names: [[UInt8]]) -> Int? {
    guard let bytes = self.textBytesIfText(index) else { return nil }
    return names.firstIndex { $0.elementsEqual(bytes) }
  }

  private func wrongType(_ index: Int, expected: String) -> TraceFileError {
    let name = sqlite3_column_name(self.handle, Int32(index)).map { String(cString: $0) } ?? "?"
    let actual =
      switch sqlite3_column_type(self.handle, Int32(index)) {
      case SQLITE_INTEGER: "an integer"
      case SQLITE_FLOAT: "a real number"
      case SQLITE_TEXT: "text"
      case SQLITE_BLOB: "a blob"
      default: "NULL"
      }
    return TraceFileError(
      kind: .corrupt, path: self.connection.path,
      message: "holds \(actual) where '\(name)' must be \(expected)"
    )
  }

  package func value(_ index: Int) -> SQLiteValue {
    switch sqlite3_column_type(self.handle, Int32(index)) {
    case SQLITE_NULL: return .null
    case SQLITE_INTEGER: return .integer(self.int64(index))
    case SQLITE_FLOAT: return .text(String(sqlite3_column_double(self.handle, Int32(index))))
    default: return .text(self.text(index) ?? "")
    }
  }
}

/// A value bound to, or read from, a statement.
package enum SQLiteValue: Equatable {
  case null
  case integer(Int64)
  case text(String)

  package init(_ text: String?) {
    self = text.map(SQLiteValue.text) ?? .null
  }

  package init(_ integer: Int?) {
    self = integer.map { .integer(Int64($0)) } ?? .null
  }
}

private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Room for the short texts a statement binds between two resets: used from the start again
/// at each reset, so that binding a row's texts allocates nothing once the room has grown to a
/// row's size. Texts bound into it stay where they are until the reset: room that runs out is
/// kept until then, and a larger room is made beside it.
private struct BoundTexts {
  /// The longest text kept here, in bytes: the room stays as large as the longest rows it held.
  static let longest = 4096

  private var room: UnsafeMutableRawPointer?
  private var capacity = 0
  private var used = 0
  /// Rooms that ran out since the last reset, whose texts are still bound.
  private var outgrown: [UnsafeMutableRawPointer] = []

  /// Room for `count` bytes, which stay until ``release()``.
  mutating func room(for count: Int) -> UnsafeMutableRawPointer {
    if let room, self.used + count <= self.capacity {
      defer { self.used += count }
      return room + self.used
    }
    if let room { self.outgrown.append(room) }
    let capacity = max(count, self.capacity * 2, 256)
    let room = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
    (self.room, self.capacity, self.used) = (room, capacity, count)
    return room
  }

  /// Ends the texts bound: the next are written from the start of the room.
  mutating func release() {
    for room in self.outgrown { room.deallocate() }
    self.outgrown.removeAll(keepingCapacity: true)
    self.used = 0
  }

  func deallocate() {
    self.room?.deallocate()
    for room in self.outgrown { room.deallocate() }
  }
}

/// Interrupts a step that has run past its connection's deadline.
private func interruptAfterDeadline(_ context: UnsafeMutableRawPointer?) -> Int32 {
  guard let context else { return 0 }
  let connection = Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue()
  guard DispatchTime.now().uptimeNanoseconds > connection.deadline else { return 0 }
  connection.stepTimedOut = true
  return 1
}

extension Double {
  /// `10`, `0.5`: a number of seconds as a person writes it.
  fileprivate var formatted: String {
    self == self.rounded() ? String(Int64(self)) : String(self)
  }
}

extension String {
  /// Whether this string's UTF-8 is `bytes`: compared as memory, when the string's are.
  func hasUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let same = self.utf8.withContiguousStorageIfAvailable { utf8 in
      utf8.count == bytes.count
        && (utf8.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, utf8.count) == 0)
    }
    return same ?? self.utf8.elementsEqual(bytes)
  }
}

extension StringProtocol {
  /// The text without the white space and line breaks at its start and end.
  package var trimmed: SubSequence {
    let start = self.firstIndex { !$0.isWhitespace } ?? self.endIndex
    let end = self[start...].lastIndex { !$0.isWhitespace }.map(self.index(after:)) ?? start
    return self[start..<end]
  }
}
