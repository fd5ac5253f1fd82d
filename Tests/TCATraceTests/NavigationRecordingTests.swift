import CustomDump
import TCATrace
import TestSupport
import Testing

/// A screen with boundaries, presented or pushed by `Library`.
@Reducer
private struct Book {
  @ObservableState
  struct State: Equatable {
    var title = ""
    var pages = 0
  }

  @CasePathable
  enum Action: TCAFeatureAction, Equatable {
    @CasePathable enum ViewAction: Equatable { case pageTurned }
    @CasePathable enum InternalAction: Equatable { case bookmarked }
    @CasePathable enum DelegateAction: Equatable { case finished }
    case view(ViewAction)
    case _internal(InternalAction)
    case delegate(DelegateAction)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .view(.pageTurned):
        state.pages += 1
        return state.pages == 2 ? .send(.delegate(.finished)) : .none
      case ._internal, .delegate:
        return .none
      }
    }
  }
}

@Reducer
private enum LibraryDestination {
  case book(Book)
}

@Reducer
private enum LibraryPath {
  case book(Book)
}

extension LibraryDestination.State: Equatable {}
extension LibraryDestination.Action: Equatable {}
extension LibraryPath.State: Equatable {}
extension LibraryPath.Action: Equatable {}

/// Presents a book and pushes books; it reacts to its books' delegate actions only, except
/// where a test makes it leak.
@Reducer
private struct Library {
  @ObservableState
  struct State: Equatable {
    @Presents var destination: LibraryDestination.State?
    var path = StackState<LibraryPath.State>()
    var finished = 0
    var peeks = 0
  }

  @CasePathable
  enum Action: TCAFeatureAction, Equatable {
    @CasePathable enum ViewAction: Equatable { case openTapped, pushTapped }
    @CasePathable enum InternalAction: Equatable {
      case destination(PresentationAction<LibraryDestination.Action>)
      case path(StackActionOf<LibraryPath>)
    }
    @CasePathable enum DelegateAction: Equatable {}
    case view(ViewAction)
    case _internal(InternalAction)
    case delegate(DelegateAction)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .view(.openTapped):
        state.destination = .book(Book.State(title: "Dune"))
        return .none
      case .view(.pushTapped):
        state.path.append(.book(Book.State(title: "Emma")))
        return .none
      case ._internal(.destination(.presented(.book(.delegate(.finished))))),
        ._internal(.path(.element(_, .book(.delegate(.finished))))):
        state.finished += 1
        return .none
      case ._internal(.path(.element(_, .book(.view(.pageTurned))))):
        // LEAK: reacts to a stack element's view action.
        state.peeks += 1
        return .none
      case ._internal:
        return .none
      }
    }
    .ifLet(\.$destination, action: \._internal.destination)
    .forEach(\.path, action: \._internal.path)
  }
}

/// Asks before returning every book, in an alert that is a case of its destination enum.
@Reducer
private struct Shelf {
  @ObservableState
  struct State: Equatable {
    @Presents var destination: ShelfDestination.State?
    var books = 3
  }

  @CasePathable
  enum Action: TCAFeatureAction, Equatable {
    @CasePathable enum ViewAction: Equatable { case returnAllTapped }
    @CasePathable enum InternalAction: Equatable {
      case destination(PresentationAction<ShelfDestination.Action>)
    }
    @CasePathable enum DelegateAction: Equatable {}
    @CasePathable enum Alert: Equatable { case confirmReturnAll }
    case view(ViewAction)
    case _internal(InternalAction)
    case delegate(DelegateAction)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .view(.returnAllTapped):
        state.destination = .alert(
          AlertState {
            TextState("Return all?")
          } actions: {
            ButtonState(action: .confirmReturnAll) { TextState("Return") }
          }
        )
        return .none
      case ._internal(.destination(.presented(.alert(.confirmReturnAll)))):
        state.books = 0
        return .none
      case ._internal, .delegate:
        return .none
      }
    }
    .ifLet(\.$destination, action: \._internal.destination)
  }
}

@Reducer
private enum ShelfDestination {
  case alert(AlertState<Shelf.Action.Alert>)
}

extension ShelfDestination.State: Equatable {}
extension ShelfDestination.Action: Equatable {}

@MainActor
@Suite(.hangGuard)
struct NavigationRecordingTests {
  @Test func destinationsAndStackElementsAreRecordedAsTheirFeatures() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("navigation.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: Library.State(), recorder: recorder) {
      Library()
    } withDependencies: {
      $0.stackElementID = .incrementing
    }
    store.send(.view(.openTapped))
    store.send(._internal(.destination(.presented(.book(.view(.pageTurned))))))
    store.send(.view(.pushTapped))
    store.send(._internal(.path(.element(id: 0, action: .book(.view(.pageTurned))))))
    store.send(._internal(.path(.popFrom(id: 0))))
    store.send(._internal(.destination(.dismiss)))
    try await recorder.close()

    struct Row: Equatable {
      var path: String
      var feature: String
      var category: ActionCategory
      var statePath: String
      var changes: [String]
      var leaks: [LeakRule]
    }
    let rows = try TraceReader(path: path).actions().map {
      Row(
        path: $0.path, feature: $0.feature, category: $0.category, statePath: $0.statePath,
        changes: $0.changes.map { "\($0.path) \($0.kind) \($0.old ?? "∅") → \($0.new ?? "∅")" },
        leaks: $0.leaks.map(\.rule)
      )
    }
    expectNoDifference(
      rows,
      [
        Row(
          path: "view.openTapped", feature: "", category: .view, statePath: "",
          changes: [
            """
            destination added ∅ → LibraryDestination.State.book(
              Book.State(
                title: "Dune",
                pages: 0
              )
            )
            """
          ],
          leaks: []
        ),
        Row(
          path: "_internal.destination.presented.book.view.pageTurned", feature: "destination.book",
          category: .view, statePath: "destination.book",
          changes: ["destination.book.pages changed 0 → 1"],
          leaks: []
        ),
        Row(
          path: "view.pushTapped", feature: "", category: .view, statePath: "",
          changes: [
            """
            path[id: 0] added ∅ → LibraryPath.State.book(
              Book.State(
                title: "Emma",
                pages: 0
              )
            )
            """
          ],
          leaks: []
        ),
        Row(
          path: "_internal.path[id: 0].book.view.pageTurned", feature: "path[id: 0].book",
          category: .view, statePath: "path[id: 0].book",
          changes: ["path[id: 0].book.pages changed 0 → 1", "peeks changed 0 → 1"],
          leaks: [.parentReactsToPrivateChildAction]
        ),
        Row(
          path: "_internal.path.popFrom", feature: "path", category: .view, statePath: "",
          changes: [
            """
            path[id: 0] removed LibraryPath.State.book(
              Book.State(
                title: "Emma",
                pages: 1
              )
            ) → ∅
            """
          ],
          leaks: []
        ),
        Row(
          path: "_internal.destination.dismiss", feature: "destination", category: .view,
          statePath: "",
          changes: [
            """
            destination removed LibraryDestination.State.book(
              Book.State(
                title: "Dune",
                pages: 1
              )
            ) → ∅
            """
          ],
          leaks: []
        ),
      ]
    )
  }

  @Test func delegatesOfDestinationsAndStackElementsGoToTheFeatureThatShowsThem() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("delegates.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: Library.State(), recorder: recorder) {
      Library()
    } withDependencies: {
      $0.stackElementID = .incrementing
    }
    store.send(.view(.openTapped))
    store.send(._internal(.destination(.presented(.book(.view(.pageTurned))))))
    store.send(._internal(.destination(.presented(.book(.view(.pageTurned))))))
    store.send(.view(.pushTapped))
    store.send(._internal(.path(.element(id: 0, action: .book(.view(.pageTurned))))))
    store.send(._internal(.path(.element(id: 0, action: .book(.view(.pageTurned))))))
    try await recorder.close()
    #expect(store.finished == 2)

    let delegates = try TraceReader(path: path).actions().filter { $0.category == .delegate }
    expectNoDifference(
      delegates.map { [$0.path, $0.feature, $0.changes.map(\.path).joined(separator: ", ")] },
      [
        ["_internal.destination.presented.book.delegate.finished", "destination.book", "finished"],
        ["_internal.path[id: 0].book.delegate.finished", "path[id: 0].book", "finished"],
      ]
    )
    // NB: The enum reducers between `Library` and `Book` are not features: `Library` is the
    // book's parent, and may react to its delegate actions.
    #expect(delegates.flatMap(\.leaks) == [])
  }

  /// The view taps an alert's button: the action goes down to the button's case, through a
  /// child whose actions have no boundaries, which the rules allow (#41).
  @Test func anAlertInADestinationEnumIsRecordedDownToItsButton() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("alert.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: Shelf.State(), recorder: recorder) { Shelf() }
    store.send(.view(.returnAllTapped))
    store.send(._internal(.destination(.presented(.alert(.confirmReturnAll)))))
    try await recorder.close()
    #expect(store.books == 0)

    let tap = try #require(try TraceReader(path: path).actions().last)
    expectNoDifference(
      [tap.path, tap.feature, tap.category.rawValue, tap.caseName],
      [
        "_internal.destination.presented.alert.confirmReturnAll", "destination", "unclassified",
        "confirmReturnAll",
      ]
    )
    #expect(tap.leaks == [])
  }
}
