internal import CSQLite

/// Why a trace file could not be opened, read or written.
///
/// Its description is one line that says what is wrong and, where it helps, what to do:
///
/// ```
/// 'x.db' is not a TCATrace file: it is a SQLite database without a trace's tables
/// SQLite error 11: database disk image is malformed - while reading 'x.db'
/// ```
public struct TraceFileError: Error, Equatable, CustomStringConvertible, Sendable {
  /// What went wrong.
  public enum Kind: Equatable, Sendable {
    /// No file at the path.
    case notFound
    /// The path is a directory.
    case isDirectory
    /// The file exists but is not a SQLite database.
    case notSQLite
    /// A SQLite database that is not a trace file.
    case notATrace
    /// A trace file written by a newer TCATrace, with this schema version.
    case newerSchema(Int)
    /// The file is damaged: truncated or overwritten.
    case corrupt
    /// A SQL statement failed: a bad query, or a failure to read or write.
    case sqlite
    /// The file cannot be written: no permission, or a read-only file system.
    case notWritable
    /// A read asked for something the file does not hold (a session id, say).
    case notInFile
    /// The file was written while it was read (a recorder began appending to it), so what was
    /// read may be torn; reading it again gives a whole picture.
    case changedWhileReading
  }

  public var kind: Kind
  /// The file the error is about.
  public var path: String
  /// The SQLite result code, for errors SQLite reported.
  public var sqliteCode: Int32?
  /// The error in words, without the path.
  public var message: String
  /// The SQL that failed, if any. Bound values are never included.
  public var sql: String?

  /// Whether the error happened while writing the file (recording) rather than reading it.
  public var isWriting: Bool

  /// The session asked for, when the file has no session with that id.
  package var missingSession: Int64?

  public init(
    kind: Kind, path: String, sqliteCode: Int32? = nil, message: String, sql: String? = nil,
    isWriting: Bool = false
  ) {
    self.kind = kind
    self.path = path
    self.sqliteCode = sqliteCode
    self.message = message
    self.sql = sql
    self.isWriting = isWriting
  }

  public var description: String {
    if let sqliteCode, self.kind == .sqlite || self.kind == .corrupt {
      let operation = self.isWriting ? "writing" : "reading"
      return "SQLite error \(sqliteCode): \(self.message) - while \(operation) '\(self.path)'"
    }
    return "'\(self.path)' \(self.message)"
  }
}

extension TraceFileError {
  /// The file has no session `id`.
  package init(noSession id: Int64, path: String) {
    self.init(kind: .notInFile, path: path, message: "has no session \(id)")
    self.missingSession = id
  }
}

extension TraceFileError {
  /// An error from a SQLite result code on `db`.
  package init(
    code: Int32, db: OpaquePointer?, path: String, sql: String? = nil, isWriting: Bool = false
  ) {
    let message =
      db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
      ?? String(cString: sqlite3_errstr(code))
    let kind: Kind
    switch code & 0xFF {
    case SQLITE_NOTADB: kind = .notSQLite
    case SQLITE_CORRUPT: kind = .corrupt
    case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN: kind = .notWritable
    default: kind = .sqlite
    }
    if kind == .notSQLite {
      self.init(
        kind: kind, path: path, sqliteCode: code,
        message: "is not a SQLite database, so it cannot be a TCATrace file", sql: sql,
        isWriting: isWriting
      )
    } else {
      self.init(
        kind: kind, path: path, sqliteCode: code, message: message, sql: sql, isWriting: isWriting
      )
    }
  }
}

extension TraceFileError {
  /// Whether another connection held a lock the operation needed (`SQLITE_BUSY`): trying
  /// again later may succeed.
  package var isBusy: Bool {
    self.sqliteCode.map { $0 & 0xFF == SQLITE_BUSY } ?? false
  }
}

extension TraceFileError {
  /// The error on one line, with what to do about it.
  package var cliDescription: String {
    switch self.kind {
    case .corrupt:
      "\(self.description): the file is damaged (truncated or overwritten); record it again"
    case .sqlite where self.sqliteCode.map({ $0 & 0xFF }) == SQLITE_NOMEM:
      """
      \(self.description): reading needed more than the \(SQLiteConnection.memoryLimit / 1_048_576) MB \
      of memory SQLite may use; if the file or query is only large, raise the limit with \
      --memory-limit MB
      """
    case .sqlite where self.sqliteCode == SQLITE_INTERRUPT:
      "\(self.description): if the file is only large, raise the limit with --time-limit SECONDS"
    case .notInFile where self.missingSession != nil:
      "\(self.description): 'tcatrace sessions \(self.path)' lists them"
    case .sqlite where self.sql != nil:
      "\(self.description)"
    default:
      self.description
    }
  }
}
