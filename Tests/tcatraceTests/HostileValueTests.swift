import CSQLite
import Foundation
import TestSupport
import Testing

/// Values in a trace that no recorder writes but a file may hold: every command reads them
/// without trapping.
@Suite(.hangGuard)
struct HostileValueTests {
  let trace: RecordedTrace

  init() async throws {
    self.trace = try await RecordedTrace()
  }

  private func execute(_ sql: String) {
    var db: OpaquePointer?
    sqlite3_open(self.trace.path, &db)
    #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
    sqlite3_close(db)
  }

  @Test func durationsThatAddUpPastInt64DoNotTrapStats() async throws {
    self.execute(
      "UPDATE actions SET duration_ns = 9223372036854775807 WHERE feature = 'login' AND category = 'view'"
    )
    let result = try await self.trace.run(["stats", "FILE", "--session", "1"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let login = result.stdout.split(separator: "\n").first { $0.hasPrefix("login ") }
    #expect(login?.contains("view            3  12.0%  9223372036.855s  9223372036.855s") == true)
  }
}
