/// Sends actions back into the store from an ``Effect/run(priority:operation:catch:fileID:filePath:line:column:)``.
///
/// ```swift
/// return .run { send in
///   await send(._internal(.tick))
/// }
/// ```
///
/// Actions sent after the effect was cancelled are dropped.
@MainActor
public struct Send<Action>: Sendable {
  let send: @MainActor @Sendable (Action) -> Void

  /// Creates a `Send` that hands each action to `send`.
  ///
  /// NB: Nonisolated, as it only keeps `send`: an effect that wraps the `Send` it was given
  /// (`Effect.map`, a scoped child's effect) makes its own without a hop to the main actor.
  public nonisolated init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends `action` to the store, unless the effect has been cancelled.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    self.send(action)
  }
}
