import Composable
import CustomDump
import Testing
import TestSupport

@MainActor
@Suite(.hangGuard)
struct StoreTests {
  @Test func scopedStoreReadsTheChildStateAndSendsThroughTheParent() {
    var received: [Parent.Action] = []
    let store = Store(
      initialState: Parent.State(),
      observer: { received.append($0.action) }
    ) {
      Parent()
    }
    let child = store.scope(state: \.counter, action: \.counter)
    child.send(.increment)
    #expect(child.state.count == 1)
    #expect(store.state.counter.count == 1)
    expectNoDifference(received, [.counter(.increment)])
  }

  @Test func scopedStoresCompose() {
    let store = Store(initialState: Parent.State(rows: [Parent.Row(id: 4)])) { Parent() }
    let row = store.scope(state: \.rows[id: 4]!, action: \.rows[id: 4])
    row.send(.increment)
    #expect(store.state.rows[id: 4]?.counter.count == 1)
    #expect(row.state.counter.count == 1)
  }

  @Test func dynamicMemberLookupReadsState() {
    let store = Store(initialState: Counter.State(count: 3)) { Counter() }
    #expect(store.count == 3)
  }

  /// A test past its time limit is cancelled: waiting for a store's effects then cancels them,
  /// rather than waiting for good for one that sleeps on a test clock nobody advances.
  @Test func cancellingTheWaitForAStoresEffectsCancelsThem() async {
    let clock = TestClock()
    let ended = LockIsolated(false)
    let store = Store(initialState: 0) {
      Reduce<Int, Bool> { _, _ in
        .run { _ in
          try? await clock.sleep(for: .seconds(1))
          ended.setValue(true)
        }
      }
    }
    store.send(true)
    let waiter = Task { await store.finish() }
    waiter.cancel()
    await waiter.value
    #expect(ended.value)
  }

  @Test func effectsOfAScopedSendAreAwaitedByItsTask() async {
    let store = Store(initialState: LoaderRoot.State()) { LoaderRoot() }
    await store.scope(state: \.loader, action: \.loader).send(.load).finish()
    #expect(store.state.loader.value == 42)
  }
}

private struct Loader: Reducer {
  struct State: Equatable { var value = 0 }
  @CasePathable
  enum Action: Equatable, Sendable { case load, loaded(Int) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      return .run { send in await send(.loaded(42)) }
    case let .loaded(value):
      state.value = value
      return .none
    }
  }
}
private struct LoaderRoot: Reducer {
  struct State: Equatable { var loader = Loader.State() }
  @CasePathable
  enum Action: Equatable, Sendable { case loader(Loader.Action) }
  var body: some ReducerOf<Self> {
    Scope(state: \.loader, action: \.loader) { Loader() }
  }
}
