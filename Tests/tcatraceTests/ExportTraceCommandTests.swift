import Foundation
import TestSupport
import Testing

/// Issue #73: `tcatrace export FILE --format trace` writes a session (or its last stretch) as a
/// trace of its own, for a bug report, which every command reads.
@Suite(.hangGuard)
struct ExportTraceCommandTests {
  let trace: RecordedTrace
  /// Where exported traces go.
  let output: TemporaryDirectory

  init() async throws {
    self.trace = try await RecordedTrace()
    self.output = try TemporaryDirectory()
  }

  /// What `tcatrace ARGUMENTS` prints as JSON: one document, or one per line for `jsonl`; each
  /// object without its `session` member, which differs between a trace and its export.
  private func json(
    _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> [NSDictionary] {
    let result = try await Product.tcatrace.run(arguments, in: self.output.url)
    #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
    return try jsonObjectsWithoutSession(
      result.stdout, lines: arguments.contains("jsonl"), sourceLocation: sourceLocation)
  }

  /// The actions of session 1 of the demo, as `replay --format jsonl` prints them.
  private func demoActions() async throws -> [NSDictionary] {
    try await self.json(["replay", self.trace.path, "--session", "1", "--format", "jsonl"])
  }

  @Test func aSessionBecomesATraceOfItsOwnThatSaysWhereItCameFrom() async throws {
    let result = try await self.trace.run(
      [
        "export", "FILE", "--format", "trace", "--session", "1", "--out",
        self.output.path("bug.db"),
      ]
    )
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    let actions = try await self.demoActions()
    #expect(
      result.stdout
        == "Exported 1 session (\(actions.count) actions) to '\(self.output.path("bug.db"))'.\n")
    // A file of its own: no journal or WAL beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: self.output.url.path) == ["bug.db"])

    let sessions = try await self.json(["sessions", "bug.db", "--format", "json"])
    #expect(sessions.count == 1)
    #expect(
      sessions.first?["source"] as? NSDictionary
        == ["file": self.trace.path, "session_id": 1] as NSDictionary)
    #expect(sessions.first?["trimmed_actions"] as? Int == 0)
    #expect(try await self.json(["replay", "bug.db", "--format", "jsonl"]) == actions)
    for step in ["0", "5", String(actions.count)] {
      #expect(
        try await self.json(["state", "bug.db", "--at", step, "--format", "json"])
          == self.json(
            ["state", self.trace.path, "--session", "1", "--at", step, "--format", "json"]),
        "state after #\(step)")
    }
  }

  @Test func theLastStretchKeepsItsActionsAndTheStateBeforeThem() async throws {
    let actions = try await self.demoActions()
    let times = actions.map { ($0["time_ns"] as? Int ?? 0, $0["duration_ns"] as? Int ?? 0) }
    let end = try #require(times.map { $0.0 + $0.1 }.max())
    // The actions that began in the last 5 ms, from the end of the last one.
    let firstKept = try #require(times.firstIndex { $0.0 >= end - 5_000_000 }) + 1
    let trimmed = firstKept - 1
    try #require(trimmed > 0, "the demo's session is shorter than 5 ms")

    let result = try await self.trace.run(
      [
        "export", "FILE", "--format", "trace", "--session", "1", "--last", "5ms", "--out",
        self.output.path("last.db"),
      ]
    )
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout
        == "Exported 1 session (\(actions.count - trimmed) actions; \(trimmed) before them trimmed by --last) to '\(self.output.path("last.db"))'.\n"
    )
    let listed = try await self.json(["sessions", "last.db", "--format", "json"])
    let session = try #require(listed.first)
    #expect(session["trimmed_actions"] as? Int == trimmed)
    // Issue #75: the count of fallbacks covers the session as recorded.
    #expect(session["backlog_fallbacks"] as? Int == 0)
    #expect(session["actions"] as? Int == actions.count - trimmed)
    #expect(
      try await self.json(["replay", "last.db", "--format", "jsonl"])
        == Array(actions[trimmed...]))
    // The state after every action left, and before the first of them, is the recording's.
    for step in trimmed...actions.count {
      #expect(
        try await self.json(["state", "last.db", "--at", String(step), "--format", "json"])
          == self.json(
            ["state", self.trace.path, "--session", "1", "--at", String(step), "--format", "json"]
          ),
        "state after #\(step)")
    }
    // Before it, there is none, and the command says why.
    let before = try await Product.tcatrace.run(
      ["state", "last.db", "--at", String(trimmed - 1)], in: self.output.url)
    #expect(before.status == 2)
    #expect(before.stdout.isEmpty)
    #expect(
      before.stderr.hasPrefix("Error: ") && before.stderr.contains("trimmed")
        && before.stderr.filter { $0 == "\n" }.count == 1, "\(before.stderr)")
    // `sessions` counts them.
    let listing = try await Product.tcatrace.run(["sessions", "last.db"], in: self.output.url)
    #expect(listing.stdout.contains("TRIMMED"), "\(listing.stdout)")
    // The test of what is left starts from the state kept, and says so.
    let test = try await Product.tcatrace.run(
      ["test", "last.db", "--name", "lastStretch"], in: self.output.url)
    #expect(test.status == 0, "\(test.stderr)")
    #expect(
      test.stdout.contains(
        "// The session's actions through #\(trimmed) were trimmed (an export of its last part): the"
      ), "\(test.stdout)")
  }

  @Test func whatCannotBeExportedAsATraceIsSaidOnOneLine() async throws {
    let existing = self.output.path("existing.db")
    try Data("mine".utf8).write(to: URL(fileURLWithPath: existing))
    let cases: [([String], String)] = [
      (
        ["--format", "trace", "--out", existing],
        "Error: '\(existing)' exists: export writes a new trace; give a path where there is no file\n"
      ),
      (
        ["--format", "trace", "--session", "9", "--out", self.output.path("nine.db")],
        "has no session 9"
      ),
      (["--format", "trace"], "--format trace writes a trace file: give its path with --out"),
      (["--format", "perfetto", "--last", "5m"], "--last keeps part of a session in a trace"),
      (
        ["--format", "trace", "--last", "soon", "--out", self.output.path("soon.db")],
        "--last"
      ),
    ]
    for (arguments, message) in cases {
      let result = try await self.trace.run(["export", "FILE"] + arguments)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(arguments)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    // Nothing was written, and the file that was there is as it was.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: self.output.url.path) == ["existing.db"])
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "mine")
  }
}
