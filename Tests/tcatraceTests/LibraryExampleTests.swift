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
      actions.map { "\($0.category.rawValue) \($0.feature.isEmpty ? "Library" : $0.feature) \($0.caseName)" },
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
      actions.flatMap { action in action.leaks.map { "#\(action.seq) \($0.rule.rawValue) \($0.feature)" } },
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
  }
}
