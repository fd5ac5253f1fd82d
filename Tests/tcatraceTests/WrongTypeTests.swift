import CSQLite
import CustomDump
import Foundation
import TestSupport
import Testing

/// Issue #20, item 6: a value of the wrong type where a trace holds an integer or text is a
/// damaged or foreign file (exit 2), not a zero; text is read whole; actions out of order or a
/// leak of a missing action are damage, not output.
@Suite(.hangGuard)
struct WrongTypeTests {
  let trace: RecordedTrace

  init() async throws {
    self.trace = try await RecordedTrace()
  }

  /// A copy of the trace changed by `sql`; returns its name.
  private func damaged(_ name: String, _ sql: String) throws -> String {
    let path = self.trace.directory.path(name)
    try FileManager.default.copyItem(atPath: self.trace.path, toPath: path)
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK else { throw Failed() }
    defer { sqlite3_close(db) }
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw Failed() }
    return name
  }

  struct Failed: Error {}

  private func expectDamaged(
    _ file: String, _ command: [String], _ message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let result = try await Product.tcatrace.run(
      [command[0], file] + command.dropFirst(), in: self.trace.directory.url
    )
    #expect(result.status == 2, "\(command)", sourceLocation: sourceLocation)
    #expect(
      result.stderr
        == "Error: '\(file)' \(message): the file is damaged (truncated or overwritten); record it again\n",
      sourceLocation: sourceLocation
    )
  }

  @Test func valuesOfTheWrongTypeAreDamage() async throws {
    let text = try self.damaged("text-time.db", "UPDATE actions SET time_ns = 'soon' WHERE seq = 3")
    try await self.expectDamaged(text, ["replay"], "holds text where 'time_ns' must be an integer")
    let blobDuration = try self.damaged(
      "blob-duration.db", "UPDATE actions SET duration_ns = x'01' WHERE seq = 2")
    try await self.expectDamaged(
      blobDuration, ["stats"], "holds a blob where 'duration_ns' must be an integer")
    let real = try self.damaged("real-dropped.db", "UPDATE sessions SET dropped_actions = 1.5")
    try await self.expectDamaged(
      real, ["sessions"], "holds a real number where 'dropped_actions' must be an integer")
    let fallbacks = try self.damaged(
      "text-fallbacks.db", "UPDATE sessions SET backlog_fallbacks = 'many'")
    try await self.expectDamaged(
      fallbacks, ["sessions"], "holds text where 'backlog_fallbacks' must be an integer")
    let blob = try self.damaged("blob-name.db", "UPDATE sessions SET name = x'00ff'")
    try await self.expectDamaged(blob, ["sessions"], "holds a blob where 'name' must be text")
  }

  @Test func actionsOutOfOrderAreDamage() async throws {
    let file = try self.damaged(
      "out-of-order.db", "UPDATE actions SET seq = 1002 WHERE session_id = 1 AND seq = 2"
    )
    try await self.expectDamaged(
      file, ["replay"], "holds action #3 of session 1 after action #1002")
  }

  @Test func aLeakOfAMissingActionIsDamage() async throws {
    let file = try self.damaged(
      "text-action-id.db", "UPDATE leaks SET action_id = CAST(action_id AS TEXT) || 'x'"
    )
    try await self.expectDamaged(file, ["leaks"], "holds 4 leaks of actions it does not have")
  }

  @Test func textIsReadWhole() async throws {
    let file = try self.damaged(
      "nul.db",
      "UPDATE actions SET payload = 'before' || char(0) || 'after' WHERE session_id = 1 AND seq = 1"
    )
    let result = try await Product.tcatrace.run(
      ["replay", file, "--to", "1", "--session", "1"], in: self.trace.directory.url
    )
    #expect(result.status == 0)
    #expect(result.stdout.contains(#"before\u{0}after"#))
  }
}
