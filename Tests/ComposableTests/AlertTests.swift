import Composable
import CustomDump
import Testing
import TestSupport

/// A list that asks before it deletes, with an alert of its own or one among its destinations.
@Reducer
private struct Trash {
  @ObservableState
  struct State: Equatable {
    var items = ["a", "b"]
    @Presents var alert: AlertState<Action.Alert>?
    @Presents var destination: Destination.State?
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case destination(PresentationAction<Destination.Action>)
    case deleteButtonTapped
    case emptyButtonTapped

    enum Alert: Equatable {
      case confirmDeletion
    }
  }

  @Reducer(state: .equatable, action: .equatable)
  enum Destination {
    case confirmEmptying(AlertState<Trash.Action.Alert>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteButtonTapped:
        state.alert = .deletion(count: state.items.count)
        return .none
      case .emptyButtonTapped:
        state.destination = .confirmEmptying(.deletion(count: state.items.count))
        return .none
      case .alert(.presented(.confirmDeletion)),
        .destination(.presented(.confirmEmptying(.confirmDeletion))):
        state.items.removeAll()
        return .none
      case .alert, .destination:
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
    .ifLet(\.$destination, action: \.destination)
  }
}

extension AlertState where Action == Trash.Action.Alert {
  fileprivate static func deletion(count: Int) -> Self {
    AlertState {
      TextState("Delete \(count) items?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion) {
        TextState("Delete")
      }
      if count > 1 {
        ButtonState(role: .cancel) {
          TextState("Cancel")
        }
      }
    } message: {
      TextState("This cannot be ") + TextState("undone.")
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct AlertTests {
  @Test func aButtonsActionReachesTheParentAndTheAlertGoesAway() {
    let store = Store(initialState: Trash.State()) { Trash() }
    store.send(.deleteButtonTapped)
    #expect(store.alert == .deletion(count: 2))
    store.alert?.buttons[0].withAction { action in
      if let action { store.send(.alert(.presented(action))) }
    }
    #expect(store.items == [])
    #expect(store.alert == nil)
  }

  @Test func anAlertAmongTheDestinationsGoesAwayAfterItsAction() {
    let store = Store(initialState: Trash.State()) { Trash() }
    store.send(.emptyButtonTapped)
    store.send(.destination(.presented(.confirmEmptying(.confirmDeletion))))
    #expect(store.items == [])
    #expect(store.destination == nil)
  }

  @Test func dismissingAnAlertChangesNothingElse() {
    let store = Store(initialState: Trash.State()) { Trash() }
    store.send(.deleteButtonTapped)
    store.send(.alert(.dismiss))
    #expect(store.alert == nil)
    #expect(store.items == ["a", "b"])
  }

  @Test func alertsCompareByWhatTheyShowAndDo() {
    #expect(AlertState<Trash.Action.Alert>.deletion(count: 2) == .deletion(count: 2))
    #expect(AlertState<Trash.Action.Alert>.deletion(count: 2) != .deletion(count: 1))
    #expect(String(state: TextState("a") + TextState("b")) == "ab")
  }

  @Test func customDumpShowsAnAlertAsItReads() {
    expectNoDifference(
      String(customDumping: AlertState<Trash.Action.Alert>.deletion(count: 2)),
      """
      AlertState(
        title: "Delete 2 items?",
        actions: [
          [0]: ButtonState(
            role: .destructive,
            action: .send(
              .confirmDeletion
            ),
            label: "Delete"
          ),
          [1]: ButtonState(
            role: .cancel,
            action: .send(nil),
            label: "Cancel"
          )
        ],
        message: "This cannot be undone."
      )
      """
    )
  }

  @Test func aConfirmationDialogMapsItsActions() {
    let dialog = ConfirmationDialogState<Int>(titleVisibility: .visible) {
      TextState("Share")
    } actions: {
      for index in 1...2 {
        ButtonState(action: index) { TextState("Option \(index)") }
      }
    }
    let mapped = dialog.map { $0.map { "\($0)" } }
    #expect(mapped.buttons.map(\.action.action) == ["1", "2"])
    #expect(mapped.titleVisibility == .visible)
    #expect(String(customDumping: mapped).contains(#"title: "Share""#))
  }
}
