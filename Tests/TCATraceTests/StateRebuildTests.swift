import Composable
import CustomDump
import IdentifiedCollections
@testable import TCATrace
import TCATraceFile
import TestSupport
import Testing

/// Issue #18: a state rebuilt from the one before it and the changes the diff recorded renders
/// as CustomDump renders the state itself, step after step, over nested optionals, identified
/// arrays, enums with payloads, presented children and stacks.
@Suite(.hangGuard) struct StateRebuildTests {
  /// The changes the recorder's diff finds, on the values where they lie.
  private static func recorderChanges<T>(_ old: T, _ new: T) -> [StateChange] {
    withUnsafePointer(to: old) { old in
      withUnsafePointer(to: new) { new in
        StateDiff.changes(
          from: UnsafeRawPointer(old), to: UnsafeRawPointer(new), kind: NodeKind.of(T.self)
        ).list
      }
    }
  }

  @Test(arguments: [false, true])
  func aRebuiltStateRendersAsTheStateAtEveryStep(inPlace: Bool) throws {
    var random = SeededGenerator(seed: inPlace ? 18 : 81)
    var state = RandomState()
    var tree = StateTree.node(of: state)
    for step in 1...2_000 {
      let before = state
      for _ in 0..<Int.random(in: 1...3, using: &random) { state.mutate(&random) }
      let changes =
        inPlace ? Self.recorderChanges(before, state) : StateChange.diff(from: before, to: state)
      let previous = tree
      tree = try tree.applying(changes)
      let expected = String(customDumping: state)
      guard tree.rendered() == expected else {
        let nodes = changes.map { "\($0.path): \(String(describing: previous.node(at: $0.path)))" }
        Issue.record(
          "step \(step): \(changes)\nbefore: \(nodes)\n\(diff(tree.rendered(), expected) ?? "")")
        return
      }
    }
  }

  @Test func aChangeThatDoesNotFitIsAnError() throws {
    let tree = StateTree.node(of: RandomState())
    #expect(throws: StateRebuildError.self) {
      try tree.applying([StateChange(path: "missing.count", kind: .changed, old: "1", new: "2")])
    }
    #expect(throws: StateRebuildError.self) {
      try tree.applying([StateChange(path: "count.inner", kind: .changed, old: "1", new: "2")])
    }
    #expect(throws: StateRebuildError.self) {
      try tree.applying([StateChange(path: "count[3]", kind: .added, old: nil, new: "2")])
    }
  }
}
