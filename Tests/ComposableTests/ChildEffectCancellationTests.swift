import Composable
import CustomDump
import Testing
import TestSupport

/// A child whose effect runs until cancelled, and records when it was cancelled.
private struct Sleeper: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var started = false
    var finished = false
  }
  @CasePathable
  enum Action: Equatable, Sendable { case start, startShort, finished }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start, .startShort:
      state.started = true
      let duration: Duration = action == .start ? .seconds(3600) : .milliseconds(1)
      return .run { send in
        try await Task.sleep(for: duration)
        await send(.finished)
      }
    case .finished:
      state.finished = true
      return .none
    }
  }
}

private struct Host: Reducer {
  struct State: Equatable {
    var sheet: Sleeper.State?
    var rows: IdentifiedArrayOf<Sleeper.State> = []
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case sheet(PresentationAction<Sleeper.Action>)
    case rows(IdentifiedActionOf<Sleeper>)
    case closeSheet
    case removeRow(Int)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .closeSheet:
        state.sheet = nil
      case let .removeRow(id):
        state.rows.remove(id: id)
      case .sheet, .rows:
        break
      }
      return .none
    }
    .ifLet(\.sheet, action: \.sheet) { Sleeper() }
    .forEach(\.rows, action: \.rows) { Sleeper() }
  }
}

@MainActor
@Suite(.hangGuard)
struct ChildEffectCancellationTests {
  @Test func settingOptionalChildStateToNilCancelsItsEffects() async {
    let store = Store(initialState: Host.State(sheet: Sleeper.State())) { Host() }
    let task = store.send(.sheet(.presented(.start)))
    store.send(.closeSheet)
    await task.finish()
    await store.finish()
    #expect(store.state.sheet == nil)
  }

  @Test func dismissCancelsThePresentedChildsEffects() async {
    let store = Store(initialState: Host.State(sheet: Sleeper.State())) { Host() }
    let task = store.send(.sheet(.presented(.start)))
    store.send(.sheet(.dismiss))
    await task.finish()
    await store.finish()
    #expect(store.state.sheet == nil)
  }

  @Test func removingAnElementCancelsOnlyItsEffects() async {
    let store = Store(
      initialState: Host.State(rows: [Sleeper.State(id: 1), Sleeper.State(id: 2)])
    ) {
      Host()
    }
    let first = store.send(.rows(.element(id: 1, action: .start)))
    let second = store.send(.rows(.element(id: 2, action: .startShort)))
    store.send(.removeRow(1))
    await first.finish()
    await second.finish()
    await store.finish()
    expectNoDifference(store.state.rows, [Sleeper.State(id: 2, started: true, finished: true)])
  }
}
