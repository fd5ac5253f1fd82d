import CSQLite

/// Runs `sql` on the SQLite file at `path`, creating it if needed: for making files the tests
/// feed to readers and recorders.
func makeSQLiteFile(_ path: String, sql: String) throws {
  var db: OpaquePointer?
  defer { sqlite3_close(db) }
  guard sqlite3_open(path, &db) == SQLITE_OK else {
    throw SQLiteFileError(message: String(cString: sqlite3_errmsg(db)))
  }
  guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
    throw SQLiteFileError(message: String(cString: sqlite3_errmsg(db)))
  }
}

struct SQLiteFileError: Error {
  var message: String
}
