/// The result of an async operation that can fail with any error, and still be `Equatable`
/// when its success value is: TCA's `TaskResult`.
///
/// ```swift
/// case userResponse(TaskResult<User>)
/// …
/// return .run { send in
///   await send(.userResponse(TaskResult { try await apiClient.user() }))
/// }
/// ```
///
/// TCA now recommends `Result` with a typed error, or a case per outcome; `TaskResult` is here
/// for code that still uses it.
public enum TaskResult<Success: Sendable>: Sendable {
  case success(Success)
  case failure(any Error)

  /// The result of `body`: its value, or the error it threw.
  public init(catching body: @Sendable () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }

  /// The success value; throws the failure's error.
  public var value: Success {
    get throws {
      switch self {
      case let .success(value): return value
      case let .failure(error): throw error
      }
    }
  }

  /// Transforms the success value.
  public func map<NewSuccess>(_ transform: (Success) -> NewSuccess) -> TaskResult<NewSuccess> {
    switch self {
    case let .success(value): .success(transform(value))
    case let .failure(error): .failure(error)
    }
  }

  /// Transforms the success value into another result.
  public func flatMap<NewSuccess>(
    _ transform: (Success) -> TaskResult<NewSuccess>
  ) -> TaskResult<NewSuccess> {
    switch self {
    case let .success(value): transform(value)
    case let .failure(error): .failure(error)
    }
  }
}

extension TaskResult: Equatable where Success: Equatable {
  /// Failures are equal when their errors are of the same type and equal: with `==` for
  /// `Equatable` errors, by what they print otherwise.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case let (.success(lhs), .success(rhs)):
      return lhs == rhs
    case let (.failure(lhs), .failure(rhs)):
      return areEqualErrors(lhs, rhs)
    default:
      return false
    }
  }
}

extension TaskResult: Hashable where Success: Hashable {
  public func hash(into hasher: inout Hasher) {
    switch self {
    case let .success(value):
      hasher.combine(0)
      hasher.combine(value)
    case let .failure(error):
      hasher.combine(1)
      hasher.combine(ObjectIdentifier(type(of: error)))
    }
  }
}

private func areEqualErrors(_ lhs: any Error, _ rhs: any Error) -> Bool {
  guard type(of: lhs) == type(of: rhs) else { return false }
  func open<E: Equatable>(_ lhs: E) -> Bool {
    lhs == (rhs as? E)
  }
  // NB: Through `Any`: Swift 6.3 calls a cast from `any Error` to `any Equatable` one that
  // always succeeds, which it does not.
  if let lhs = (lhs as Any) as? any Equatable {
    return open(lhs)
  }
  return String(reflecting: lhs) == String(reflecting: rhs)
}
