@testable import TCATraceFile
import TestSupport
import Testing

/// The memory limit the programs set on SQLite before they read a file from someone else: SQLite
/// enforces it only while it counts what it allocates (issue #69: a build of SQLite may not
/// count by default, as Apple's is reported not to).
@Suite(.hangGuard)
struct MemoryLimitTests {
  @Test func theLimitIsSetAndSQLiteCountsWhatItAllocates() throws {
    let previous = SQLiteConnection.memoryLimit
    defer { SQLiteConnection.limitMemory(toBytes: previous) }
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
