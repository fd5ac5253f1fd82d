import CSQLite
import CustomDump
import Foundation
import TestSupport
import Testing

/// Every way a file can be wrong: each command says what is wrong on one line, exits with 2,
/// and leaves the file as it was, with nothing beside it.
@Suite(.timeLimit(.minutes(2)))
struct BadInputTests {
  let trace: RecordedTrace

  init() async throws {
    self.trace = try await RecordedTrace()
  }

  /// Makes a bad input in the trace's directory; returns its name.
  private func make(_ name: String, _ write: (String) throws -> Void) throws -> String {
    try write(self.trace.directory.path(name))
    return name
  }

  /// Runs each reading command on `file` and checks the error.
  private func expectError(
    _ file: String, _ message: String, commands: [[String]] = [["sessions"], ["replay"], ["leaks"], ["stats"], ["sql", "SELECT 1"]],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let path = self.trace.directory.path(file)
    let url = URL(fileURLWithPath: path)
    let before = FileManager.default.fileExists(atPath: path) ? try? Data(contentsOf: url) : nil
    for command in commands {
      let arguments = [command[0], file] + command.dropFirst()
      let filesBefore = try FileManager.default.contentsOfDirectory(atPath: self.trace.directory.url.path).sorted()
      let result = try await Product.tcatrace.run(arguments, in: self.trace.directory.url)
      #expect(result.status == 2, "\(arguments)", sourceLocation: sourceLocation)
      #expect(result.stdout.isEmpty, "\(arguments)", sourceLocation: sourceLocation)
      #expect(result.stderr == "Error: \(message)\n", sourceLocation: sourceLocation)
      #expect(
        (FileManager.default.fileExists(atPath: path) ? try? Data(contentsOf: url) : nil) == before,
        "\(arguments) changed the file", sourceLocation: sourceLocation
      )
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: self.trace.directory.url.path).sorted() == filesBefore,
        "\(arguments) left files beside it", sourceLocation: sourceLocation
      )
    }
  }

  @Test func aMissingFile() async throws {
    try await self.expectError("missing.db", "'missing.db' does not exist: check the path")
  }

  @Test func aDirectory() async throws {
    let name = try self.make("folder.db") { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false) }
    try await self.expectError(name, "'folder.db' is a directory, not a trace file")
  }

  @Test func anEmptyFile() async throws {
    let name = try self.make("empty.db") { try Data().write(to: URL(fileURLWithPath: $0)) }
    try await self.expectError(
      name, "'empty.db' is empty, so it is not a trace: a recorder writes its header when it opens the file"
    )
  }

  @Test func aFileThatIsNotSQLite() async throws {
    let name = try self.make("notes.db") { try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: $0)) }
    try await self.expectError(name, "'notes.db' is not a SQLite database, so it cannot be a TCATrace file")
  }

  @Test func aSQLiteFileThatIsNotATrace() async throws {
    let name = try self.make("other.db") { path in
      var db: OpaquePointer?
      sqlite3_open(path, &db)
      sqlite3_exec(db, "CREATE TABLE people (name TEXT)", nil, nil, nil)
      sqlite3_close(db)
    }
    try await self.expectError(name, "'other.db' is a SQLite database but not a TCATrace file (no trace header)")
  }

  @Test func aTraceWithANewerSchema() async throws {
    let name = try self.make("newer.db") { path in
      var bytes = try Data(contentsOf: URL(fileURLWithPath: self.trace.path))
      bytes[63] = 7  // PRAGMA user_version lives in header bytes 60–63, big-endian.
      try bytes.write(to: URL(fileURLWithPath: path))
    }
    try await self.expectError(
      name,
      "'newer.db' was written by a newer TCATrace (schema version 7; this one reads up to 1): update tcatrace to read it"
    )
  }

  @Test func aTruncatedTrace() async throws {
    let name = try self.make("truncated.db") { path in
      let bytes = try Data(contentsOf: URL(fileURLWithPath: self.trace.path))
      try bytes.prefix(bytes.count * 3 / 4).write(to: URL(fileURLWithPath: path))
    }
    try await self.expectError(
      name,
      "SQLite error 11: database disk image is malformed - while reading 'truncated.db': the file is damaged (truncated or overwritten); record it again",
      commands: [["replay"], ["stats"]]
    )
  }

  @Test func aTraceCutInsideItsHeader() async throws {
    let name = try self.make("cut.db") { path in
      try Data(contentsOf: URL(fileURLWithPath: self.trace.path)).prefix(100).write(to: URL(fileURLWithPath: path))
    }
    try await self.expectError(
      name,
      "SQLite error 11: database disk image is malformed - while reading 'cut.db': the file is damaged (truncated or overwritten); record it again"
    )
  }

  @Test func anUnknownSession() async throws {
    for command in ["replay", "leaks", "stats"] {
      let result = try await self.trace.run([command, "FILE", "--session", "9"])
      #expect(result.status == 2)
      expectNoDifference(
        result.stderr,
        "Error: '\(self.trace.path)' has no session 9: 'tcatrace sessions \(self.trace.path)' lists them\n"
      )
    }
    let malformed = try await self.trace.run(["replay", "FILE", "--session", "first"])
    #expect(malformed.status == 2)
    #expect(malformed.stderr.hasPrefix("Error: The value 'first' is invalid for '--session <id|latest|all>'"))
  }

  @Test func anUnknownCategory() async throws {
    let result = try await self.trace.run(["replay", "FILE", "--category", "view,views"])
    #expect(result.status == 2)
    expectNoDifference(
      result.stderr,
      "Error: unknown category 'views': use view, internal, delegate or unclassified, comma-separated; see 'tcatrace replay --help'.\n"
    )
  }

  @Test func badSQL() async throws {
    let cases = [
      ("SELEC 1", "SQLite error 1: near \"SELEC\": syntax error - while reading '\(self.trace.path)': check the query"),
      ("SELECT nope FROM actions", "SQLite error 1: no such column: nope - while reading '\(self.trace.path)': check the query"),
      ("DELETE FROM actions", "tcatrace sql runs read-only queries, and this one would change '\(self.trace.path)' (attempt to write a readonly database): use SELECT"),
      ("DROP TABLE leaks", "tcatrace sql runs read-only queries, and this one would change '\(self.trace.path)' (attempt to write a readonly database): use SELECT"),
      ("ATTACH DATABASE 'other.db' AS other", "tcatrace sql cannot attach other databases: query '\(self.trace.path)' alone"),
    ]
    for (query, message) in cases {
      let result = try await self.trace.run(["sql", "FILE", query])
      #expect(result.status == 2, "\(query)")
      #expect(result.stdout.isEmpty)
      expectNoDifference(result.stderr, "Error: \(message)\n")
    }
  }
}
