extension Effect {
  /// Makes this effect cancellable by `id`.
  ///
  /// - Parameters:
  ///   - id: Any hashable value; effects with equal ids are cancelled together by
  ///     ``cancel(id:)``.
  ///   - cancelInFlight: Cancel the effects already running with this id before starting this
  ///     one. Default: `false`.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    switch self.operation {
    case .none: self
    default:
      Self(
        operation: .cancellable(
          id: CancelID(id), cancelInFlight: cancelInFlight, self.operation
        )
      )
    }
  }

  /// An effect that cancels the running effects marked with `id`.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operation: .cancel(id: CancelID(id)))
  }
}

/// A type-erased cancellation id.
@usableFromInline
struct CancelID: Hashable, Sendable {
  // NB: `AnyHashable` is not `Sendable`; it only ever wraps a `Hashable & Sendable` value.
  nonisolated(unsafe) let base: AnyHashable

  init(_ base: some Hashable & Sendable) {
    self.base = AnyHashable(base)
  }
}
