internal import CSQLite

/// A value in a query's result.
public enum TraceValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  /// A blob, as its bytes.
  case blob([UInt8])
}

/// The result of a SQL query on a trace: column names and rows.
public struct TraceQueryResult: Equatable, Sendable {
  public var columns: [String]
  public var rows: [[TraceValue]]

  public init(columns: [String], rows: [[TraceValue]]) {
    self.columns = columns
    self.rows = rows
  }
}

extension TraceReader {
  /// Runs `sql` on the trace, read-only, and returns its rows.
  ///
  /// ```swift
  /// try reader.query("SELECT feature, count(*) FROM actions GROUP BY 1")
  /// ```
  ///
  /// The connection cannot write, attach other databases, or load extensions: a statement
  /// that tries fails with a `TraceFileError`, and the file is unchanged. A query may call
  /// SQLite's built-in functions that compute values (not `fts3_tokenizer` or
  /// `load_extension`, which reach outside it) and run read-only pragmas (`PRAGMA
  /// table_info(actions)`, not `PRAGMA journal_mode = DELETE`); the file's views are held to
  /// the same. Anything else fails, naming what was refused.
  public func query(_ sql: String) throws(TraceFileError) -> TraceQueryResult {
    let authorizer = QueryAuthorizer()
    do {
      return try authorizer.authorizing(self.connection.handle) { () throws(TraceFileError) in
        try self.run(sql)
      }
    } catch {
      // NB: SQLite reports a refused function as error 1, a refused pragma as 23 (SQLITE_AUTH).
      guard let refusal = authorizer.refusal else { throw error }
      throw TraceFileError(
        kind: .sqlite, path: error.path, sqliteCode: SQLITE_AUTH,
        message: "\(refusal) is not allowed: a query reads the trace, with SQLite's built-in functions and read-only pragmas",
        sql: sql
      )
    }
  }

  private func run(_ sql: String) throws(TraceFileError) -> TraceQueryResult {
    let statement = try self.connection.prepare(sql)
    var result = TraceQueryResult(
      columns: (0..<statement.columnCount).map(statement.columnName), rows: []
    )
    while try statement.step() {
      result.rows.append(
        (0..<statement.columnCount).map { index in
          let column = Int32(index)
          switch sqlite3_column_type(statement.handle, column) {
          case SQLITE_NULL: return .null
          case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement.handle, column))
          case SQLITE_FLOAT: return .real(sqlite3_column_double(statement.handle, column))
          case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement.handle, column))
            guard let bytes = sqlite3_column_blob(statement.handle, column), count > 0 else {
              return .blob([])
            }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
          default: return .text(statement.text(index) ?? "")
          }
        }
      )
    }
    return result
  }
}
