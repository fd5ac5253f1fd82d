@testable import TCATraceFile
import TestSupport
import Testing

/// The memory limit the programs set on SQLite before they read a file from someone else: SQLite
/// enforces it only while it counts what it allocates (issue #69: a build of SQLite may not
/// count by default, as Apple's is reported not to).
///
/// NB: Debian's SQLite counts by default, and this process has used SQLite before this test:
/// here it shows the limit set and counted, not the statistics turned on, which only the
/// first SQLite call of a process can do (as `limitMemory` is in the programs).
@Suite(.hangGuard)
struct MemoryLimitTests {
  @Test func theLimitIsSetAndSQLiteCountsWhatItAllocates() throws {
    defer { SQLiteConnection.limitMemory(toBytes: 0) }
    SQLiteConnection.limitMemory(toBytes: 1024 * 1_048_576)
    #expect(SQLiteConnection.memoryLimit == 1024 * 1_048_576)
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.db")
    try HandWrittenTrace.write(to: path)
    let reader = try TraceReader(path: path)
    #expect(try reader.sessions().count == 1)
    #expect(SQLiteConnection.isMemoryLimitEnforced)
  }
}
