import CSQLite
import CustomDump
import Foundation
import TCATraceFile
import TestSupport
import Testing

/// Issue #45: `tcatrace merge OUT FILE…` collects the sessions of many traces into one, each
/// keeping where it came from, and never changes its inputs.
@Suite(.hangGuard)
struct MergeCommandTests {
  let demo: RecordedTrace
  /// The demo recorded again without redactions, in a folder of its own.
  let other: RecordedTrace
  /// Where merged traces go.
  let output: TemporaryDirectory

  init() async throws {
    self.demo = try await RecordedTrace()
    self.other = try await RecordedTrace(fixture: "record-demo-unredacted", name: "other.db")
    self.output = try TemporaryDirectory()
  }

  /// Runs `tcatrace` in the output folder, and checks that the inputs and their folders are as
  /// they were.
  private func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation)
    async throws -> Product.Result
  {
    let traces = [self.demo, self.other]
    let before = try traces.map { try Data(contentsOf: URL(fileURLWithPath: $0.path)) }
    let listings = try traces.map {
      try FileManager.default.contentsOfDirectory(atPath: $0.directory.url.path).sorted()
    }
    let result = try await Product.tcatrace.run(arguments, in: self.output.url)
    #expect(
      try traces.map { try Data(contentsOf: URL(fileURLWithPath: $0.path)) } == before,
      "an input changed", sourceLocation: sourceLocation)
    #expect(
      try traces.map {
        try FileManager.default.contentsOfDirectory(atPath: $0.directory.url.path).sorted()
      } == listings,
      "files appeared beside an input", sourceLocation: sourceLocation
    )
    return result
  }

  /// What `tcatrace ARGUMENTS` prints as JSON, each object without its `session` member.
  private func json(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation)
    async throws -> [NSDictionary]
  {
    let result = try await Product.tcatrace.run(arguments, in: self.output.url)
    #expect(
      result.status == 0 || result.status == 1, "\(arguments): \(result.stderr)",
      sourceLocation: sourceLocation)
    return try jsonObjectsWithoutSession(
      result.stdout, lines: arguments.contains("jsonl"), sourceLocation: sourceLocation)
  }

  private func sessions(_ path: String) async throws -> [[String: Any]] {
    let result = try await Product.tcatrace.run(["sessions", path, "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
  }

  @Test func twoTracesMergeIntoOneWithEverySessionAsItWas() async throws {
    // NB: Counts of fallbacks, which the demo's recorder did not need, as a burst leaves them.
    try SQLiteConnection(path: self.other.path, mode: .readWrite).execute(
      "UPDATE sessions SET backlog_fallbacks = 40 + id")
    let result = try await self.run(["merge", "fleet.db", self.demo.path, self.other.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    let inputs = [
      (self.demo.path, try await self.sessions(self.demo.path)),
      (self.other.path, try await self.sessions(self.other.path)),
    ]
    let actions = inputs.flatMap(\.1).map { $0["actions"] as? Int ?? 0 }.reduce(0, +)
    #expect(
      result.stdout == "Merged 4 sessions (\(actions) actions) from 2 files into 'fleet.db'.\n")
    // Only the merged trace, and nothing beside it.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: self.output.url.path) == ["fleet.db"])

    let fleet = self.output.path("fleet.db")
    let merged = try await self.sessions(fleet)
    #expect(merged.map { $0["id"] as? Int } == [1, 2, 3, 4])
    var id = 0
    for (file, sessions) in inputs {
      for session in sessions {
        id += 1
        let copy = merged[id - 1]
        let original = try #require(session["id"] as? Int)
        // Where it came from, and the session as it was but for its id.
        #expect(
          copy["source"] as? NSDictionary == ["file": file, "session_id": original] as NSDictionary)
        for key in [
          "name", "root_feature", "started_at", "ended_at", "duration_ns", "actions", "leaks",
          "dropped_actions", "backlog_fallbacks", "recorder_version",
        ] {
          #expect(copy[key] as? NSObject == session[key] as? NSObject, "session \(id): \(key)")
        }
        // Its actions, changes, leaks and states read the same.
        for command in [
          ["replay", "--format", "jsonl"], ["leaks", "--format", "json"],
          ["state", "--format", "json"],
          ["state", "--at", "3", "--format", "json"],
        ] {
          let fromFile = try await self.json(
            [command[0], file, "--session", String(original)] + command.dropFirst())
          let fromFleet = try await self.json(
            [command[0], fleet, "--session", String(id)] + command.dropFirst())
          #expect(!fromFile.isEmpty || command[0] == "leaks")
          #expect(fromFleet == fromFile, "session \(id): \(command)")
        }
      }
    }
    // A query across the fleet.
    let count = try await Product.tcatrace.run([
      "sql", fleet, "SELECT count(*) FROM actions", "--format", "csv",
    ])
    #expect(count.stdout == "count(*)\n\(actions)\n")
    let leaks = try await Product.tcatrace.run(["leaks", fleet])
    #expect(leaks.status == 1)
    #expect(leaks.stdout.hasSuffix("8 leaks in 2 sessions.\n"))
  }

  @Test func aMergedTraceMergedAgainKeepsWhereItsSessionsWereRecorded() async throws {
    #expect(try await self.run(["merge", "fleet.db", self.demo.path]).status == 0)
    let again = try await self.run(["merge", "again.db", "fleet.db", self.other.path])
    #expect(again.status == 0, "\(again.stderr)")
    let sessions = try await self.sessions(self.output.path("again.db"))
    #expect(
      sessions.map { $0["source"] as? NSDictionary } == [
        ["file": self.demo.path, "session_id": 1], ["file": self.demo.path, "session_id": 2],
        ["file": self.other.path, "session_id": 1], ["file": self.other.path, "session_id": 2],
      ] as [NSDictionary]
    )
    // The text listing says it too, in a column of its own.
    let listing = try await Product.tcatrace.run(["sessions", "again.db"], in: self.output.url)
    let lines = listing.stdout.split(separator: "\n")
    #expect(lines.first?.hasSuffix("LEAKS  FROM") == true)
    #expect(lines.last?.hasSuffix("\(self.other.path) #2") == true)
    // A trace no merge wrote has no such column.
    let plain = try await Product.tcatrace.run(["sessions", self.demo.path])
    #expect(plain.stdout.split(separator: "\n").first?.hasSuffix("LEAKS") == true)
  }

  /// Issue #58: a merged trace and one of the traces it was merged from give each session
  /// once, and the output says which were skipped.
  @Test func aSessionReachedTwiceIsCopiedOnce() async throws {
    #expect(try await self.run(["merge", "fleet.db", self.demo.path, self.other.path]).status == 0)
    let fleet = try await self.sessions(self.output.path("fleet.db"))
    let again = try await self.run(["merge", "again.db", "fleet.db", self.demo.path])
    #expect(again.status == 0, "\(again.stderr)")
    let actions = fleet.map { $0["actions"] as? Int ?? 0 }.reduce(0, +)
    expectNoDifference(
      again.stdout,
      """
      Merged 4 sessions (\(actions) actions) from 2 files into 'again.db'.
      Skipped session 1 of '\(self.demo.path)': it is session 1 of 'again.db' already.
      Skipped session 2 of '\(self.demo.path)': it is session 2 of 'again.db' already.

      """
    )
    let merged = try await self.sessions(self.output.path("again.db"))
    #expect(merged.map { $0["actions"] as? Int } == fleet.map { $0["actions"] as? Int })
    #expect(
      merged.map { $0["source"] as? NSDictionary } == fleet.map { $0["source"] as? NSDictionary })
    // The other way round: the demo's sessions first, then the merged trace's others only.
    let reversed = try await self.run(["merge", "reversed.db", self.demo.path, "fleet.db"])
    #expect(reversed.status == 0, "\(reversed.stderr)")
    #expect(
      reversed.stdout.contains(
        "Skipped session 1 of 'fleet.db': it is session 1 of 'reversed.db' already."))
    #expect(try await self.sessions(self.output.path("reversed.db")).count == 4)
  }

  /// A trace of an older version is copied as a recorder appending to it would bring it to this
  /// one: what its version did not keep stays empty.
  @Test func anOlderTraceIsMerged() async throws {
    let older = try self.demo.copy(named: "older.db", changedBy: RecordedTrace.version1SQL)
    let result = try await Product.tcatrace.run(
      ["merge", "fleet.db", older, self.other.path], in: self.output.url)
    #expect(result.status == 0, "\(result.stderr)")
    let fleet = self.output.path("fleet.db")
    let fromFile = try await self.json(["replay", older, "--session", "1", "--format", "jsonl"])
    let fromFleet = try await self.json(["replay", fleet, "--session", "1", "--format", "jsonl"])
    #expect(fromFleet == fromFile)
    let states = try await Product.tcatrace.run(
      [
        "sql", fleet, "SELECT session_id, count(*) FROM states GROUP BY session_id", "--format",
        "csv",
      ]
    )
    #expect(states.stdout == "session_id,count(*)\n3,1\n4,1\n")
  }

  /// A trace a recorder is writing is read through its WAL, as every command reads it: the
  /// merge gets what was committed when its turn came.
  @Test func aTraceBeingWrittenGivesWhatItHeld() async throws {
    var db: OpaquePointer?
    #expect(sqlite3_open(self.demo.path, &db) == SQLITE_OK)
    defer { sqlite3_close(db) }
    let written = sqlite3_exec(
      db,
      """
      PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
      INSERT INTO sessions (name, root_feature, started_at, recorder_version)
        VALUES ('live', 'AppFeature', '2026-01-02T00:00:00.000Z', '0.1.0');
      """,
      nil, nil, nil
    )
    #expect(written == SQLITE_OK)
    #expect(try Data(contentsOf: URL(fileURLWithPath: self.demo.path + "-wal")).count > 0)
    let result = try await Product.tcatrace.run(
      ["merge", "fleet.db", self.demo.path], in: self.output.url)
    #expect(result.status == 0, "\(result.stderr)")
    let sessions = try await self.sessions(self.output.path("fleet.db"))
    #expect(sessions.map { $0["name"] as? String } == ["app", "leaky", "live"])
    #expect(sessions.last?["ended_at"] is NSNull)
  }

  /// A damaged or hostile input stops the merge with one line saying what is wrong with which
  /// file, and no merged trace appears, even when the files before it were whole.
  @Test func aDamagedInputStopsTheMergeAndWritesNothing() async throws {
    let truncated = self.demo.directory.path("truncated.db")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: self.demo.path))
    try bytes.prefix(bytes.count * 3 / 4).write(to: URL(fileURLWithPath: truncated))
    let cases: [(String, String)] = [
      (
        truncated,
        "SQLite error 11: database disk image is malformed - while reading '\(truncated)': the file is damaged (truncated or overwritten); record it again"
      ),
      (
        try self.demo.copy(named: "orphans.db", changedBy: "DELETE FROM sessions WHERE id = 2"),
        "'\(self.demo.directory.path("orphans.db"))' holds 7 actions of sessions it does not have: the file is damaged (truncated or overwritten); record it again"
      ),
      (
        try self.demo.copy(
          named: "leaks.db", changedBy: "INSERT INTO leaks VALUES (99999, 'r', '', 'd')"),
        "'\(self.demo.directory.path("leaks.db"))' holds 1 leak of actions it does not have: the file is damaged (truncated or overwritten); record it again"
      ),
      (
        try self.demo.copy(
          named: "category.db",
          changedBy:
            "PRAGMA ignore_check_constraints = ON; UPDATE actions SET category = 'secret' WHERE seq = 1"
        ),
        "'\(self.demo.directory.path("category.db"))' cannot be copied (CHECK constraint failed: category = 'view' OR category = 'internal' OR category = 'delegate' OR category = 'unclassified'): the file is damaged (truncated or overwritten); record it again"
      ),
      (
        try self.demo.copy(named: "tables.db", changedBy: "DROP TABLE leaks"),
        "'\(self.demo.directory.path("tables.db"))' has a trace's header but not all of a trace's tables: the file is damaged (truncated or overwritten); record it again"
      ),
    ]
    for (input, message) in cases {
      let before = try Data(contentsOf: URL(fileURLWithPath: input))
      let result = try await self.run(["merge", "fleet.db", self.other.path, input])
      #expect(result.status == 2, "\(input)")
      #expect(result.stdout.isEmpty)
      expectNoDifference(result.stderr, "Error: \(message)\n")
      #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: self.output.url.path).isEmpty,
        "\(input)")
    }
  }

  @Test func whatCannotBeMergedIsSaidOnOneLine() async throws {
    let existing = self.output.path("fleet.db")
    try Data("mine".utf8).write(to: URL(fileURLWithPath: existing))
    let relative =
      self.demo.directory.url.lastPathComponent + "/"
      + URL(fileURLWithPath: self.demo.path).lastPathComponent
    let cases: [([String], String)] = [
      (
        ["fleet.db", self.demo.path],
        "'fleet.db' exists: merge writes a new trace; give a path where there is no file"
      ),
      (
        ["new.db", self.demo.path, self.demo.path],
        "'\(self.demo.path)' is given twice: give each trace once"
      ),
      (
        ["new.db", self.demo.path, "../" + relative],
        "'../\(relative)' and '\(self.demo.path)' are the same trace: give each trace once"
      ),
      (
        ["missing/new.db", self.demo.path],
        "cannot write 'missing/new.db' (No such file or directory): check that its folder exists and can be written"
      ),
      (["new.db", "missing.db"], "'missing.db' does not exist: check the path"),
    ]
    for (arguments, message) in cases {
      let result = try await self.run(["merge"] + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout.isEmpty)
      expectNoDifference(result.stderr, "Error: \(message)\n")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: self.output.url.path) == ["fleet.db"],
        "\(arguments)")
    }
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "mine")
    let noInputs = try await self.run(["merge", "new.db"])
    #expect(noInputs.status == 2)
    #expect(
      noInputs.stderr
        == "Error: Missing expected argument '<file> ...'; see 'tcatrace merge --help'.\n")
  }
}
