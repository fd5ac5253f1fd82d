import Foundation
import TCATrace
import Testing

/// The route of an action on TCA, which the recorder derives from the action and the state, and
/// keeps with the action's chain of cases where nothing else decides it: every action of a
/// chain, the first (derived) and the next (kept), is recorded alike.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct RouteOnTCATests {
  @Test func actionsOfOneChainAreRoutedAlikeWhetherTheRouteIsDerivedOrKept() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("tcatrace-route-\(UUID().uuidString).db").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path, session: "pair", policy: .recordOnly)
    let store = RecordingStore(initialState: Pair.State(), recorder: recorder) { Pair() }
    for _ in 0..<3 { store.send(.first(.view(.tapped))) }
    // An optional child: whether it is there is the state's, so its route is derived each time.
    for _ in 0..<2 { store.send(.second(.view(.tapped))) }
    store.send(.first(.view(.reset)))
    store.send(.first(.view(.tapped)))
    #expect(store.first.count == 1)
    #expect(store.second?.isOn == false)
    #expect(store.total == 4)
    try await recorder.close()

    let actions = try TraceReader(path: path).actions()
    #expect(
      actions.map { "\($0.path) \($0.feature) \($0.statePath)" } == [
        "first.view.tapped first first",
        "first.view.tapped first first",
        "first.view.tapped first first",
        "second.view.tapped second second",
        "second.view.tapped second second",
        "first.view.reset first first",
        "first.view.tapped first first",
      ]
    )
    // The parent reacts to the first child's taps, a private action, each time: a leak found
    // from the route, derived for the first tap and kept for the others.
    #expect(
      actions.map { $0.leaks.map(\.rule.rawValue) } == [
        ["parent-reacts-to-private-child-action"],
        ["parent-reacts-to-private-child-action"],
        ["parent-reacts-to-private-child-action"],
        [],
        [],
        [],
        ["parent-reacts-to-private-child-action"],
      ]
    )
  }
}

@Reducer
struct Counter {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }

  @CasePathable
  enum Action: Equatable {
    @CasePathable
    enum View: Equatable {
      case tapped
      case reset
    }
    case view(View)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .view(.tapped):
        state.count += 1
      case .view(.reset):
        state.count = 0
      }
      return .none
    }
  }
}

/// A switch: the optional child of ``Pair``.
@Reducer
struct Switch {
  @ObservableState
  struct State: Equatable {
    var isOn = false
  }

  @CasePathable
  enum Action: Equatable {
    @CasePathable
    enum View: Equatable {
      case tapped
    }
    case view(View)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      state.isOn.toggle()
      return .none
    }
  }
}

/// A counter held directly and a switch held in an optional (the route names a child after the
/// one property that holds its state); the parent counts the counter's taps itself, as no
/// parent should.
@Reducer
struct Pair {
  @ObservableState
  struct State: Equatable {
    var first = Counter.State()
    var second: Switch.State? = Switch.State()
    var total = 0
  }

  @CasePathable
  enum Action: Equatable {
    case first(Counter.Action)
    case second(Switch.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.first, action: \.first) { Counter() }
    Reduce { state, action in
      if case .first(.view(.tapped)) = action { state.total += 1 }
      return .none
    }
    .ifLet(\.second, action: \.second) { Switch() }
  }
}
