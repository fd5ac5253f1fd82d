import CSQLite
import Testing
import TestSupport

@Suite(.hangGuard)
struct CSQLiteTests {
  @Test func opensAnInMemoryDatabaseAndQueriesIt() throws {
    var db: OpaquePointer?
    let openResult = sqlite3_open_v2(
      ":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
    defer { sqlite3_close(db) }
    #expect(openResult == SQLITE_OK)

    var statement: OpaquePointer?
    #expect(
      sqlite3_prepare_v2(db, "SELECT sqlite_version(), 6 * 7", -1, &statement, nil) == SQLITE_OK)
    defer { sqlite3_finalize(statement) }
    #expect(sqlite3_step(statement) == SQLITE_ROW)
    let version = String(cString: sqlite3_column_text(statement, 0))
    #expect(version == String(cString: sqlite3_libversion()))
    #expect(sqlite3_column_int(statement, 1) == 42)
  }

  @Test func libraryIsRecentEnoughForTheTraceFile() {
    // 3.31 added SQLITE_DBCONFIG_TRUSTED_SCHEMA; Debian bookworm ships 3.40.
    #expect(sqlite3_libversion_number() >= 3_031_000)
  }

  @Test func shimsTurnOnDefensiveModeAndDistrustTheSchema() throws {
    var db: OpaquePointer?
    #expect(sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
    defer { sqlite3_close(db) }
    #expect(csqlite_enable_defensive(db) == SQLITE_OK)
    #expect(csqlite_disable_trusted_schema(db) == SQLITE_OK)
    // Defensive mode refuses to make the schema writable.
    #expect(sqlite3_exec(db, "PRAGMA writable_schema = ON", nil, nil, nil) == SQLITE_OK)
    let write = sqlite3_exec(
      db, "CREATE TABLE t(x); UPDATE sqlite_master SET sql = 'x' WHERE name = 't'", nil, nil, nil
    )
    #expect(write != SQLITE_OK)
  }
}
