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

/// A reference whose end the tests watch: held by actions and states, it is let go of when
/// every event holding it has been destroyed.
private final class Token: Sendable {}

/// A parent whose `start` sends its child, through an effect, the token it is given.
private struct TokenParent: Reducer {
  struct State {
    var held: Token?
    var child = TokenChild.State()
  }
  @CasePathable
  enum Action: Sendable {
    case start(Token)
    case child(TokenChild.Action)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .start(token):
        state.held = nil
        return .send(.child(.tapped(token)))
      case .child:
        return .none
      }
    }
    Scope(state: \.child, action: \.child) { TokenChild() }
  }
}

private struct TokenChild: Reducer {
  struct State {
    var token: Token?
    var taps = 0
  }
  @CasePathable
  enum Action: Sendable {
    case tapped(Token)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .tapped(token):
      state.token = token
      state.taps += 1
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

  /// The store writes its events a property at a time (`ActionEventFields`), into one place it
  /// reuses: each stored property of `ActionEvent` is written, with what `ActionEvent.init`
  /// would give it, for each action; and what the observer leaves is destroyed (the states
  /// before and after, and the action: each holds a token here).
  @Test func theEventHoldsEveryPropertyAndIsDestroyed() {
    var events: [ActionEvent<TokenParent.State, TokenParent.Action>] = []
    weak var first: Token?
    weak var second: Token?
    do {
      let (held, sent) = (Token(), Token())
      (first, second) = (held, sent)
      let store = Store(
        initialState: TokenParent.State(held: held), observer: { events.append($0) }
      ) {
        TokenParent()
      }
      store.send(.start(sent))
    }
    // NB: A stored property of `ActionEvent` that the store does not write is missing here.
    #expect(
      Mirror(reflecting: events[0]).children.map(\.label) == [
        "id", "action", "origin", "stateBefore", "stateAfter", "route", "ownEffectCounts",
        "timestamp", "duration",
      ])
    #expect(events.map(\.id) == [1, 2])
    #expect(events[0].action.is(\.start))
    #expect(events[1].action.is(\.child.tapped))
    #expect(events.map(\.origin) == [.send, .effect(cause: 1)])
    #expect(events[0].stateBefore.held === first)
    #expect(events[0].stateAfter.held == nil)
    #expect(events[1].stateBefore.child.taps == 0)
    #expect(events[1].stateAfter.child.taps == 1)
    #expect(events[1].stateAfter.child.token === second)
    #expect(events.map(\.route.statePath) == ["", "child"])
    #expect(events.map(\.ownEffectCounts) == [[1], [0, 0]])
    #expect(events[0].timestamp > 0)
    #expect(events[1].timestamp >= events[0].timestamp + events[0].duration)
    // NB: Only the copies kept here hold the tokens: the events the store made were destroyed.
    #expect(first != nil)
    #expect(second != nil)
    events.removeAll()
    #expect(first == nil)
    #expect(second == nil)
  }
}
