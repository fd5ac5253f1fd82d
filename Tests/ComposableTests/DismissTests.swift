import Composable
import TestSupport
import Testing

/// A feature that can close itself, tell whether it is presented, and tick until cancelled.
@Reducer
private struct Sheet {
  @ObservableState
  struct State: Equatable, Identifiable {
    var id: Int
    var count = 0
    var wasPresented: Bool?
  }

  enum Action: Equatable {
    case checkPresentationButtonTapped
    case closeButtonTapped
    case startButtonTapped
    case tick
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.isPresented) var isPresented

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .checkPresentationButtonTapped:
        state.wasPresented = self.isPresented
        return .none
      case .closeButtonTapped:
        return .run { _ in await self.dismiss() }
      case .startButtonTapped:
        return .run { send in
          while true {
            try await self.clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        state.count += 1
        return .none
      }
    }
  }
}

@Reducer(state: .equatable)
private enum HostDestination {
  case sheet(Sheet)
  case popover(Sheet)
}

@Reducer(state: .equatable)
private enum HostPath {
  case sheet(Sheet)
}

/// Presents sheets and popovers, and pushes sheets; it counts the dismissals it sees.
@Reducer
private struct Host {
  @ObservableState
  struct State: Equatable {
    @Presents var destination: HostDestination.State?
    var path = StackState<HostPath.State>()
    var dismissalsSeen = 0
  }

  enum Action {
    case destination(PresentationAction<HostDestination.Action>)
    case path(StackActionOf<HostPath>)
    case presentSheet(id: Int)
    case presentPopover(id: Int)
    case push(id: Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .destination(.dismiss):
        // NB: The parent sees the dismissal before `ifLet` ends the presentation.
        if state.destination != nil { state.dismissalsSeen += 1 }
        return .none
      case .destination, .path:
        return .none
      case let .presentSheet(id):
        state.destination = .sheet(Sheet.State(id: id))
        return .none
      case let .presentPopover(id):
        state.destination = .popover(Sheet.State(id: id))
        return .none
      case let .push(id):
        state.path.append(.sheet(Sheet.State(id: id)))
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path)
  }
}

@MainActor
@Suite(.hangGuard)
struct DismissTests {
  private func makeStore(
    initialState: Host.State = Host.State(),
    clock: TestClock<Duration> = TestClock(),
    events: LockIsolated<[String]> = LockIsolated([])
  ) -> StoreOf<Host> {
    Store(
      initialState: initialState,
      observer: { event in
        let line = "\(event.origin) \(event.action)"
        events.withValue { $0.append(line) }
      }
    ) {
      Host()
    } withDependencies: {
      $0.continuousClock = clock
      $0.stackElementID = .incrementing
    }
  }

  @Test func aPresentedFeatureDismissesItself() async {
    let events = LockIsolated<[String]>([])
    let store = makeStore(events: events)
    store.send(.presentSheet(id: 1))
    store.send(.destination(.presented(.sheet(.closeButtonTapped))))
    await store.finish()
    #expect(store.destination == nil)
    #expect(store.dismissalsSeen == 1)
    // The dismissal is an effect of the action that presented the feature.
    #expect(events.value.last == "effect(cause: 1) \(Host.Action.destination(.dismiss))")
    #expect(events.value.count == 3)
  }

  @Test func finishReturnsWhileAFeatureIsPresented() async {
    let store = makeStore()
    store.send(.presentSheet(id: 1))
    store.send(.push(id: 2))
    await store.finish()
    #expect(store.destination == .sheet(Sheet.State(id: 1)))
    #expect(Array(store.path.ids) == [0])
  }

  @Test func dismissingItselfCancelsTheFeaturesEffects() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    store.send(.presentSheet(id: 1))
    store.send(.destination(.presented(.sheet(.startButtonTapped))))
    await clock.tick(seconds: 2)
    #expect(store.destination == .sheet(Sheet.State(id: 1, count: 2)))
    store.send(.destination(.presented(.sheet(.closeButtonTapped))))
    await store.finish()
    #expect(store.destination == nil)
    // NB: A tick after the dismissal would reach an `ifLet` with no child: an issue.
    await clock.advance(by: .seconds(5))
    await store.finish()
    #expect(store.destination == nil)
  }

  @Test func aStackElementDismissesItselfByPoppingFromTheStack() async {
    let events = LockIsolated<[String]>([])
    let store = makeStore(events: events)
    store.send(.push(id: 1))
    store.send(.push(id: 2))
    store.send(.push(id: 3))
    store.send(.path(.element(id: 1, action: .sheet(.closeButtonTapped))))
    await store.finish()
    #expect(Array(store.path.ids) == [0])
    #expect(events.value.last == "effect(cause: 2) \(Host.Action.path(.popFrom(id: 1)))")
  }

  @Test func aFeatureKnowsWhetherItIsPresented() {
    let store = makeStore()
    store.send(.presentSheet(id: 1))
    store.send(.destination(.presented(.sheet(.checkPresentationButtonTapped))))
    store.send(.push(id: 2))
    store.send(.path(.element(id: 0, action: .sheet(.checkPresentationButtonTapped))))
    #expect(store.destination?.sheet?.wasPresented == true)
    #expect(store.path[id: 0]?.sheet?.wasPresented == true)

    let root = Store(initialState: Sheet.State(id: 1)) { Sheet() }
    root.send(.checkPresentationButtonTapped)
    #expect(root.wasPresented == false)
  }

  @Test func dismissingAFeatureThatIsNotPresentedIsAnIssue() async {
    let store = Store(initialState: Sheet.State(id: 1)) { Sheet() }
    await withKnownIssue {
      await store.send(.closeButtonTapped).finish()
    } matching: { issue in
      issue.description.contains(
        "A reducer requested dismissal at \"ComposableTests/DismissTests.swift:")
        && issue.description.contains("but couldn't be dismissed")
    }
  }

  @Test func aDismissEffectCanBeOverridden() async {
    let dismissed = LockIsolated(0)
    let store = Store(initialState: Sheet.State(id: 1)) {
      Sheet()
    } withDependencies: {
      $0.dismiss = DismissEffect { dismissed.withValue { $0 += 1 } }
    }
    await store.send(.closeButtonTapped).finish()
    #expect(dismissed.value == 1)
  }

  @Test func replacingTheDestinationEndsTheOldFeatureAndTheNewOneCanDismissItself() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    store.send(.presentSheet(id: 1))
    store.send(.destination(.presented(.sheet(.startButtonTapped))))
    await clock.tick(seconds: 1)
    store.send(.presentPopover(id: 2))
    // NB: A tick of the sheet's effect would reach a popover: an issue.
    await clock.advance(by: .seconds(3))
    #expect(store.destination == .popover(Sheet.State(id: 2)))

    store.send(.destination(.presented(.popover(.closeButtonTapped))))
    await store.finish()
    #expect(store.destination == nil)
    #expect(store.dismissalsSeen == 1)
  }

  @Test func aFeatureInTheInitialStateCanDismissItself() async {
    let events = LockIsolated<[String]>([])
    var state = Host.State(destination: .sheet(Sheet.State(id: 1)))
    state.path.append(.sheet(Sheet.State(id: 2)))
    let store = makeStore(initialState: state, events: events)
    store.send(.destination(.presented(.sheet(.closeButtonTapped))))
    await store.finish()
    #expect(store.destination == nil)
    store.send(.path(.element(id: 0, action: .sheet(.closeButtonTapped))))
    await store.finish()
    #expect(store.path.isEmpty)
    // Both dismissal effects start with the first action that reaches the `ifLet` and the
    // `forEach`.
    #expect(
      events.value.filter { $0.hasPrefix("effect") } == [
        "effect(cause: 1) \(Host.Action.destination(.dismiss))",
        "effect(cause: 1) \(Host.Action.path(.popFrom(id: 0)))",
      ]
    )
  }

  @Test func aFeaturePresentedAgainCanDismissItselfAgain() async {
    let store = makeStore()
    for round in 1...3 {
      store.send(.presentSheet(id: round))
      store.send(.destination(.presented(.sheet(.closeButtonTapped))))
      await store.finish()
      #expect(store.destination == nil)
    }
    #expect(store.dismissalsSeen == 3)
  }
}

@MainActor
@Suite(.hangGuard)
struct StoreLifetimeTests {
  @Test func aStoreThatGoesAwayCancelsItsEffects() async {
    let clock = TestClock()
    var store: StoreOf<Sheet>? = Store(initialState: Sheet.State(id: 1)) {
      Sheet()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store?.send(.startButtonTapped)
    await clock.tick(seconds: 1)
    #expect(store?.count == 1)
    weak let released = store
    store = nil
    #expect(released == nil)
    // NB: The ticking effect never ends on its own, and the clock does not move again: this
    // returns, within the suite's time limit, only because the effect was cancelled.
    await task?.finish()
  }
}
