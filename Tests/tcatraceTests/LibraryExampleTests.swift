import CustomDump
import Foundation
import TCATraceFile
import TestSupport
import Testing

/// The library example (Tests/Fixtures/Library), which Tests/RealTCA/check.sh also records on
/// pointfreeco's TCA and compares with this recording (#41).
@Suite(.hangGuard)
struct LibraryExampleTests {
  @Test func theLibrarysSessionCancelsItsEffectLeaksThriceAndSharesAValue() async throws {
    let trace = try await RecordedTrace(fixture: "record-library", name: "library.db")
    let actions = try TraceReader(path: trace.path).actions()
    expectNoDifference(
      actions.map {
        "\($0.category.rawValue) \($0.feature.isEmpty ? "Library" : $0.feature) \($0.caseName)"
      },
      [
        "view Library openTapped",
        "view destination.book binding",
        "view destination.book startTapped",
        "internal destination.book tick",
        "internal destination.book tick",
        "delegate destination.book finished",
        "view destination dismiss",
        "view Library pushTapped",
        "view path[id: 0].book slowStartTapped",
        "view path[id: 0].book stopTapped",
        "view Library returnAllTapped",
        "unclassified destination confirmReturnAll",
        "view shelf.book stopTapped",
        "internal shelf lookedUp",
        "view mode.browsing binding",
        "view desk sitTapped",
        "view desk.reading binding",
        "view Library borrowTwiceTapped",
      ]
    )
    expectNoDifference(
      actions.flatMap { action in
        action.leaks.map { "#\(action.seq) \($0.rule.rawValue) \($0.feature)" }
      },
      [
        "#10 parent-reacts-to-private-child-action ",
        "#13 parent-reacts-to-private-child-action shelf",
        "#15 parent-reacts-to-private-child-action ",
      ]
    )
    // A shared value held by the library and its shelf, changed twice in one action: one change
    // from its value before the action, at each path that holds it.
    expectNoDifference(
      actions.flatMap { action in
        action.changes.filter { $0.path.hasSuffix("borrowed") }
          .map { "#\(action.seq) \($0.path) \($0.old ?? "nil") → \($0.new ?? "nil")" }
      },
      [
        "#14 shelf.borrowed 0 → 1", "#14 borrowed 0 → 1",
        "#18 shelf.borrowed 1 → 3", "#18 borrowed 1 → 3",
      ]
    )
    // The trace marks them as shared, and the action whose change #13's effect sent at once
    // (issue #58): a `TestStore` sees its change at #13's `send`.
    expectNoDifference(
      actions.flatMap { action in
        action.changes.compactMap { change in
          change.sharedPath.map { "#\(action.seq) \(change.path) in \($0)" }
        }
      },
      [
        "#14 shelf.borrowed in shelf.borrowed", "#14 borrowed in borrowed",
        "#18 shelf.borrowed in shelf.borrowed", "#18 borrowed in borrowed",
      ]
    )
    expectNoDifference(actions.filter(\.atOnce).map(\.seq), [6, 14])
  }

  /// The test `tcatrace test` writes of the session is kept in the suite, where it compiles and
  /// passes against `Composable`'s `TestStore` (`TCATraceExamplesTests/Generated`): writing it
  /// again gives the same file. Its `send` of #13 asserts the shared value #13's effect changed
  /// at once, where the store sees it (issue #58).
  @Test func generatingTheLibrarysTestGivesTheFileKeptInTheSuite() async throws {
    let trace = try await RecordedTrace(fixture: "record-library", name: "library.db")
    let kept = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("TCATraceExamplesTests/Generated/LibrarySessionTest.swift")
    let result = try await trace.run([
      "test", "library.db", "--session", "1", "--name", "replaysLibrarySession",
      "--import", "LibraryExample", "--dependencies", "$0.continuousClock = ImmediateClock()",
      "--initial-state", "Library.State()",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(result.stdout, try String(contentsOf: kept, encoding: .utf8))
  }

  /// `merge` copies the marks of actions sent at once and of shared changes (issue #58).
  @Test func aMergedCopyKeepsTheMarksATestNeeds() async throws {
    let trace = try await RecordedTrace(fixture: "record-library", name: "library.db")
    let output = try TemporaryDirectory()
    let merged = try await Product.tcatrace.run(["merge", "fleet.db", trace.path], in: output.url)
    #expect(merged.status == 0, "\(merged.stderr)")
    let query = """
      SELECT a.seq, a.at_once, c.position, c.shared
      FROM actions a LEFT JOIN state_changes c ON c.action_id = a.id
      WHERE a.at_once IS NOT NULL OR c.shared IS NOT NULL ORDER BY a.seq, c.position
      """
    let original = try await Product.tcatrace.run(["sql", trace.path, query, "--format", "csv"])
    let copy = try await Product.tcatrace.run([
      "sql", output.path("fleet.db"), query, "--format", "csv",
    ])
    #expect(original.stdout.split(separator: "\n").count == 7)
    expectNoDifference(copy.stdout, original.stdout)
  }
}
