import Foundation
import Composable
// NB: `Transaction` is `Composable`'s stand-in where SwiftUI is not, and SwiftUI's where it is.
#if canImport(SwiftUI)
  import SwiftUI
#endif
import CustomDump
import TestSupport
import Testing

/// A counter that can tick on the clock until it is cancelled.
@Reducer
private struct Ticker {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }

  enum Action: Equatable {
    case incrementButtonTapped
    case startButtonTapped
    case tick
  }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped, .tick:
        state.count += 1
        return .none
      case .startButtonTapped:
        return .run { send in
          while true {
            try await self.clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      }
    }
  }
}

@Reducer(state: .equatable)
private enum TickerDestination {
  case ticker(Ticker)
  @ReducerCaseIgnored
  case note(String)
}

@Reducer(state: .equatable)
private enum TickerPath {
  case ticker(Ticker)
}

/// A parent that presents a ticker and pushes tickers on a stack.
@Reducer
private struct Navigator {
  @ObservableState
  struct State: Equatable {
    @Presents var destination: TickerDestination.State?
    var path = StackState<TickerPath.State>()
    var dismissals = 0
  }

  enum Action {
    case destination(PresentationAction<TickerDestination.Action>)
    case path(StackActionOf<TickerPath>)
    case presentTickerButtonTapped
    case presentNoteButtonTapped
    case pushTickerButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .destination(.dismiss):
        state.dismissals += 1
        return .none
      case .destination, .path:
        return .none
      case .presentTickerButtonTapped:
        state.destination = .ticker(Ticker.State())
        return .none
      case .presentNoteButtonTapped:
        state.destination = .note("Hello")
        return .none
      case .pushTickerButtonTapped:
        state.path.append(.ticker(Ticker.State()))
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path)
  }
}

@MainActor
@Suite(.hangGuard)
struct NavigationTests {
  /// As TCA's: `PresentationAction` is `Codable` when its child's action is, as Swift would
  /// synthesize it; a recording keeps such actions' JSON, and a replay decodes them.
  @Test func presentationActionIsCodableWhenItsActionIs() throws {
    enum Child: Codable, Equatable {
      case tapped(Int)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let actions: [PresentationAction<Child>] = [.presented(.tapped(3)), .dismiss]
    let json = try actions.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
    #expect(json == [#"{"presented":{"_0":{"tapped":{"_0":3}}}}"#, #"{"dismiss":{}}"#])
    #expect(
      try json.map { try JSONDecoder().decode(PresentationAction<Child>.self, from: Data($0.utf8)) }
        == actions)
  }

  private func makeStore(
    clock: TestClock<Duration> = TestClock(),
    observer: @escaping @MainActor (ActionEvent<Navigator.State, Navigator.Action>) -> Void = { _ in
    }
  ) -> StoreOf<Navigator> {
    Store(initialState: Navigator.State(), observer: observer) {
      Navigator()
    } withDependencies: {
      $0.continuousClock = clock
      $0.stackElementID = .incrementing
    }
  }

  @Test func aPresentedFeatureRunsUntilItIsDismissed() {
    let store = makeStore()
    store.send(.presentTickerButtonTapped)
    store.send(.destination(.presented(.ticker(.incrementButtonTapped))))
    #expect(store.destination == .ticker(Ticker.State(count: 1)))
    store.send(.destination(.dismiss))
    #expect(store.destination == nil)
    #expect(store.dismissals == 1)
  }

  @Test func dismissingCancelsThePresentedFeaturesEffects() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    store.send(.presentTickerButtonTapped)
    store.send(.destination(.presented(.ticker(.startButtonTapped))))
    await clock.tick(seconds: 2)
    #expect(store.destination == .ticker(Ticker.State(count: 2)))
    store.send(.destination(.dismiss))
    // NB: The effect is cancelled, so no tick arrives for a destination that is gone, which
    // would be reported as an issue.
    await clock.advance(by: .seconds(5))
    await store.finish()
    #expect(store.destination == nil)
  }

  @Test func aChildActionWhileNothingIsPresentedIsAnIssue() {
    let store = makeStore()
    withKnownIssue {
      store.send(.destination(.presented(.ticker(.incrementButtonTapped))))
    } matching: { issue in
      issue.description.contains("received a child action when child state was \"nil\"")
    }
  }

  @Test func aCaseOfPlainDataHasNoFeature() {
    let store = makeStore()
    store.send(.presentNoteButtonTapped)
    #expect(store.destination == .note("Hello"))
    #expect(store.destination?.note == "Hello")
    #expect(store.destination?.ticker == nil)
  }

  @Test func stackElementsAreAddressedByID() {
    let store = makeStore()
    store.send(.pushTickerButtonTapped)
    store.send(.pushTickerButtonTapped)
    #expect(Array(store.path.ids) == [0, 1])
    store.send(.path(.element(id: 1, action: .ticker(.incrementButtonTapped))))
    expectNoDifference(
      Array(store.path), [.ticker(Ticker.State()), .ticker(Ticker.State(count: 1))]
    )
    #expect(store.path[id: 1]?.ticker?.count == 1)
    store.send(.path(.popFrom(id: 0)))
    #expect(store.path.isEmpty)
  }

  @Test func pushingTakesTheGivenIDAndLaterIDsComeAfterIt() {
    let store = makeStore()
    store.send(.path(.push(id: 5, state: .ticker(Ticker.State(count: 7)))))
    store.send(.pushTickerButtonTapped)
    #expect(Array(store.path.ids) == [5, 6])
    #expect(store.path[id: 5]?.ticker?.count == 7)
  }

  @Test func poppingCancelsTheElementsEffects() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    store.send(.pushTickerButtonTapped)
    store.send(.path(.element(id: 0, action: .ticker(.startButtonTapped))))
    await clock.tick(seconds: 3)
    #expect(store.path[id: 0]?.ticker?.count == 3)
    store.send(.path(.popFrom(id: 0)))
    await clock.advance(by: .seconds(3))
    await store.finish()
    #expect(store.path.isEmpty)
  }

  @Test func anActionForAMissingElementIsAnIssue() {
    let store = makeStore()
    withKnownIssue {
      store.send(.path(.element(id: 3, action: .ticker(.incrementButtonTapped))))
    } matching: { issue in
      issue.description.contains("received an action for a missing element")
    }
  }

  @Test func routesNameTheDestinationAndTheStackElement() {
    var statePaths: [String] = []
    let store = makeStore { statePaths.append($0.route.statePath) }
    store.send(.presentTickerButtonTapped)
    store.send(.destination(.presented(.ticker(.incrementButtonTapped))))
    store.send(.pushTickerButtonTapped)
    store.send(.path(.element(id: 0, action: .ticker(.incrementButtonTapped))))
    expectNoDifference(statePaths, ["", "destination.ticker", "", "path[id: 0].ticker"])
  }

  @Test func aStoreScopedToAnOptionalChildIsThereWhileTheChildIs() {
    let store = makeStore()
    #expect(store.scope(state: \.destination, action: \.destination.presented) == nil)
    store.send(.presentTickerButtonTapped)
    let destination = store.scope(state: \.destination, action: \.destination.presented)
    guard case let .ticker(ticker)? = destination?.case else {
      Issue.record("Expected the ticker case")
      return
    }
    ticker.send(.incrementButtonTapped)
    #expect(store.destination?.ticker?.count == 1)
  }
}

/// A feature whose state is one of two cases, each with its feature.
@Reducer
private struct Session {
  @ObservableState
  enum State: Equatable {
    case loggedOut(Ticker.State)
    case loggedIn(Ticker.State)
  }

  enum Action {
    case loggedOut(Ticker.Action)
    case loggedIn(Ticker.Action)
    case logInButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      guard case .logInButtonTapped = action else { return .none }
      state = .loggedIn(Ticker.State())
      return .none
    }
    .ifCaseLet(\.loggedOut, action: \.loggedOut) { Ticker() }
    .ifCaseLet(\.loggedIn, action: \.loggedIn) { Ticker() }
  }
}

@MainActor
@Suite(.hangGuard)
struct IfCaseLetTests {
  @Test func theCasesFeatureRunsWhileTheStateIsInThatCase() async {
    let clock = TestClock()
    var statePaths: [String] = []
    let store = Store(
      initialState: Session.State.loggedOut(Ticker.State()),
      observer: { statePaths.append($0.route.statePath) }
    ) {
      Session()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.loggedOut(.incrementButtonTapped))
    #expect(store.state == .loggedOut(Ticker.State(count: 1)))
    store.send(.loggedOut(.startButtonTapped))
    await clock.tick(seconds: 1)
    store.send(.logInButtonTapped)
    // NB: Leaving the case cancelled the ticking; a tick now would be an issue.
    await clock.advance(by: .seconds(3))
    await store.finish()
    #expect(store.state == .loggedIn(Ticker.State()))
    #expect(statePaths == ["loggedOut", "loggedOut", "loggedOut", ""])

    withKnownIssue {
      store.send(.loggedOut(.incrementButtonTapped))
    } matching: { issue in
      issue.description.contains("child state was set to a different case")
    }
  }
}

/// A form whose fields are set by binding actions.
@Reducer
private struct Profile {
  @ObservableState
  struct State: Equatable {
    var name = ""
    var nameEdits = 0
    var isPublic = false
  }

  enum Action: BindableAction {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.name):
        state.nameEdits += 1
        return .none
      case .binding:
        return .none
      }
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct BindingTests {
  @Test func bindingReducerSetsTheFieldAndTheReducerMatchesIt() {
    let store = Store(initialState: Profile.State()) { Profile() }
    store.send(.binding(.set(\.name, "Blob")))
    store.send(.binding(.set(\.isPublic, true)))
    #expect(store.state == Profile.State(name: "Blob", nameEdits: 1, isPublic: true))
  }

  /// As TCA's: a binding action has a case path per field of its `@ObservableState` root.
  @Test func aBindingActionsCasePathsReadAndMakeIt() {
    let action = BindingAction<Profile.State>.set(\.name, "Blob")
    let name: String? = action[case: \.name]
    let isPublic: Bool? = action[case: \.isPublic]
    #expect(name == "Blob")
    #expect(isPublic == nil)
    #expect(
      BindingAction<Profile.State>.allCasePaths.isPublic.embed(true) == .set(\.isPublic, true))
  }
}

@MainActor
@Suite(.hangGuard)
struct ObservableStateTests {
  @Test func stateStaysAValueWhoseEqualityIgnoresIdentity() {
    var a = Ticker.State()
    let b = Ticker.State()
    #expect(a == b)
    #expect(a._$id != b._$id)
    let copy = a
    #expect(copy._$id == a._$id)
    a._$willModify()
    #expect(copy._$id != a._$id)
    #expect(copy == a)
    // NB: What CustomDump shows, and so what a trace records, is the fields alone.
    #expect(String(customDumping: a) == "Ticker.State(\n  count: 0\n)")
  }

  @Test func anEnumStateTakesItsCasesIdentity() {
    let ticker = Ticker.State()
    let destination = TickerDestination.State.ticker(ticker)
    #expect(destination._$id == ObservableStateID._$id(for: ticker)._$tag(0))
    #expect(TickerDestination.State.note("a")._$id != TickerDestination.State.note("a")._$id)
  }
}

/// A parent whose state is one of two cases, scoping each case to its feature.
@Reducer
private struct Gate {
  @ObservableState
  @CasePathable
  enum State: Equatable {
    case closed(Ticker.State)
    case open(Ticker.State)
  }

  enum Action: ViewAction {
    case closed(Ticker.Action)
    case open(Ticker.Action)
    case view(View)
    enum View { case openButtonTapped }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.closed, action: \.closed) { Ticker() }
    Scope(state: \.open, action: \.open) { Ticker() }
    Reduce { state, action in
      guard case .view(.openButtonTapped) = action else { return .none }
      state = .open(Ticker.State())
      return .send(.open(.incrementButtonTapped), animation: .easeInOut(duration: 0.3))
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct SmallShapesTests {
  @Test func scopeOnACaseRunsTheChildWhileTheStateIsInIt() {
    var statePaths: [String] = []
    let store = Store(
      initialState: Gate.State.closed(Ticker.State()),
      observer: { statePaths.append($0.route.statePath) }
    ) {
      Gate()
    }
    store.send(.closed(.incrementButtonTapped), animation: .default)
    store.send(.view(.openButtonTapped), transaction: Transaction(animation: .spring))
    #expect(store.state == .open(Ticker.State(count: 1)))
    #expect(statePaths == ["closed", "", "open"])
    withKnownIssue {
      store.send(.closed(.incrementButtonTapped))
    } matching: { issue in
      issue.description.contains("A \"Scope\"")
        && issue.description.contains("child state was set to a different case")
    }
  }

  @Test func effectsTakeANameAndSendWithAnimation() async {
    let store = Store(initialState: Ticker.State()) {
      Reduce<Ticker.State, Ticker.Action> { state, action in
        switch action {
        case .startButtonTapped:
          return .run(name: "ticker") { send in
            await send(.tick, animation: .bouncy)
            await send(.tick, transaction: Transaction())
          }
          .animation(.smooth)
        case .incrementButtonTapped, .tick:
          state.count += 1
          return .none
        }
      }
    }
    await store.send(.startButtonTapped).finish()
    #expect(store.count == 2)
  }
}

/// A settings form whose view actions are bindable.
@Reducer
private struct Form {
  @ObservableState
  struct State: Equatable {
    var name = ""
  }

  enum Action {
    case view(View)

    enum View: BindableAction {
      case binding(BindingAction<State>)
    }
  }

  var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
  }
}

@MainActor
@Suite(.hangGuard)
struct StackStateAndFormTests {
  @Test func popToKeepsTheElementAndThoseBelowIt() {
    withDependencies {
      $0.stackElementID = .incrementing
    } operation: {
      var stack = StackState<Int>([10, 20, 30])
      #expect(Array(stack.ids) == [0, 1, 2])
      stack.pop(to: 1)
      #expect(Array(stack) == [10, 20])
      stack.append(40)
      #expect(Array(stack.ids) == [0, 1, 3])
      stack[id: 0] = nil
      #expect(Array(stack) == [20, 40])
    }
  }

  @Test func inATestAssigningAnElementToAnIDNotOnTheStackPushesIt() {
    // NB: As in TCA: what `$0.path[id: 0] = .detail(…)` in a TestStore's assertion relies on.
    var stack = StackState<Int>()
    stack[id: 5] = 50
    stack[id: 7] = 70
    stack[id: 5] = 55
    #expect(Array(stack.ids) == [5, 7])
    #expect(Array(stack) == [55, 70])
  }

  @Test func bindingReducerReadsABindableViewAction() {
    let store = Store(initialState: Form.State()) { Form() }
    store.send(.view(.binding(.set(\.name, "Blob"))))
    #expect(store.name == "Blob")
  }

  @Test func anEffectsTransactionIsAcceptedAndIgnored() async {
    let store = Store(initialState: Ticker.State()) {
      Reduce<Ticker.State, Ticker.Action> { state, action in
        switch action {
        case .startButtonTapped:
          return .send(.tick).transaction(Transaction(animation: .default))
        case .incrementButtonTapped, .tick:
          state.count += 1
          return .none
        }
      }
    }
    await store.send(.startButtonTapped).finish()
    #expect(store.count == 1)
  }
}

/// What TCA's SwiftUI view for `Gate` holds, without SwiftUI: its store, and taps that send
/// view actions.
@ViewAction(for: Gate.self)
@MainActor
private struct GateView {
  let store: StoreOf<Gate>

  func openButtonTapped() {
    send(.openButtonTapped)
  }

  func openButtonTappedWithAnimation() {
    send(.openButtonTapped, animation: .default)
  }
}

@MainActor
@Suite(.hangGuard)
struct ViewActionSendingTests {
  @Test func aViewSendsItsActionsThroughTheViewCase() {
    var actions: [String] = []
    let store = Store(
      initialState: Gate.State.closed(Ticker.State()),
      observer: { (event: ActionEvent<Gate.State, Gate.Action>) in
        actions.append("\(event.action)")
      }
    ) {
      Gate()
    }
    let view = GateView(store: store)
    view.openButtonTapped()
    #expect(store.state == .open(Ticker.State(count: 1)))
    view.openButtonTappedWithAnimation()
    #expect(store.state == .open(Ticker.State(count: 1)))
    let viewAction = "\(Gate.Action.view(.openButtonTapped))"
    let increment = "\(Gate.Action.open(.incrementButtonTapped))"
    #expect(actions == [viewAction, increment, viewAction, increment])
  }
}
