import CustomDump
import Foundation
import TCATrace
import TestSupport
import Testing

/// An action type that is `Encodable`, so that its JSON is recorded.
private struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable, Codable { case add(amount: Int, note: String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case let .add(amount, _) = action { state.count += amount }
    return .none
  }
}

/// What a `RecordingStore` records, and what it refuses, as the file read back shows.
@MainActor
@Suite(.hangGuard)
struct RecordingStoreTests {
  @Test func encodableActionsAreRecordedAsJSON() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("json.db")
    let recorder = try TraceRecorder(path: path)
    let store = RecordingStore(initialState: Counter.State(), recorder: recorder) { Counter() }
    store.send(.add(amount: 2, note: "two"))
    try await recorder.close()
    let action = try #require(try TraceReader(path: path).actions().first)
    #expect(action.path == "add")
    #expect(action.category == .unclassified)
    expectNoDifference(
      action.payload,
      """
      (
        amount: 2,
        note: "two"
      )
      """
    )
    expectNoDifference(action.payloadJSON, #"{"add":{"amount":2,"note":"two"}}"#)
    let decoded = try JSONDecoder().decode(
      Counter.Action.self, from: Data(action.payloadJSON!.utf8))
    #expect(decoded == .add(amount: 2, note: "two"))
  }

  @Test func aSecondStoreOnOneRecorderIsReportedAndNotRecorded() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("one.db")
    let recorder = try TraceRecorder(path: path)
    let first = RecordingStore(initialState: Counter.State(), recorder: recorder) { Counter() }
    var second: RecordingStore<Counter.State, Counter.Action>?
    withKnownIssue {
      second = RecordingStore(initialState: Counter.State(), recorder: recorder) { Counter() }
    } matching: { issue in
      issue.description.contains("A TraceRecorder records one store")
    }
    first.send(.add(amount: 1, note: "first"))
    second?.send(.add(amount: 5, note: "second"))
    #expect(second?.state.count == 5)
    try await recorder.close()
    let actions = try TraceReader(path: path).actions()
    expectNoDifference(actions.map(\.payloadJSON), [#"{"add":{"amount":1,"note":"first"}}"#])
  }

  @Test func stopInDebugWritesTheLeakAndStopsTheProcess() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("stop.db")
    let result = try await Product("tcatrace-fixture").run(["leak-stop", path])
    #expect(result.status != 0)
    #expect(result.stdout == "sending\n")
    #expect(
      result.stderr.contains(
        "Boundary leak (parent-reacts-to-private-child-action) in LeakyParentFeature"))
    let actions = try TraceReader(path: path).actions()
    expectNoDifference(actions.flatMap(\.leaks).map(\.rule), [.parentReactsToPrivateChildAction])
  }
}
