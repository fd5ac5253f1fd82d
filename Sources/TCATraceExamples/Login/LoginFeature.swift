/// Logging in: an email and a password, then a two-factor code in a presented
/// ``TwoFactorFeature`` (a sheet: `@Presents`, `ifLet(\.$twoFactor, …)`).
///
/// Tells its parent ``Action/DelegateAction/didLogin(_:)`` once the user is in.
@Reducer
public struct LoginFeature: ComposedBoundingReducer {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public var email = ""
    public var password = ""
    public var isLoading = false
    public var errorMessage: String?
    @Presents public var twoFactor: TwoFactorFeature.State?

    public init(
      email: String = "",
      password: String = "",
      isLoading: Bool = false,
      errorMessage: String? = nil,
      twoFactor: TwoFactorFeature.State? = nil
    ) {
      self.email = email
      self.password = password
      self.isLoading = isLoading
      self.errorMessage = errorMessage
      self.twoFactor = twoFactor
    }
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Codable, Equatable, Sendable {
    @CasePathable
    public enum ViewAction: Codable, Equatable, Sendable {
      case emailChanged(String)
      case passwordChanged(String)
      case loginButtonTapped
    }

    @CasePathable
    public enum InternalAction: Equatable, Sendable {
      case loginResponse(Result<LoginResponse, APIError>)
      case twoFactor(PresentationAction<TwoFactorFeature.Action>)
    }

    @CasePathable
    public enum DelegateAction: Codable, Equatable, Sendable {
      case didLogin(User)
    }

    case view(ViewAction)
    case delegate(DelegateAction)
    case _internal(InternalAction)
  }

  @Dependency(\.apiClient) var apiClient

  public init() {}

  public var body: some ReducerOf<Self> {
    coreReducer
      .ifLet(\.$twoFactor, action: \.twoFactor) {
        TwoFactorFeature()
      }
  }

  public func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<
    Action
  > {
    switch action {
    case let .emailChanged(email):
      state.email = email
      return .none

    case let .passwordChanged(password):
      state.password = password
      return .none

    case .loginButtonTapped:
      state.isLoading = true
      state.errorMessage = nil
      let (email, password) = (state.email, state.password)
      return .run { [apiClient] send in
        do {
          let response = try await apiClient.login(email: email, password: password)
          await send(._internal(.loginResponse(.success(response))))
        } catch let error as APIError {
          await send(._internal(.loginResponse(.failure(error))))
        }
      }
    }
  }

  public func reduce(
    into state: inout State, internalAction action: Action.InternalAction
  ) -> Effect<Action> {
    switch action {
    case let .loginResponse(.success(.loggedIn(user))):
      state.isLoading = false
      return .send(.delegate(.didLogin(user)))

    case let .loginResponse(.success(.twoFactorRequired(token))):
      state.isLoading = false
      state.twoFactor = TwoFactorFeature.State(token: token)
      return .none

    case .loginResponse(.failure):
      state.isLoading = false
      state.errorMessage = "Wrong email or password."
      return .none

    case let .twoFactor(.presented(.delegate(.didVerify(user)))):
      state.twoFactor = nil
      state.password = ""
      return .send(.delegate(.didLogin(user)))

    case .twoFactor:
      return .none
    }
  }
}
