/// The todo list: loads todos from the API, adds and clears them, keeps completed ones at the
/// bottom, and counts the seconds the loaded list has been on screen with a timer.
@Reducer
public struct TodosFeature: ComposedBoundingReducer {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var todos: IdentifiedArrayOf<TodoRowFeature.State> = []
    public var isLoading = false
    public var secondsOnScreen = 0
    public var nextID = 100
    @Presents public var alert: AlertState<Action.ViewAction.Alert>?

    public init(
      todos: IdentifiedArrayOf<TodoRowFeature.State> = [],
      isLoading: Bool = false,
      secondsOnScreen: Int = 0,
      nextID: Int = 100
    ) {
      self.todos = todos
      self.isLoading = isLoading
      self.secondsOnScreen = secondsOnScreen
      self.nextID = nextID
    }
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Codable, Equatable, Sendable {
    @CasePathable
    public enum ViewAction: Codable, Equatable, Sendable {
      case onAppear
      case onDisappear
      case addTodoButtonTapped(title: String)
      case clearCompletedButtonTapped
      case alert(PresentationAction<Alert>)

      /// What the alert that confirms clearing completed todos sends.
      public enum Alert: Codable, Equatable, Sendable {
        case confirmClearCompleted
      }
    }

    @CasePathable
    public enum InternalAction: Equatable, Sendable {
      case todosLoaded(Result<[Todo], APIError>)
      case timerTicked
      case rows(IdentifiedActionOf<TodoRowFeature>)
    }

    @CasePathable
    public enum DelegateAction: Equatable, Sendable {}

    case view(ViewAction)
    case delegate(DelegateAction)
    case _internal(InternalAction)
  }

  enum CancelID { case onScreen }

  @Dependency(\.apiClient) var apiClient
  @Dependency(\.tickClient) var tickClient

  public init() {}

  public var body: some ReducerOf<Self> {
    coreReducer
      .forEach(\.todos, action: \.rows) {
        TodoRowFeature()
      }
      .ifLet(\.$alert, action: \.view.alert)
  }

  public func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<
    Action
  > {
    switch action {
    case .onAppear:
      state.isLoading = true
      // The timer counts from when the list is loaded, so it starts after the load; leaving
      // the screen cancels both.
      return .concatenate(
        .run { [apiClient] send in
          do {
            await send(._internal(.todosLoaded(.success(try await apiClient.fetchTodos()))))
          } catch let error as APIError {
            await send(._internal(.todosLoaded(.failure(error))))
          }
        },
        .run { [tickClient] send in
          for await _ in tickClient.ticks() {
            await send(._internal(.timerTicked))
          }
        }
      )
      .cancellable(id: CancelID.onScreen, cancelInFlight: true)

    case .onDisappear:
      return .cancel(id: CancelID.onScreen)

    case let .addTodoButtonTapped(title):
      state.todos.insert(TodoRowFeature.State(id: state.nextID, title: title), at: 0)
      state.nextID += 1
      return .none

    case .clearCompletedButtonTapped:
      state.alert = Self.clearCompletedAlert(count: state.todos.filter(\.isComplete).count)
      return .none

    case .alert(.presented(.confirmClearCompleted)):
      state.todos.removeAll(where: \.isComplete)
      return .none

    case .alert:
      return .none
    }
  }

  public func reduce(
    into state: inout State, internalAction action: Action.InternalAction
  ) -> Effect<Action> {
    switch action {
    case let .todosLoaded(.success(todos)):
      state.isLoading = false
      state.todos = IdentifiedArray(
        uniqueElements: todos.map {
          TodoRowFeature.State(id: $0.id, title: $0.title, isComplete: $0.isComplete)
        }
      )
      return .none

    case .todosLoaded(.failure):
      state.isLoading = false
      return .none

    case .timerTicked:
      state.secondsOnScreen += 1
      return .none

    case .rows(.element(_, .delegate(.completionChanged))):
      state.todos.sort { !$0.isComplete && $1.isComplete }
      return .none

    case .rows:
      return .none
    }
  }
}

extension TodosFeature {
  /// The alert that asks before clearing `count` completed todos.
  static func clearCompletedAlert(count: Int) -> AlertState<Action.ViewAction.Alert> {
    AlertState {
      TextState("Clear \(count) completed todo\(count == 1 ? "" : "s")?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmClearCompleted) {
        TextState("Clear")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    }
  }
}
