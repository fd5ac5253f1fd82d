import CustomDump
import Foundation
import TestSupport
import Testing

/// Issue #19: `tcatrace diff` aligns two recordings of the same flow and says where they first
/// differ.
@Suite(.hangGuard)
struct DiffCommandTests {
  /// Two runs of the demo with different seeds: another user logs in.
  @Test func twoDemoRunsWithDifferentSeeds() async throws {
    let directory = try TemporaryDirectory()
    try await recordDemoRuns(seeds: [1, 2], in: directory)
    let result = try await Product.tcatrace.run(
      ["diff", "seed1.db", "seed2.db", "--session", "1"], in: directory.url)
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(lines[0].hasPrefix("seed1.db session 1 (demo app (seed 1), "))
    #expect(lines[0].hasSuffix(" actions) differ."))
    expectNoDifference(
      Array(lines[1...8]),
      [
        "",
        "The first difference: the same action, which did something else",
        #"  − seed1.db #1 view login emailChanged  "blob@example.com""#,
        #"  + seed2.db #1 view login emailChanged  "blob.jr@example.com""#,
        "  Its state changes (− only in seed1.db, + only in seed2.db):",
        #"    − login.email: "" → "blob@example.com""#,
        #"    + login.email: "" → "blob.jr@example.com""#,
        "",
      ]
    )
    // The user's name shows in later actions too; how many timer ticks each run saw depends on
    // its timing.
    #expect(lines[9].contains(" actions aligned: "))
    #expect(lines[9].contains(" that did something else; "))
  }

  @Test func aRunAgainstItself() async throws {
    let trace = try await RecordedTrace()
    for session in ["1", "2"] {
      let result = try await trace.run(["diff", "FILE", "FILE", "--session", session])
      #expect(result.status == 0)
      #expect(
        result.stdout.hasSuffix(
          " are alike: their actions have the same payloads and state changes.\n"))
    }
    // Both sessions of one file: the app's and the leaky one's have nothing alike.
    let result = try await trace.run([
      "diff", "FILE", "FILE", "--session", "1", "--other-session", "2",
    ])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains("0 actions aligned: 0 alike, 0 that did something else; 25 only in "))
  }

  /// An action whose case differs is only in one run, and the other's in the other.
  @Test func anActionOnlyOneRunHas() async throws {
    let trace = try await RecordedTrace()
    _ = try trace.copy(
      named: "other.db",
      changedBy:
        "UPDATE actions SET path = '_internal.todos._internal.timerStopped', case_name = 'timerStopped' WHERE session_id = 1 AND seq = 12;"
    )
    let result = try await trace.run(["diff", "demo.db", "other.db", "--session", "1"])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    expectNoDifference(
      Array(lines[1...]),
      [
        "The first difference: an action only demo.db has",
        "  demo.db #12 internal todos timerTicked  ← #10",
        "  after #11 _internal.todos._internal.todosLoaded.",
        "24 actions aligned: 24 alike, 0 that did something else; 1 only in demo.db, 1 only in other.db.",
      ]
    )
  }

  /// Issue #40: two sessions of 40,000 actions with no case path in common align in about the
  /// time reading them takes, where `difference(from:)` ran past 400 s.
  @Test func longSessionsWithNothingInCommon() async throws {
    let trace = try await RecordedTrace()
    let path = try trace.copy(
      named: "long.db",
      changedBy: """
        DELETE FROM leaks; DELETE FROM state_changes; DELETE FROM actions;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
        INSERT INTO actions (session_id, seq, time_ns, duration_ns, origin, path, root_category,
          feature, category, case_name, state_path)
        SELECT s, i, i, 0, 'send', 'view.tapped' || (i % 7 + 7 * s), 'view', '', 'view', 'tapped', ''
        FROM n, (SELECT 1 AS s UNION ALL SELECT 2);
        """
    )
    let result = try await trace.run(["diff", path, path, "--session", "1", "--other-session", "2"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        "0 actions aligned: 0 alike, 0 that did something else; 40000 only in "))
  }

  @Test func badInputIsOneLineAndExit2() async throws {
    let trace = try await RecordedTrace()
    for (arguments, message) in [
      (["diff", "FILE", "missing.db"], "Error: 'missing.db' does not exist: check the path"),
      (["diff", "missing.db", "FILE"], "Error: 'missing.db' does not exist: check the path"),
      (
        ["diff", "FILE", "FILE", "--other-session", "9"],
        "Error: '\(trace.path)' has no session 9: 'tcatrace sessions \(trace.path)' lists them"
      ),
      (
        ["diff", "FILE", "FILE", "--session", "all"],
        "Error: 'diff' compares one session with one: give an id or 'latest'"
      ),
    ] {
      let result = try await trace.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout.isEmpty, "\(arguments)")
      #expect(result.stderr.hasPrefix(message), "\(arguments)")
      if arguments.last != "all" {
        #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments)")
      }
    }
  }
}
