import Composable
import CustomDump
import Foundation
import IdentifiedCollections
@testable import TCATrace
import TCATraceExamples
import TCATraceFile
import TestSupport
import Testing

private struct Item: Equatable, Identifiable {
  var id: Int
  var count = 0
}

private struct Child: Equatable {
  var value = 0
  var items: IdentifiedArrayOf<Item> = [Item(id: 1), Item(id: 2)]
}

/// Equal when its children are: its `note` changes nothing `==` sees, and its child's changes
/// are all `==` sees.
private struct Wrapper: Equatable {
  var child = Child()
  var note = ""
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.child == rhs.child }
}

private struct Root: Equatable {
  var child = Child()
  var count = 0
  var title = "root"
  var wrapper = Wrapper()
  var rows: IdentifiedArrayOf<Item> = [Item(id: 1), Item(id: 2), Item(id: 3)]
  var optional: Child?
}

/// #46: the store's thread finds only the changes the boundary rules judge, and leaves the
/// diff of the whole state to the recorder's writer.
@MainActor
@Suite(.hangGuard)
struct LeftChangesTests {
  private static func changes(_ old: Root, _ new: Root, outside excluded: String?) -> [StateChange] {
    withUnsafePointer(to: old) { old in
      withUnsafePointer(to: new) { new in
        let (old, new, kind) = (UnsafeRawPointer(old), UnsafeRawPointer(new), NodeKind.of(Root.self))
        guard let excluded else { return StateDiff.changes(from: old, to: new, kind: kind).list }
        return StateDiff.changes(from: old, to: new, kind: kind, outside: excluded).list
      }
    }
  }

  /// What the rules read of a diff restricted to outside a path is what they read of the whole
  /// diff: its changes outside the path. Nothing inside is looked into.
  @Test(arguments: [
    "child", "child.items", "child.items[id: 2]", "rows", "rows[id: 2]", "wrapper.child", "optional",
  ])
  func aDiffOutsideAPathFindsTheWholeDiffsChangesOutsideIt(excluded: String) {
    let edits: [(String, (inout Root) -> Void)] = [
      ("child's value", { $0.child.value += 1 }),
      ("a child's item", { $0.child.items[id: 2]?.count += 1 }),
      ("a child's items, added", { $0.child.items.append(Item(id: 3)) }),
      ("the root's count", { $0.count += 1 }),
      ("a row", { $0.rows[id: 2]?.count += 1 }),
      ("two rows", { $0.rows[id: 1]?.count += 1; $0.rows[id: 2]?.count += 1 }),
      ("the rows' order", { $0.rows.swapAt(0, 2) }),
      ("a wrapped child", { $0.wrapper.child.value += 1 }),
      ("a wrapper's note, which its == ignores", { $0.wrapper.note = "note" }),
      ("an optional child, set", { $0.optional = Child() }),
      ("everything", {
        $0.child.value += 1; $0.count += 1; $0.rows[id: 3]?.count += 1
        $0.wrapper.child.items[id: 1]?.count += 1; $0.optional = Child(value: 2)
      }),
    ]
    var base = Root()
    base.optional = nil
    for (name, edit) in edits {
      for start in [base, { var root = base; root.optional = Child(); return root }()] {
        var new = start
        edit(&new)
        let whole = Self.changes(start, new, outside: nil)
        let outside = Self.changes(start, new, outside: excluded)
        expectNoDifference(
          outside.filter { !LeakRules.contains(excluded, $0.path) }.map(\.path),
          whole.filter { !LeakRules.contains(excluded, $0.path) }.map(\.path),
          "\(name), outside \(excluded)"
        )
      }
    }
  }

  /// A value whose `==` says it changed, though no field outside the path shows how, is not
  /// reported changed whole: what changed may lie inside the path, which the diff skipped.
  @Test func aValueThatHoldsThePathIsNotReportedWholeForWhatChangedInside() {
    var new = Root()
    new.wrapper.child.value = 1
    #expect(Self.changes(Root(), new, outside: nil).map(\.path) == ["wrapper.child.value"])
    #expect(Self.changes(Root(), new, outside: "wrapper.child").isEmpty)
    #expect(Self.changes(Root(), new, outside: "wrapper").isEmpty)
  }

  /// The leaks found from the changes outside the allowed feature's state alone are the leaks
  /// found from all of them, action by action, in both example apps; and no change is found
  /// for the record, which the writer finds later.
  @Test func theLeaksAreTheSameWithTheWholeDiffLeftToTheWriter() async {
    final class Count { var value = 0 }
    let checked = Count()
    @MainActor func check<State, Action>(_ event: ActionEvent<State, Action>) {
      let whole = ActionAnalysis(event)
      let left = withUnsafePointer(to: event.action) { action in
        withUnsafePointer(to: event.stateBefore) { before in
          withUnsafePointer(to: event.stateAfter) { after in
            ActionAnalysis.analyse(
              action: UnsafeRawPointer(action), actionValue: { action.pointee },
              classifier: ActionClassifier.of(Action.self), before: UnsafeRawPointer(before),
              after: UnsafeRawPointer(after), stateKind: NodeKind.of(State.self),
              origin: event.origin, route: event.route, ownEffectCounts: event.ownEffectCounts,
              rootName: ActionAnalysis.rootName(of: Action.self), diffsWholeState: false
            )
          }
        }
      }
      expectNoDifference(left.leaks, whole.leaks, "action #\(event.id)")
      #expect(left.changes.isEmpty)
      checked.value += 1
    }
    let leaky = Store(initialState: LeakyParentFeature.State(), observer: { check($0) }) {
      LeakyParentFeature()
    }
    await DemoScript.runLeaky { leaky.send($0) }
    await leaky.finish()
    let app = Store(initialState: AppFeature.State(), observer: { check($0) }) {
      AppFeature()
    } withDependencies: {
      DemoScript.dependencies(&$0, latency: .zero)
    }
    await DemoScript.runApp(finish: app.finish) { app.send($0) }
    await app.finish()
    #expect(checked.value > 30)
  }

  /// A writer that cannot write holds the states of no more actions than its limit: the store's
  /// thread finds the changes of the rest itself, and the trace holds every action's changes
  /// once the writer catches up.
  @Test func aWriterBehindTakesNoMoreStatesThanItsLimit() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("behind.db")
    try await TraceRecorder(path: path).close()
    // NB: Another connection's exclusive lock: the recorder's writer waits to open the file.
    var holder: SQLiteConnection? = try SQLiteConnection(path: path, mode: .readWrite)
    try holder?.execute("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE sessions SET name = name")

    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: Root(), recorder: recorder) {
      Reduce<Root, Int> { state, index in
        state.rows[id: index % 3 + 1]?.count += 1
        return .none
      }
    }
    let actions = 2 * TraceWriter.statesLimit
    var refused = 0
    for index in 0..<actions {
      store.send(index)
      if recorder.writer?.takesStates == false { refused += 1 }
    }
    #expect(refused >= actions - TraceWriter.statesLimit)
    try holder?.execute("COMMIT")
    holder = nil
    try await recorder.close()

    let reader = try TraceReader(path: path)
    let changes = try reader.query(
      """
      SELECT a.seq, c.path, c.old_value, c.new_value FROM actions a JOIN state_changes c ON c.action_id = a.id
      ORDER BY a.seq, c.position
      """
    ).rows
    let expected: [[TraceValue]] = (0..<actions).map { index in
      let count = Int64(index / 3)
      return [
        .integer(Int64(index + 1)), .text("rows[id: \(index % 3 + 1)].count"),
        .text("\(count)"), .text("\(count + 1)"),
      ]
    }
    expectNoDifference(changes, expected)
  }
}
