// What makes the example app replayable (`TraceReplayer`): its states and actions are
// `Codable`, so that a trace keeps their JSON. Most of it is synthesized; what TCA and Swift do
// not make `Codable` — `Result`, `BindingAction`, `StackAction`, `AlertState` — is written by
// hand here, case by case, as an app of your own would.

// NB: A stack element's id is encoded as its generation, which TCA keeps behind an SPI.
#if canImport(ComposableArchitecture)
  @_spi(Internals) import ComposableArchitecture
#endif

/// A `Result` as JSON: `{"success": …}` or `{"failure": …}`.
struct ResultCoding<Success: Codable, Failure: Error & Codable>: Codable {
  var result: Result<Success, Failure>

  init(_ result: Result<Success, Failure>) {
    self.result = result
  }

  private enum CodingKeys: String, CodingKey {
    case success, failure
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if container.contains(.success) {
      self.result = .success(try container.decode(Success.self, forKey: .success))
    } else {
      self.result = .failure(try container.decode(Failure.self, forKey: .failure))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self.result {
    case let .success(value): try container.encode(value, forKey: .success)
    case let .failure(error): try container.encode(error, forKey: .failure)
    }
  }
}

/// The error Swift's synthesized decoding of an enum throws when the JSON names none of its
/// cases: `TraceReplayer` reads the case it names from the JSON.
func noCase<T>(_: T.Type, in decoder: any Decoder) -> DecodingError {
  DecodingError.typeMismatch(
    T.self,
    DecodingError.Context(
      codingPath: decoder.codingPath,
      debugDescription: "Invalid number of keys found, expected one.")
  )
}

/// Synthesis does not reach an enum without cases.
extension AppFeature.Action.DelegateAction: Codable {
  public init(from decoder: any Decoder) throws {
    throw noCase(Self.self, in: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {}
  }
}

extension TodosFeature.Action.DelegateAction: Codable {
  public init(from decoder: any Decoder) throws {
    throw noCase(Self.self, in: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {}
  }
}

// MARK: - Login

extension LoginFeature.Action.InternalAction: Codable {
  private enum CodingKeys: String, CodingKey {
    case loginResponse, twoFactor
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if container.contains(.loginResponse) {
      self = .loginResponse(try container.decode(ResultCoding.self, forKey: .loginResponse).result)
    } else if container.contains(.twoFactor) {
      self = .twoFactor(try container.decode(PresentationAction.self, forKey: .twoFactor))
    } else {
      throw noCase(Self.self, in: decoder)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case let .loginResponse(result):
      try container.encode(ResultCoding(result), forKey: .loginResponse)
    case let .twoFactor(action): try container.encode(action, forKey: .twoFactor)
    }
  }
}

extension TwoFactorFeature.Action.InternalAction: Codable {
  private enum CodingKeys: String, CodingKey {
    case verifyResponse
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard container.contains(.verifyResponse) else { throw noCase(Self.self, in: decoder) }
    self = .verifyResponse(try container.decode(ResultCoding.self, forKey: .verifyResponse).result)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case let .verifyResponse(result):
      try container.encode(ResultCoding(result), forKey: .verifyResponse)
    }
  }
}

// MARK: - Todos

extension TodosFeature.Action.InternalAction: Codable {
  private enum CodingKeys: String, CodingKey {
    case todosLoaded, timerTicked, rows
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if container.contains(.todosLoaded) {
      self = .todosLoaded(try container.decode(ResultCoding.self, forKey: .todosLoaded).result)
    } else if container.contains(.timerTicked) {
      self = .timerTicked
    } else if container.contains(.rows) {
      self = .rows(try container.decode(IdentifiedActionOf<TodoRowFeature>.self, forKey: .rows))
    } else {
      throw noCase(Self.self, in: decoder)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case let .todosLoaded(result): try container.encode(ResultCoding(result), forKey: .todosLoaded)
    case .timerTicked: try container.encode([String: Int](), forKey: .timerTicked)
    case let .rows(action): try container.encode(action, forKey: .rows)
    }
  }
}

/// The alert is not `Codable`: whether it shows is, and it is built again from that and the
/// completed todos it counts.
extension TodosFeature.State: Codable {
  private enum CodingKeys: String, CodingKey {
    case todos, isLoading, secondsOnScreen, nextID, isConfirmingClearCompleted
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      todos: try container.decode(IdentifiedArrayOf<TodoRowFeature.State>.self, forKey: .todos),
      isLoading: try container.decode(Bool.self, forKey: .isLoading),
      secondsOnScreen: try container.decode(Int.self, forKey: .secondsOnScreen),
      nextID: try container.decode(Int.self, forKey: .nextID)
    )
    if try container.decode(Bool.self, forKey: .isConfirmingClearCompleted) {
      self.alert = TodosFeature.clearCompletedAlert(count: self.todos.filter(\.isComplete).count)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(self.todos, forKey: .todos)
    try container.encode(self.isLoading, forKey: .isLoading)
    try container.encode(self.secondsOnScreen, forKey: .secondsOnScreen)
    try container.encode(self.nextID, forKey: .nextID)
    try container.encode(self.alert != nil, forKey: .isConfirmingClearCompleted)
  }
}

// MARK: - Settings

/// A binding action as the field it sets and its value: `{"binding": {"displayName": "Blob"}}`.
extension SettingsFeature.Action.ViewAction: Codable {
  private enum CodingKeys: String, CodingKey {
    case binding, saveButtonTapped
  }

  private enum Fields: String, CodingKey {
    case displayName, notificationsEnabled
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if container.contains(.saveButtonTapped) {
      self = .saveButtonTapped
      return
    }
    guard container.contains(.binding) else { throw noCase(Self.self, in: decoder) }
    let fields = try container.nestedContainer(keyedBy: Fields.self, forKey: .binding)
    if let displayName = try fields.decodeIfPresent(String.self, forKey: .displayName) {
      self = .binding(.set(\.displayName, displayName))
    } else if let isEnabled = try fields.decodeIfPresent(Bool.self, forKey: .notificationsEnabled) {
      self = .binding(.set(\.notificationsEnabled, isEnabled))
    } else {
      throw noCase(BindingAction<SettingsFeature.State>.self, in: try fields.superDecoder())
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .saveButtonTapped:
      try container.encode([String: Int](), forKey: .saveButtonTapped)
    case let .binding(action):
      var fields = container.nestedContainer(keyedBy: Fields.self, forKey: .binding)
      if let displayName = action[case: \.displayName] {
        try fields.encode(displayName, forKey: .displayName)
      } else if let isEnabled = action[case: \.notificationsEnabled] {
        try fields.encode(isEnabled, forKey: .notificationsEnabled)
      }
    }
  }
}

// MARK: - App

/// A stack action with its element's id as a number (`StackElementID.generation`; in TCA,
/// `@_spi(Internals)`).
extension AppFeature.Action.InternalAction: Codable {
  private enum CodingKeys: String, CodingKey {
    case login, todos, path
  }

  private enum StackKeys: String, CodingKey {
    case element, popFrom, push
  }

  private enum ElementKeys: String, CodingKey {
    case id, action, state
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if container.contains(.login) {
      self = .login(try container.decode(LoginFeature.Action.self, forKey: .login))
    } else if container.contains(.todos) {
      self = .todos(try container.decode(TodosFeature.Action.self, forKey: .todos))
    } else if container.contains(.path) {
      let stack = try container.nestedContainer(keyedBy: StackKeys.self, forKey: .path)
      if stack.contains(.element) {
        let element = try stack.nestedContainer(keyedBy: ElementKeys.self, forKey: .element)
        self = .path(
          .element(
            id: StackElementID(integerLiteral: try element.decode(Int.self, forKey: .id)),
            action: try element.decode(AppFeature.Path.Action.self, forKey: .action)
          )
        )
      } else if stack.contains(.popFrom) {
        let element = try stack.nestedContainer(keyedBy: ElementKeys.self, forKey: .popFrom)
        self = .path(
          .popFrom(id: StackElementID(integerLiteral: try element.decode(Int.self, forKey: .id))))
      } else if stack.contains(.push) {
        let element = try stack.nestedContainer(keyedBy: ElementKeys.self, forKey: .push)
        self = .path(
          .push(
            id: StackElementID(integerLiteral: try element.decode(Int.self, forKey: .id)),
            state: try element.decode(AppFeature.Path.State.self, forKey: .state)
          )
        )
      } else {
        throw noCase(
          StackActionOf<AppFeature.Path>.self, in: try container.superDecoder(forKey: .path))
      }
    } else {
      throw noCase(Self.self, in: decoder)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case let .login(action): try container.encode(action, forKey: .login)
    case let .todos(action): try container.encode(action, forKey: .todos)
    case let .path(action):
      var stack = container.nestedContainer(keyedBy: StackKeys.self, forKey: .path)
      switch action {
      case let .element(id, action):
        var element = stack.nestedContainer(keyedBy: ElementKeys.self, forKey: .element)
        try element.encode(id.generation, forKey: .id)
        try element.encode(action, forKey: .action)
      case let .popFrom(id):
        var element = stack.nestedContainer(keyedBy: ElementKeys.self, forKey: .popFrom)
        try element.encode(id.generation, forKey: .id)
      case let .push(id, state):
        var element = stack.nestedContainer(keyedBy: ElementKeys.self, forKey: .push)
        try element.encode(id.generation, forKey: .id)
        try element.encode(state, forKey: .state)
      }
    }
  }
}
