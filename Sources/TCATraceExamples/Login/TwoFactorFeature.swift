/// The second step of logging in: the user types the code sent to their phone.
///
/// Embedded by ``LoginFeature`` as an optional child (`ifLet`); it tells its parent
/// ``Action/DelegateAction/didVerify(_:)`` when the code is accepted.
@Reducer
public struct TwoFactorFeature: ComposedBoundingReducer {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public var token: String
    public var code = ""
    public var isVerifying = false
    public var errorMessage: String?

    public init(
      token: String, code: String = "", isVerifying: Bool = false, errorMessage: String? = nil
    ) {
      self.token = token
      self.code = code
      self.isVerifying = isVerifying
      self.errorMessage = errorMessage
    }
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Codable, Equatable, Sendable {
    @CasePathable
    public enum ViewAction: Codable, Equatable, Sendable {
      case codeChanged(String)
      case submitButtonTapped
    }

    @CasePathable
    public enum InternalAction: Equatable, Sendable {
      case verifyResponse(Result<User, APIError>)
    }

    @CasePathable
    public enum DelegateAction: Codable, Equatable, Sendable {
      case didVerify(User)
    }

    case view(ViewAction)
    case delegate(DelegateAction)
    case _internal(InternalAction)
  }

  @Dependency(\.apiClient) var apiClient

  public init() {}

  public var body: some ReducerOf<Self> {
    coreReducer
  }

  public func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<
    Action
  > {
    switch action {
    case let .codeChanged(code):
      state.code = code
      state.errorMessage = nil
      return .none

    case .submitButtonTapped:
      state.isVerifying = true
      let (token, code) = (state.token, state.code)
      return .run { [apiClient] send in
        do {
          let user = try await apiClient.verifyTwoFactor(token: token, code: code)
          await send(._internal(.verifyResponse(.success(user))))
        } catch let error as APIError {
          await send(._internal(.verifyResponse(.failure(error))))
        }
      }
    }
  }

  public func reduce(
    into state: inout State, internalAction action: Action.InternalAction
  ) -> Effect<Action> {
    switch action {
    case let .verifyResponse(.success(user)):
      state.isVerifying = false
      return .send(.delegate(.didVerify(user)))

    case .verifyResponse(.failure):
      state.isVerifying = false
      state.errorMessage = "That code is not right."
      return .none
    }
  }
}
