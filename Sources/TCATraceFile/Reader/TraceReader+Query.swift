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
    var result = TraceQueryResult(columns: [], rows: [])
    do {
      try self.query(sql) {
        result.columns = $0
      } row: {
        result.rows.append($0)
      }
    } catch let error as TraceFileError {
      throw error
    } catch {
      fatalError("unreachable: the closures above do not throw")
    }
    return result
  }

  /// Runs `sql` as ``query(_:)`` does, handing over the column names, then each row as it is
  /// read, without keeping them: a result of any size streams.
  ///
  /// ```swift
  /// try reader.query("SELECT seq, payload FROM actions") { columns in
  ///   print(columns)
  /// } row: { values in
  ///   print(values)
  /// }
  /// ```
  ///
  /// - Throws: A `TraceFileError` for the query, or what `columns` or `row` throw, which ends
  ///   the query.
  public func query(
    _ sql: String,
    columns: ([String]) throws -> Void,
    row: ([TraceValue]) throws -> Void
  ) throws {
    let authorizer = QueryAuthorizer()
    do {
      try authorizer.authorizing(self.connection.handle) {
        try self.run(sql, columns: columns, row: row)
      }
    } catch let error as TraceFileError {
      // NB: SQLite reports a refused function as error 1, a refused pragma as 23 (SQLITE_AUTH).
      guard let refusal = authorizer.refusal else { throw error }
      throw TraceFileError(
        kind: .sqlite, path: error.path, sqliteCode: SQLITE_AUTH,
        message:
          "\(refusal) is not allowed: a query reads the trace, with SQLite's built-in functions and read-only pragmas",
        sql: sql
      )
    }
  }

  private func run(
    _ sql: String, columns: ([String]) throws -> Void, row: ([TraceValue]) throws -> Void
  ) throws {
    let statement = try self.connection.prepareSingle(sql)
    let count = statement.columnCount
    try columns((0..<count).map(statement.columnName))
    while try statement.step() {
      try row(
        (0..<count).map { index in
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
  }
}
