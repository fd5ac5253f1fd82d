import Composable
import CustomDump
import Testing
import TestSupport

/// A feature whose actions start each kind of effect; `log` records what arrived, in order.
private struct Effects: Reducer {
  struct State: Equatable {
    var log: [String] = []
  }

  enum CancelID { case long }

  enum Action: Equatable, Sendable {
    case runSequence(count: Int)
    case merge
    case concatenate
    case startLong(cancelInFlight: Bool)
    case cancelLong
    case sendSynchronously
    case throwUnhandled
    case throwHandled
    case mapped
    case received(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .runSequence(count):
        return .run { send in
          for index in 1...count { await send(.received("\(index)")) }
        }
      case .merge:
        return .merge(
          .run { send in await send(.received("a")) },
          .run { send in await send(.received("b")) },
          .send(.received("sync"))
        )
      case .concatenate:
        return .concatenate(
          .run { send in
            // NB: Yield a few times so that the second effect would overtake the first if
            // concatenation did not wait.
            for _ in 0..<10 { await Task.yield() }
            await send(.received("first"))
          },
          .send(.received("second")),
          .run { send in await send(.received("third")) }
        )
      case let .startLong(cancelInFlight):
        state.log.append("long started")
        return .run { send in
          try await Task.sleep(for: .seconds(3600))
          await send(.received("long finished"))
        }
        .cancellable(id: CancelID.long, cancelInFlight: cancelInFlight)
      case .cancelLong:
        return .cancel(id: CancelID.long)
      case .sendSynchronously:
        return .send(.received("sync"))
      case .throwUnhandled:
        return .run { _ in throw TestError() }
      case .throwHandled:
        return .run { _ in
          throw TestError()
        } catch: { error, send in
          await send(.received("caught \(error)"))
        }
      case .mapped:
        return Effect<String>.send("inner").map { .received("mapped \($0)") }
      case let .received(value):
        state.log.append(value)
        return .none
      }
    }
  }
}

private struct TestError: Error, CustomStringConvertible {
  var description: String { "TestError" }
}

@MainActor
@Suite(.hangGuard)
struct EffectTests {
  @Test func runSendsActionsInOrder() async {
    let store = Store(initialState: Effects.State()) { Effects() }
    await store.send(.runSequence(count: 5)).finish()
    expectNoDifference(store.state.log, ["1", "2", "3", "4", "5"])
  }

  @Test func sendIsProcessedBeforeSendReturns() {
    let store = Store(initialState: Effects.State()) { Effects() }
    let task = store.send(.sendSynchronously)
    expectNoDifference(store.state.log, ["sync"])
    #expect(task.isCancelled, "a send that started no asynchronous effect has no task")
  }

  @Test func mergeRunsEveryEffect() async {
    let store = Store(initialState: Effects.State()) { Effects() }
    let task = store.send(.merge)
    expectNoDifference(store.state.log, ["sync"])
    await task.finish()
    expectNoDifference(Set(store.state.log), ["sync", "a", "b"])
    #expect(store.state.log.count == 3)
  }

  @Test func concatenateRunsEffectsOneAfterTheOther() async {
    let store = Store(initialState: Effects.State()) { Effects() }
    await store.send(.concatenate).finish()
    expectNoDifference(store.state.log, ["first", "second", "third"])
  }

  @Test func cancelStopsACancellableEffect() async {
    let store = Store(initialState: Effects.State()) { Effects() }
    let task = store.send(.startLong(cancelInFlight: false))
    store.send(.cancelLong)
    await task.finish()
    expectNoDifference(store.state.log, ["long started"])
  }

  @Test func cancelInFlightCancelsTheRunningEffect() async {
    let store = Store(initialState: Effects.State()) { Effects() }
    let first = store.send(.startLong(cancelInFlight: true))
    let second = store.send(.startLong(cancelInFlight: true))
    await first.finish()
    #expect(!second.isCancelled)
    second.cancel()
    await second.finish()
    await store.finish()
    expectNoDifference(store.state.log, ["long started", "long started"])
  }

  @Test func storeTaskCancelCancelsItsEffects() async {
    let store = Store(initialState: Effects.State()) { Effects() }
    let task = store.send(.startLong(cancelInFlight: false))
    task.cancel()
    await task.finish()
    await store.finish()
    #expect(task.isCancelled)
    expectNoDifference(store.state.log, ["long started"])
  }

  @Test func storeFinishWaitsForEveryEffect() async {
    let store = Store(initialState: Effects.State()) { Effects() }
    store.send(.runSequence(count: 2))
    store.send(.runSequence(count: 1))
    await store.finish()
    #expect(store.state.log.sorted() == ["1", "1", "2"])
  }

  @Test func handledErrorsGoToTheCatchHandler() async {
    let store = Store(initialState: Effects.State()) { Effects() }
    await store.send(.throwHandled).finish()
    expectNoDifference(store.state.log, ["caught TestError"])
  }

  @Test func unhandledErrorsAreReported() async {
    let store = Store(initialState: Effects.State()) { Effects() }
    await withKnownIssue {
      await store.send(.throwUnhandled).finish()
    } matching: { issue in
      issue.description.contains("threw an unhandled error: TestError")
    }
  }

  @Test func mapTransformsSentActions() {
    let store = Store(initialState: Effects.State()) { Effects() }
    store.send(.mapped)
    expectNoDifference(store.state.log, ["mapped inner"])
  }
}
