// A second app for the comparison of the two hosts (Tests/RealTCA/check.sh): the same file
// is compiled against `Composable` here (`tcatrace-fixture record-library`) and against
// pointfreeco's TCA in Tests/RealTCA. It has what the example app lacks: an `@Reducer enum`
// destination holding a feature and an alert, a stack of an enum reducer, an effect that is
// cancelled, bindings, a dependency, a feature whose state is an enum (`ifCaseLet`), and
// planted leaks.

import Foundation
import TCATrace

/// A book, read page by page; reading starts a timer that a stop, or leaving, cancels.
@Reducer
public struct Book {
  @ObservableState
  public struct State: Equatable {
    public var title: String
    public var page = 0
    public var isReading = false
    public var note = ""
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Equatable {
    @CasePathable
    public enum ViewAction: BindableAction, Equatable {
      case binding(BindingAction<State>)
      case startTapped
      case slowStartTapped
      case stopTapped
    }
    @CasePathable public enum InternalAction: Equatable { case tick }
    @CasePathable public enum DelegateAction: Equatable { case finished(title: String) }
    case view(ViewAction)
    case _internal(InternalAction)
    case delegate(DelegateAction)
  }

  private enum CancelID { case reading }

  @Dependency(\.continuousClock) var clock

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      switch action {
      case .view(.binding):
        return .none
      case .view(.startTapped):
        state.isReading = true
        return .run { [clock] send in
          for _ in 0..<2 {
            try await clock.sleep(for: .milliseconds(1))
            await send(._internal(.tick))
          }
        }
        .cancellable(id: CancelID.reading)
      case .view(.slowStartTapped):
        // NB: A real hour, which only a stop ends.
        state.isReading = true
        return .run { send in
          try await Task.sleep(for: .seconds(3600))
          await send(._internal(.tick))
        }
        .cancellable(id: CancelID.reading)
      case .view(.stopTapped):
        state.isReading = false
        return .cancel(id: CancelID.reading)
      case ._internal(.tick):
        state.page += 1
        return state.page == 2 ? .send(.delegate(.finished(title: state.title))) : .none
      case .delegate:
        return .none
      }
    }
  }
}

@Reducer
public enum LibraryDestination {
  case book(Book)
  case alert(AlertState<Library.Action.Alert>)
}

@Reducer
public enum LibraryPath {
  case book(Book)
}

/// What the library's reading corner shows: an enum state scoped as a whole.
@Reducer
public enum LibraryMode {
  case browsing(Book)
  case reading(Book)
}

extension LibraryDestination.State: Equatable {}
extension LibraryDestination.Action: Equatable {}
extension LibraryPath.State: Equatable {}
extension LibraryPath.Action: Equatable {}
extension LibraryMode.State: Equatable {}
extension LibraryMode.Action: Equatable {}

/// A shelf with one book, written with the boundaries: it leaks by returning an effect for its
/// book's view action.
@Reducer
public struct Shelf: ComposedBoundingReducer {
  @ObservableState
  public struct State: Equatable {
    public var book = Book.State(title: "Ulysses")
    public var lookups = 0
    /// How many books are out, shared with the library.
    @Shared(.inMemory("borrowed")) public var borrowed = 0
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Equatable {
    @CasePathable public enum ViewAction: Equatable { case onAppear }
    @CasePathable public enum InternalAction: Equatable {
      case book(Book.Action)
      case lookedUp
    }
    @CasePathable public enum DelegateAction: Equatable {}
    case view(ViewAction)
    case _internal(InternalAction)
    case delegate(DelegateAction)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.book, action: \.book) { Book() }
    coreReducer
  }

  public func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<
    Action
  > {
    .none
  }

  public func reduce(into state: inout State, internalAction action: Action.InternalAction)
    -> Effect<Action>
  {
    switch action {
    case .book(.view(.stopTapped)):
      // LEAK: returns an effect for its book's view action.
      return .send(._internal(.lookedUp))
    case .lookedUp:
      state.lookups += 1
      state.$borrowed.withLock { $0 += 1 }
      return .none
    case .book:
      return .none
    }
  }
}

/// A desk, idle or reading a book: a feature whose state is an enum, with `ifCaseLet`.
@Reducer
public struct Desk {
  @ObservableState
  @CasePathable
  public enum State: Equatable {
    case idle
    case reading(Book.State)
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Equatable {
    @CasePathable public enum ViewAction: Equatable { case sitTapped }
    @CasePathable public enum InternalAction: Equatable { case reading(Book.Action) }
    @CasePathable public enum DelegateAction: Equatable {}
    case view(ViewAction)
    case _internal(InternalAction)
    case delegate(DelegateAction)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .view(.sitTapped):
        state = .reading(Book.State(title: "Walden"))
        return .none
      case ._internal, .delegate:
        return .none
      }
    }
    .ifCaseLet(\.reading, action: \._internal.reading) { Book() }
  }
}

/// Presents a book, or an alert asking before returning every book, and pushes books.
@Reducer
public struct Library {
  @ObservableState
  public struct State: Equatable {
    @Presents public var destination: LibraryDestination.State?
    public var path = StackState<LibraryPath.State>()
    public var finished: [String] = []
    public var returned = 0
    public var peeks = 0
    public var shelf = Shelf.State()
    public var mode = LibraryMode.State.browsing(Book.State(title: "Middlemarch"))
    public var desk = Desk.State.idle
    /// How many books are out, shared with the shelf.
    @Shared(.inMemory("borrowed")) public var borrowed = 0

    public init() {}
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Equatable {
    @CasePathable public enum ViewAction: Equatable {
      case openTapped, pushTapped, returnAllTapped, borrowTwiceTapped
    }
    @CasePathable public enum InternalAction: Equatable {
      case destination(PresentationAction<LibraryDestination.Action>)
      case path(StackActionOf<LibraryPath>)
      case shelf(Shelf.Action)
      case mode(LibraryMode.Action)
      case desk(Desk.Action)
    }
    @CasePathable public enum DelegateAction: Equatable {}
    @CasePathable public enum Alert: Equatable { case confirmReturnAll }
    case view(ViewAction)
    case _internal(InternalAction)
    case delegate(DelegateAction)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.shelf, action: \._internal.shelf) { Shelf() }
    Scope(state: \.mode, action: \._internal.mode) { LibraryMode.body }
    Scope(\.desk, action: \.desk) { Desk() }
    Reduce { state, action in
      switch action {
      case .view(.openTapped):
        state.destination = .book(Book.State(title: "Dune"))
        return .none
      case .view(.borrowTwiceTapped):
        // Two changes of one shared value in one action: recorded as one, from its value before.
        state.$borrowed.withLock { $0 += 1 }
        state.$borrowed.withLock { $0 += 1 }
        return .none
      case .view(.pushTapped):
        state.path.append(.book(Book.State(title: "Emma")))
        return .none
      case .view(.returnAllTapped):
        state.destination = .alert(
          AlertState {
            TextState("Return all?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmReturnAll) { TextState("Return") }
            ButtonState(role: .cancel) { TextState("Cancel") }
          }
        )
        return .none
      case ._internal(.destination(.presented(.alert(.confirmReturnAll)))):
        state.returned += 1
        return .none
      case let ._internal(.destination(.presented(.book(.delegate(.finished(title)))))),
        let ._internal(.path(.element(_, .book(.delegate(.finished(title)))))):
        state.finished.append(title)
        return .none
      case ._internal(.path(.element(_, .book(.view(.stopTapped))))):
        // LEAK: reacts to a stack element's view action.
        state.peeks += 1
        return .none
      case ._internal(.mode(.browsing(.view(.binding)))):
        // LEAK: returns an effect, and only that, for a view action of the book it browses.
        return .run { _ in }
      case ._internal:
        return .none
      }
    }
    .ifLet(\.$destination, action: \._internal.destination)
    .forEach(\.path, action: \._internal.path)
  }
}

/// The session both hosts record: every action sent, and waited for, the same way.
public enum LibraryScript {
  /// Records the session with `recorder`, in a store whose clock answers at once, and waits for
  /// its effects.
  @MainActor
  public static func record(to recorder: TraceRecorder) async {
    let store = RecordingStore(initialState: Library.State(), recorder: recorder) {
      Library()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    // NB: The pause lets the store start an effect that does not end by itself: TCA can cancel
    // a `.run` only once it runs.
    await self.run(settle: store.finish, pause: { try? await Task.sleep(for: .milliseconds(100)) })
    {
      store.send($0)
    }
    await store.finish()
  }

  @MainActor
  private static func run(
    settle: () async -> Void, pause: () async -> Void, send: (Library.Action) -> Void
  ) async {
    func book(_ action: Book.Action) { send(._internal(.destination(.presented(.book(action))))) }
    func pushed(_ action: Book.Action) {
      send(._internal(.path(.element(id: StackElementID.first, action: .book(action)))))
    }

    send(.view(.openTapped))
    book(.view(.binding(.set(\.note, "Spice"))))
    book(.view(.startTapped))
    await settle()
    send(._internal(.destination(.dismiss)))
    send(.view(.pushTapped))
    pushed(.view(.slowStartTapped))
    await pause()
    pushed(.view(.stopTapped))
    await settle()
    send(.view(.returnAllTapped))
    send(._internal(.destination(.presented(.alert(.confirmReturnAll)))))
    await settle()
    send(._internal(.shelf(._internal(.book(.view(.stopTapped))))))
    await settle()
    send(._internal(.mode(.browsing(.view(.binding(.set(\.note, "Dorothea")))))))
    await settle()
    send(._internal(.desk(.view(.sitTapped))))
    send(._internal(.desk(._internal(.reading(.view(.binding(.set(\.note, "Ponds"))))))))
    send(.view(.borrowTwiceTapped))
  }
}

// NB: A stack element's id is made from its generation, which TCA keeps behind an SPI (and
// allows as a literal only in tests).
#if canImport(ComposableArchitecture)
  @_spi(Internals) import ComposableArchitecture
#endif

extension StackElementID {
  /// The id of the first element a store pushes.
  fileprivate static var first: Self {
    #if canImport(ComposableArchitecture)
      Self(generation: 0)
    #else
      0
    #endif
  }
}
