import CustomDump
import Foundation
import TestSupport
import Testing

/// `tcatrace` on a trace recorded with fixed times: whole outputs, and the file unchanged.
@Suite(.hangGuard)
struct ReplayCommandTests {
  let trace: RecordedTrace

  init() async throws {
    self.trace = try await RecordedTrace()
  }

  @Test func replayFiltersBySeqRangeWithChanges() async throws {
    let result = try await self.trace.run([
      "replay", "FILE", "--session", "1", "--from", "14", "--to", "18",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      Session 1 · app · AppFeature · 2026-01-01T00:00:00.000Z
      #14      +13.000ms view         todos                addTodoButtonTapped  "Record a trace"
             todos.todos[id: 100] (added)
             + TodoRowFeature.State(
             +   id: 100,
             +   title: "Record a trace",
             +   isComplete: false
             + )
             todos.nextID
             - 100
             + 101
      #15      +14.000ms view         todos.rows[id: 100]  toggleCompleted
             todos.todos[id: 100].isComplete
             - false
             + true
      #16      +15.000ms delegate     todos.rows[id: 100]  completionChanged  true  ← #15
             todos.todos
             - [100, 1, 2]
             + [1, 100, 2]
      #17      +16.000ms view         todos.rows[id: 1]    titleChanged  "Buy oat milk"
             todos.todos[id: 1].title
             - "Buy milk"
             + "Buy oat milk"
      #18      +17.000ms view         todos                clearCompletedButtonTapped
             todos.alert (added)
             + AlertState(
             +   title: "Clear 2 completed todos?",
             +   actions: [
             +     [0]: ButtonState(
             +       role: .destructive,
             +       action: .send(
             +         .confirmClearCompleted
             +       ),
             +       label: "Clear"
             +     ),
             +     [1]: ButtonState(
             +       role: .cancel,
             +       action: .send(nil),
             +       label: "Cancel"
             +     )
             +   ]
             + )

      """#
    )
  }

  @Test func replayFiltersByCategoryAcrossSessions() async throws {
    let result = try await self.trace.run(["replay", "FILE", "--category", "delegate", "--no-diff"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      Session 1 · app · AppFeature · 2026-01-01T00:00:00.000Z
      #8        +7.000ms delegate     login.twoFactor      didVerify  User(id: 1, name: "blob")  ← #7
      #9        +8.000ms delegate     login                didLogin  User(id: 1, name: "blob")  ← #8
      #16      +15.000ms delegate     todos.rows[id: 100]  completionChanged  true  ← #15
      #25      +24.000ms delegate     path[id: 0].settings didSave  (displayName: "Blob", notificationsEnabled: true)  ← #24

      Session 2 · leaky · LeakyParentFeature · 2026-01-01T00:00:00.000Z
      #6        +5.000ms delegate     child.grandchild     didFinish  ← #5
             ! ancestor-reacts-to-grandchild-delegate (LeakyParentFeature): changed grandchildFinished in response to delegate action didFinish of child.grandchild, which only child may react to

      """#
    )
  }

  @Test func replayLeaksOnlyOfTheLatestSession() async throws {
    let result = try await self.trace.run([
      "replay", "FILE", "--session", "latest", "--leaks-only", "--no-diff",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      Session 2 · leaky · LeakyParentFeature · 2026-01-01T00:00:00.000Z
      #2        +1.000ms view         LeakyParentFeature   refreshButtonTapped  ← #1
             ! effect-sends-view-action (LeakyParentFeature): view action refreshButtonTapped of LeakyParentFeature was sent by an effect of action #1; only the view sends view actions
      #4        +3.000ms view         child                buttonTapped
             ! parent-reacts-to-private-child-action (LeakyParentFeature): changed childButtonTaps in response to view action buttonTapped of child
      #6        +5.000ms delegate     child.grandchild     didFinish  ← #5
             ! ancestor-reacts-to-grandchild-delegate (LeakyParentFeature): changed grandchildFinished in response to delegate action didFinish of child.grandchild, which only child may react to
      #7        +6.000ms internal     LeakyParentFeature   refreshed
             ! view-sends-private-action (LeakyParentFeature): internal action refreshed of LeakyParentFeature was sent from outside the store; only its reducer and effects send internal actions

      """#
    )
  }

  @Test func replayFeatureAsJSONLines() async throws {
    let result = try await self.trace.run([
      "replay", "FILE", "--session", "1", "--feature", "path", "--format", "jsonl", "--no-diff",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      {"session":1,"seq":22,"time_ns":21000000,"duration_ns":15000,"origin":"send","cause_seq":null,"path":"_internal.path[id: 0].settings.view.binding","root_category":"internal","feature":"path[id: 0].settings","category":"view","case":"binding","state_path":"path[id: 0].settings","payload":".set(\\.displayName, \"Blob\")","payload_json":"{\"_internal\":{\"_0\":{\"path\":{\"element\":{\"action\":{\"settings\":{\"_0\":{\"view\":{\"_0\":{\"binding\":{\"displayName\":\"Blob\"}}}}}},\"id\":0}}}}}","leaks":[]}
      {"session":1,"seq":23,"time_ns":22000000,"duration_ns":2000,"origin":"send","cause_seq":null,"path":"_internal.path[id: 0].settings.view.binding","root_category":"internal","feature":"path[id: 0].settings","category":"view","case":"binding","state_path":"path[id: 0].settings","payload":".set(\\.notificationsEnabled, true)","payload_json":"{\"_internal\":{\"_0\":{\"path\":{\"element\":{\"action\":{\"settings\":{\"_0\":{\"view\":{\"_0\":{\"binding\":{\"notificationsEnabled\":true}}}}}},\"id\":0}}}}}","leaks":[]}
      {"session":1,"seq":24,"time_ns":23000000,"duration_ns":39000,"origin":"send","cause_seq":null,"path":"_internal.path[id: 0].settings.view.saveButtonTapped","root_category":"internal","feature":"path[id: 0].settings","category":"view","case":"saveButtonTapped","state_path":"path[id: 0].settings","payload":null,"payload_json":"{\"_internal\":{\"_0\":{\"path\":{\"element\":{\"action\":{\"settings\":{\"_0\":{\"view\":{\"_0\":{\"saveButtonTapped\":{}}}}}},\"id\":0}}}}}","leaks":[]}
      {"session":1,"seq":25,"time_ns":24000000,"duration_ns":26000,"origin":"effect","cause_seq":24,"path":"_internal.path[id: 0].settings.delegate.didSave","root_category":"internal","feature":"path[id: 0].settings","category":"delegate","case":"didSave","state_path":"path[id: 0].settings","payload":"(\n  displayName: \"Blob\",\n  notificationsEnabled: true\n)","payload_json":"{\"_internal\":{\"_0\":{\"path\":{\"element\":{\"action\":{\"settings\":{\"_0\":{\"delegate\":{\"_0\":{\"didSave\":{\"displayName\":\"Blob\",\"notificationsEnabled\":true}}}}}},\"id\":0}}}}}","leaks":[]}

      """#
    )
  }

  @Test func replayGrepInCasePathsAndPayloads() async throws {
    let result = try await self.trace.run(["replay", "FILE", "--grep", "oat milk", "--no-diff"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      Session 1 · app · AppFeature · 2026-01-01T00:00:00.000Z
      #17      +16.000ms view         todos.rows[id: 1]    titleChanged  "Buy oat milk"

      """#
    )
  }

  /// A state path's history: the todo loaded (added above the title) and its title typed;
  /// not the todos put in a new order, nor another todo's title.
  @Test func replayChangedListsAStatePathsHistory() async throws {
    let result = try await self.trace.run([
      "replay", "FILE", "--session", "1", "--changed", "todos.todos[id: 1].title",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      Session 1 · app · AppFeature · 2026-01-01T00:00:00.000Z
      #11      +10.000ms internal     todos                todosLoaded  Result.success([[0]: Todo(id: 1, title: "Buy milk", isComplete: false), [1]: Todo(id: 2, title: "Write the trace reader", isComplete: true)])  ← #10
             todos.todos[id: 1] (added)
             + TodoRowFeature.State(
             +   id: 1,
             +   title: "Buy milk",
             +   isComplete: false
             + )
             todos.todos[id: 2] (added)
             + TodoRowFeature.State(
             +   id: 2,
             +   title: "Write the trace reader",
             +   isComplete: true
             + )
             todos.isLoading
             - true
             + false
      #17      +16.000ms view         todos.rows[id: 1]    titleChanged  "Buy oat milk"
             todos.todos[id: 1].title
             - "Buy milk"
             + "Buy oat milk"

      """#
    )
  }

  @Test func replayWithNoMatch() async throws {
    let result = try await self.trace.run(["replay", "FILE", "--grep", "nothing like this"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      No actions match.

      """#
    )
  }

  @Test func replayLeakyActionAsJSON() async throws {
    let result = try await self.trace.run([
      "replay", "FILE", "--session", "2", "--from", "4", "--to", "4", "--format", "json",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      [{"session":2,"seq":4,"time_ns":3000000,"duration_ns":49000,"origin":"send","cause_seq":null,"path":"_internal.child.view.buttonTapped","root_category":"internal","feature":"child","category":"view","case":"buttonTapped","state_path":"child","payload":null,"payload_json":null,"changes":[{"path":"child.taps","kind":"changed","old":"0","new":"1"},{"path":"childButtonTaps","kind":"changed","old":"0","new":"1"}],"leaks":[{"rule":"parent-reacts-to-private-child-action","feature":"","detail":"changed childButtonTaps in response to view action buttonTapped of child"}]}]

      """#
    )
  }
}
