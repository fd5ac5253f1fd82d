/// The asynchronous work started by one ``Store/send(_:)``.
///
/// ```swift
/// await store.send(.view(.refreshButtonTapped)).finish()
/// ```
public struct StoreTask: Hashable, Sendable {
  let rawValue: Task<Void, Never>?

  init(rawValue: Task<Void, Never>?) {
    self.rawValue = rawValue
  }

  /// Waits until every effect the send started, and every effect started by the actions those
  /// effects sent, has finished. Cancelling the waiting task cancels them.
  public func finish() async {
    guard let task = self.rawValue else { return }
    await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
  }

  /// Cancels the effects the send started.
  public func cancel() {
    self.rawValue?.cancel()
  }

  /// Whether the effects were cancelled; `true` when the send started none.
  public var isCancelled: Bool {
    self.rawValue?.isCancelled ?? true
  }
}
