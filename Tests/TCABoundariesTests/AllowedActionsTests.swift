import CustomDump
import TCABoundaries
import Testing
import TestSupport

/// The seed's todo list, written as a restricted reducer: its effects can only send internal
/// and delegate actions.
private struct TodoListFeature: Reducer {
  struct State: Equatable {
    var todos: [String] = []
    var error: String?
  }

  @CasePathable
  enum Action: TCAFeatureAction, Equatable, Sendable {
    @CasePathable
    enum ViewAction: Equatable, Sendable { case didAppear, dismissError }
    @CasePathable
    enum InternalAction: Equatable, Sendable {
      case listResult(Result<[String], LoadError>)
    }
    @CasePathable
    enum DelegateAction: Equatable, Sendable { case didLoad(count: Int) }

    case view(ViewAction)
    case delegate(DelegateAction)
    case _internal(InternalAction)
  }

  struct LoadError: Error, Equatable, Sendable {}

  var body: some ReducerOf<Self> {
    Reduce(
      view: { state, action in
        switch action {
        case .didAppear:
          return .run { send in
            await send(._internal(.listResult(.success(["Wash Car", "Go to Gym"]))))
          }
        case .dismissError:
          state.error = nil
          return .none
        }
      },
      internal: { state, action in
        switch action {
        case let .listResult(.success(todos)):
          state.todos = todos
          return .send(.delegate(.didLoad(count: todos.count)))
        case .listResult(.failure):
          state.error = "Could not load"
          return .none
        }
      }
    )
  }
}

@MainActor
@Suite(.hangGuard)
struct AllowedActionsTests {
  @Test func effectsSendInternalAndDelegateActions() async {
    var actions: [TodoListFeature.Action] = []
    let store = Store(
      initialState: TodoListFeature.State(),
      observer: { actions.append($0.action) }
    ) {
      TodoListFeature()
    }
    await store.send(.view(.didAppear)).finish()
    expectNoDifference(store.state.todos, ["Wash Car", "Go to Gym"])
    expectNoDifference(
      actions,
      [
        .view(.didAppear),
        ._internal(.listResult(.success(["Wash Car", "Go to Gym"]))),
        .delegate(.didLoad(count: 2)),
      ]
    )
  }

  @Test func delegateActionsAreNotHandledByTheFeatureItself() {
    let store = Store(initialState: TodoListFeature.State(error: "x")) { TodoListFeature() }
    store.send(.delegate(.didLoad(count: 5)))
    expectNoDifference(store.state, TodoListFeature.State(error: "x"))
    store.send(.view(.dismissError))
    expectNoDifference(store.state, TodoListFeature.State())
  }

  @Test func allowedActionsStandForFeatureActions() {
    let allowed: [AllowedActions<TodoListFeature.Action>] = [
      .delegate(.didLoad(count: 1)), ._internal(.listResult(.failure(.init()))),
    ]
    expectNoDifference(
      allowed.map(\.action),
      [.delegate(.didLoad(count: 1)), ._internal(.listResult(.failure(.init())))]
    )
  }
}
