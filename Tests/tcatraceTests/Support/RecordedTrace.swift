import CSQLite
import Foundation
import Testing
import TestSupport

/// A trace of the demo's two sessions with fixed times, recorded by `tcatrace-fixture`, in a
/// directory of its own.
struct RecordedTrace {
  let directory: TemporaryDirectory
  let path: String

  /// - Parameter redacted: Whether the app's session is recorded with the redactions the
  ///   demo uses (the password and the code). Default: `true`.
  init(redacted: Bool = true) async throws {
    try await self.init(fixture: redacted ? "record-demo" : "record-demo-unredacted")
  }

  /// A trace `tcatrace-fixture COMMAND FILE ARGUMENTS…` records, in `name`.
  init(fixture command: String, _ arguments: [String] = [], name: String = "demo.db") async throws {
    self.directory = try TemporaryDirectory()
    self.path = self.directory.path(name)
    let result = try await Product("tcatrace-fixture").run([command, self.path] + arguments)
    guard result.status == 0 else {
      throw RecordingFailed(output: result.stdout + result.stderr)
    }
  }

  /// Runs `tcatrace` with `arguments` (the file's path is `FILE`) and checks that the run left
  /// the trace's bytes as they were and created nothing beside it.
  func run(_ arguments: [String]) async throws -> Product.Result {
    let before = try Data(contentsOf: URL(fileURLWithPath: self.path))
    let filesBefore = try FileManager.default.contentsOfDirectory(atPath: self.directory.url.path)
      .sorted()
    let result = try await Product.tcatrace.run(
      arguments.map { $0 == "FILE" ? self.path : $0 }, in: self.directory.url
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: self.path)) == before, "the trace changed")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: self.directory.url.path).sorted()
        == filesBefore,
      "files appeared beside the trace"
    )
    return result
  }

  /// Copies the trace beside it as `name`, runs `sql` on the copy, and returns its path.
  func copy(named name: String, changedBy sql: String) throws -> String {
    let path = self.directory.path(name)
    try FileManager.default.copyItem(atPath: self.path, toPath: path)
    var db: OpaquePointer?
    defer { sqlite3_close(db) }
    guard sqlite3_open(path, &db) == SQLITE_OK, sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK
    else {
      throw SQLFailed(message: String(cString: sqlite3_errmsg(db)))
    }
    return path
  }

  /// What turns a trace into one schema version 1 wrote: no states, no `rebuild`.
  static let version1SQL =
    "DROP TABLE states; ALTER TABLE state_changes DROP COLUMN rebuild; PRAGMA user_version = 1;"

  struct RecordingFailed: Error {
    var output: String
  }

  struct SQLFailed: Error {
    var message: String
  }
}
