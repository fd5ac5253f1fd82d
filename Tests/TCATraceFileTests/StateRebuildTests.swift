import TCATraceFile
import TestSupport
import Testing

/// A state rebuilt from the one before it and a step's changes, on states written by hand: what
/// the reader does for `tcatrace state`, without the runtime that records.
@Suite(.hangGuard) struct StateRebuildTests {
  /// `Screen(count: 1, title: "a", tags: ["x"])`.
  private static let screen = StateNode.container(
    StateContainer(
      kind: .structure(type: "Screen"),
      children: [
        StateChild(label: "count", key: "count", node: .text("1")),
        StateChild(label: "title", key: "title", node: .text(#""a""#)),
        StateChild(
          label: "tags", key: "tags",
          node: .container(
            StateContainer(
              kind: .collection,
              children: [StateChild(label: nil, key: "0", node: .text(#""x""#))]))),
      ]))

  @Test func theChangesApplyAndTheStateRendersAsCustomDumpPrintsIt() throws {
    let rebuilt = try Self.screen.applying([
      StateChange(path: "count", kind: .changed, old: "1", new: "2"),
      StateChange(path: "tags[1]", kind: .added, old: nil, new: #""y""#),
    ])
    #expect(
      rebuilt.rendered() == """
        Screen(
          count: 2,
          title: "a",
          tags: [
            [0]: "x",
            [1]: "y"
          ]
        )
        """)
  }

  /// Issue #71: a change the state has no place for is left out and named; the rest applies.
  @Test func aChangeThatDoesNotFitIsLeftOutAndTheRestApplies() {
    var unplaced: [StateRebuildError] = []
    let rebuilt = Self.screen.applying(
      [
        StateChange(path: "missing.count", kind: .changed, old: "1", new: "2"),
        StateChange(path: "count", kind: .changed, old: "1", new: "2"),
      ],
      unplaced: { unplaced.append($0) }
    )
    #expect(unplaced.map(\.path) == ["missing.count"])
    #expect(rebuilt.rendered().contains("count: 2,"))
  }

  @Test func aChangeThatDoesNotFitIsAnError() {
    #expect(throws: StateRebuildError.self) {
      try Self.screen.applying([
        StateChange(path: "missing.count", kind: .changed, old: "1", new: "2")
      ])
    }
    #expect(throws: StateRebuildError.self) {
      try Self.screen.applying([
        StateChange(path: "count.inner", kind: .changed, old: "1", new: "2")
      ])
    }
    #expect(throws: StateRebuildError.self) {
      try Self.screen.applying([StateChange(path: "count[3]", kind: .added, old: nil, new: "2")])
    }
  }
}
