import Composable
import CustomDump
import Testing
import TestSupport

/// Three levels: `Root` scopes to `Middle`, which presents an optional `Leaf` and a list of
/// `Leaf` rows.
private struct Leaf: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var taps = 0
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case tap
    case tapThenFinish
    case finished
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      state.taps += 1
      return .none
    case .tapThenFinish:
      state.taps += 1
      return .run { send in await send(.finished) }
    case .finished:
      return .none
    }
  }
}

private struct Middle: Reducer {
  struct State: Equatable {
    var leaf: Leaf.State?
    var rows: IdentifiedArrayOf<Leaf.State> = []
    var finishedCount = 0
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case leaf(Leaf.Action)
    case rows(IdentifiedActionOf<Leaf>)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .leaf(.finished):
        state.finishedCount += 1
        return .send(.leaf(.tap))
      case .leaf, .rows:
        return .none
      }
    }
    .ifLet(\.leaf, action: \.leaf) { Leaf() }
    .forEach(\.rows, action: \.rows) { Leaf() }
  }
}

private struct Root: Reducer {
  struct State: Equatable {
    var middle = Middle.State()
    var rootTaps = 0
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case middle(Middle.Action)
    case tap
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.middle, action: \.middle) { Middle() }
    Reduce { state, action in
      if case .tap = action { state.rootTaps += 1 }
      return .none
    }
  }
}

/// What the tests compare: an event without its timings.
private struct Seen: Equatable {
  var id: Int
  var action: Root.Action
  var origin: ActionOrigin
  var statePath: String
  var ownEffectCounts: [Int]
  var changed: Bool
}

@MainActor
@Suite(.hangGuard)
struct ObserverTests {
  @Test func observerSeesOriginCauseAndRoutingForEveryAction() async {
    var seen: [Seen] = []
    var states: [(before: Root.State, after: Root.State)] = []
    let store = Store(
      initialState: Root.State(middle: Middle.State(leaf: Leaf.State())),
      observer: { event in
        seen.append(
          Seen(
            id: event.id,
            action: event.action,
            origin: event.origin,
            statePath: event.route.statePath,
            ownEffectCounts: event.ownEffectCounts,
            changed: event.stateBefore != event.stateAfter
          )
        )
        states.append((event.stateBefore, event.stateAfter))
      }
    ) {
      Root()
    }

    store.send(.tap)
    await store.send(.middle(.leaf(.tapThenFinish))).finish()

    expectNoDifference(
      seen,
      [
        Seen(
          id: 1, action: .tap, origin: .send, statePath: "", ownEffectCounts: [0], changed: true),
        Seen(
          id: 2, action: .middle(.leaf(.tapThenFinish)), origin: .send,
          statePath: "middle.leaf", ownEffectCounts: [0, 0, 1], changed: true
        ),
        Seen(
          id: 3, action: .middle(.leaf(.finished)), origin: .effect(cause: 2),
          statePath: "middle.leaf", ownEffectCounts: [0, 1, 0], changed: true
        ),
        Seen(
          id: 4, action: .middle(.leaf(.tap)), origin: .effect(cause: 3),
          statePath: "middle.leaf", ownEffectCounts: [0, 0, 0], changed: true
        ),
      ]
    )
    #expect(states[1].before.middle.leaf?.taps == 0)
    #expect(states[1].after.middle.leaf?.taps == 1)
    #expect(states[2].after.middle.finishedCount == 1)
    #expect(store.state.middle.leaf?.taps == 2)
  }

  @Test func forEachRoutesNameTheElementId() {
    var paths: [String] = []
    let store = Store(
      initialState: Root.State(middle: Middle.State(rows: [Leaf.State(id: 3)])),
      observer: { paths.append($0.route.statePath) }
    ) {
      Root()
    }
    store.send(.middle(.rows(.element(id: 3, action: .tap))))
    expectNoDifference(paths, ["middle.rows[id: 3]"])
    #expect(store.state.middle.rows[id: 3]?.taps == 1)
  }

  @Test func observerReportsTimings() {
    var durations: [UInt64] = []
    var timestamps: [UInt64] = []
    let store = Store(
      initialState: Root.State(),
      observer: { (event: ActionEvent<Root.State, Root.Action>) in
        durations.append(event.duration)
        timestamps.append(event.timestamp)
      }
    ) {
      Root()
    }
    store.send(.tap)
    store.send(.tap)
    #expect(timestamps.count == 2)
    #expect(timestamps[0] > 0)
    #expect(timestamps[1] >= timestamps[0] + durations[0])
  }

  /// The observed store writes its events a property at a time (`EventFields`): each stored
  /// property of `ActionEvent` is written, with the value `ActionEvent.init` would give it, and
  /// what an observer leaves is destroyed.
  @Test func theEventHoldsEveryPropertyAndIsDestroyed() {
    final class Token {}
    struct Held {
      var token: Token?
      var count = 0
    }
    struct Feature: Reducer {
      func reduce(into state: inout Held, action: Int) -> Effect<Int> {
        state.count += action
        state.token = nil
        return .none
      }
    }
    var events: [ActionEvent<Held, Int>] = []
    weak var token: Token?
    do {
      let held = Token()
      token = held
      let store = Store(initialState: Held(token: held), observer: { events.append($0) }) {
        Feature()
      }
      store.send(5)
      store.send(2)
    }
    // NB: An `ActionEvent` property the store does not write is left out of this list, or
    // uninitialized memory is read above.
    #expect(
      Mirror(reflecting: events[0]).children.map(\.label) == [
        "id", "action", "origin", "stateBefore", "stateAfter", "route", "ownEffectCounts",
        "timestamp", "duration",
      ])
    #expect(events.map(\.id) == [1, 2])
    #expect(events.map(\.action) == [5, 2])
    #expect(events.map(\.origin) == [.send, .send])
    #expect(events.map(\.stateBefore.count) == [0, 5])
    #expect(events.map(\.stateAfter.count) == [5, 7])
    #expect(events[0].stateBefore.token != nil)
    #expect(events[0].stateAfter.token == nil)
    #expect(events.map(\.route.isEmpty) == [true, true])
    #expect(events.map(\.ownEffectCounts) == [[0], [0]])
    #expect(events[0].timestamp > 0)
    #expect(events[1].timestamp >= events[0].timestamp + events[0].duration)
    // NB: The events the store made and the observer copied are destroyed: only the copies
    // kept here hold the token.
    #expect(token != nil)
    events.removeAll()
    #expect(token == nil)
  }
}
