/// A signed-in user.
public struct User: Equatable, Hashable, Sendable, Codable {
  public var id: Int
  public var name: String

  public init(id: Int, name: String) {
    self.id = id
    self.name = name
  }
}

/// A todo as the API returns it.
public struct Todo: Equatable, Sendable, Codable, Identifiable {
  public var id: Int
  public var title: String
  public var isComplete: Bool

  public init(id: Int, title: String, isComplete: Bool = false) {
    self.id = id
    self.title = title
    self.isComplete = isComplete
  }
}

/// What the API answers to a login.
public enum LoginResponse: Equatable, Sendable, Codable {
  case loggedIn(User)
  case twoFactorRequired(token: String)
}

/// Why an API call failed.
public enum APIError: Error, Equatable, Sendable, Codable {
  case invalidCredentials
  case invalidCode
  case offline
}

/// The example app's back end, a dependency (`@Dependency(\.apiClient)`), as closures so that
/// tests and the demo choose its behaviour.
///
/// Its live value is the fake back end, ``fake(latency:)``; in tests every endpoint is
/// unimplemented: a test that uses one without overriding it fails.
@DependencyClient
public struct APIClient: Sendable {
  public var login: @Sendable (_ email: String, _ password: String) async throws -> LoginResponse
  public var verifyTwoFactor: @Sendable (_ token: String, _ code: String) async throws -> User
  public var fetchTodos: @Sendable () async throws -> [Todo]
}

extension APIClient: DependencyKey {
  public static let liveValue = APIClient.fake()
  public static let testValue = APIClient()
}

extension DependencyValues {
  /// The example app's back end.
  public var apiClient: APIClient {
    get { self[APIClient.self] }
    set { self[APIClient.self] = newValue }
  }
}

extension APIClient {
  /// The password the fake back end accepts; it always asks for a second factor.
  public static let fakePassword = "hunter2"
  /// The two-factor code the fake back end accepts.
  public static let fakeCode = "424242"

  /// A back end that answers after `latency`: the password ``fakePassword`` gets a two-factor
  /// challenge that ``fakeCode`` answers; anything else is refused. It serves two todos.
  ///
  /// - Parameter latency: How long each call takes. Default: 30 ms; `.zero` answers at once.
  public static func fake(latency: Duration = .milliseconds(30)) -> Self {
    @Sendable func wait() async throws {
      if latency > .zero { try await Task.sleep(for: latency) }
    }
    return Self(
      login: { email, password in
        try await wait()
        guard password == fakePassword, !email.isEmpty else { throw APIError.invalidCredentials }
        return .twoFactorRequired(token: "token-\(email)")
      },
      verifyTwoFactor: { token, code in
        try await wait()
        guard code == fakeCode, token.hasPrefix("token-") else { throw APIError.invalidCode }
        let email = token.dropFirst("token-".count)
        return User(id: 1, name: String(email.prefix { $0 != "@" }))
      },
      fetchTodos: {
        try await wait()
        return [
          Todo(id: 1, title: "Buy milk"),
          Todo(id: 2, title: "Write the trace reader", isComplete: true),
        ]
      }
    )
  }
}
