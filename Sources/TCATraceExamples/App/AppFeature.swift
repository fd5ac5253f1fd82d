/// The example app: ``LoginFeature`` (with its ``TwoFactorFeature``), ``TodosFeature`` (with
/// a ``TodoRowFeature`` per todo), and a navigation stack (``Path``) onto which the settings
/// button pushes ``SettingsFeature``.
///
/// Every feature keeps to the boundary rules: the app reacts only to its direct children's
/// delegate actions.
@Reducer
public struct AppFeature: ComposedBoundingReducer {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public var login = LoginFeature.State()
    public var todos = TodosFeature.State()
    public var path = StackState<Path.State>()
    public var user: User?
    public var notificationsEnabled = false

    public init(
      login: LoginFeature.State = LoginFeature.State(),
      todos: TodosFeature.State = TodosFeature.State(),
      path: StackState<Path.State> = StackState<Path.State>(),
      user: User? = nil,
      notificationsEnabled: Bool = false
    ) {
      self.login = login
      self.todos = todos
      self.path = path
      self.user = user
      self.notificationsEnabled = notificationsEnabled
    }
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Codable, Equatable, Sendable {
    @CasePathable
    public enum ViewAction: Codable, Equatable, Sendable {
      case settingsButtonTapped
      case logoutButtonTapped
    }

    @CasePathable
    public enum InternalAction: Equatable, Sendable {
      case login(LoginFeature.Action)
      case todos(TodosFeature.Action)
      case path(StackActionOf<Path>)
    }

    @CasePathable
    public enum DelegateAction: Equatable, Sendable {}

    case view(ViewAction)
    case delegate(DelegateAction)
    case _internal(InternalAction)
  }

  /// The app gets its back end and the todo list's timer as dependencies, `\.apiClient` and
  /// `\.tickClient`: set them with the store's `withDependencies`.
  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.login, action: \.login) {
      LoginFeature()
    }
    Scope(state: \.todos, action: \.todos) {
      TodosFeature()
    }
    coreReducer
      .forEach(\.path, action: \.path)
  }

  public func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<
    Action
  > {
    switch action {
    case .settingsButtonTapped:
      state.path.append(
        .settings(
          SettingsFeature.State(
            displayName: state.user?.name ?? "",
            notificationsEnabled: state.notificationsEnabled
          )
        )
      )
      return .none

    case .logoutButtonTapped:
      state.user = nil
      state.login = LoginFeature.State()
      return .none
    }
  }

  public func reduce(
    into state: inout State, internalAction action: Action.InternalAction
  ) -> Effect<Action> {
    switch action {
    case let .login(.delegate(.didLogin(user))):
      state.user = user
      return .none

    case let .path(.element(id, .settings(.delegate(.didSave(displayName, notificationsEnabled))))):
      state.user?.name = displayName
      state.notificationsEnabled = notificationsEnabled
      state.path.pop(from: id)
      return .none

    case .login, .todos, .path:
      return .none
    }
  }
}

extension AppFeature {
  /// The screens the app pushes on its navigation stack.
  @Reducer
  public enum Path {
    case settings(SettingsFeature)
  }
}

extension AppFeature.Path.State: Codable, Equatable, Sendable {}
extension AppFeature.Path.Action: Codable, Equatable, Sendable {}
