#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a reducer may reach of the store running it: whether an effect runs, the waits of
/// presented features for their dismissal, and the values shared values had before the action
/// (see `SharedChangeTracker`).
///
/// `ifLet` and `forEach` start, once per presented feature, an effect that waits in
/// ``waitForDismissal(_:)`` until the feature's ``DismissEffect`` calls
/// ``dismiss(wait:startedBy:)``.
///
/// NB: The waits live here rather than in the store's runtime, so that a wait does not keep the
/// runtime alive.
@MainActor
final class StoreHandle {
  /// Whether an effect marked with an id is running (or cancelled but not yet ended).
  var isRunning: (@MainActor @Sendable (CancelID) -> Bool)?
  /// The values shared values had before the action being processed changed them.
  nonisolated let sharedChanges = SharedChangeTracker()
  /// The waits whose feature asked to be dismissed; the runtime removes one when the effect
  /// that waits ends.
  var dismissed: Set<CancelID> = []
  private var waits: [CancelID: (token: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
  private var nextToken = 0

  init() {}

  /// Ends the wait for `wait` of a presented feature's dismissal effect, or makes it end as it
  /// begins: the effect's task may not have run yet when the feature dismisses itself. Does
  /// nothing when no effect marked with `startedBy`, the dismissal effect, runs.
  func dismiss(wait: CancelID, startedBy: CancelID) {
    guard self.isRunning?(startedBy) == true else { return }
    self.dismissed.insert(wait)
    self.waits.removeValue(forKey: wait)?.continuation.resume()
  }

  /// Waits until ``dismiss(wait:startedBy:)`` is called for `wait`, or the task is cancelled.
  func waitForDismissal(_ wait: CancelID) async {
    guard !self.dismissed.contains(wait) else { return }
    let token = self.nextToken
    self.nextToken += 1
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        guard !Task.isCancelled else { return continuation.resume() }
        self.waits[wait] = (token, continuation)
      }
    } onCancel: {
      Task { @MainActor in
        guard self.waits[wait]?.token == token else { return }
        self.waits.removeValue(forKey: wait)?.continuation.resume()
      }
    }
  }
}

/// The store that processes an action on this thread: its reducer, and its observer.
enum StoreContext {
  // NB: A thread-local, as `ActionRouting`'s collector: a reducer runs synchronously on the
  // thread of the store that calls it.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The handle of the store running a reducer on this thread, if any.
  static var current: StoreHandle? {
    pthread_getspecific(self.key).map {
      Unmanaged<StoreHandle>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// Runs `body` with `handle` current on this thread.
  static func with<T>(_ handle: StoreHandle, _ body: () -> T) -> T {
    let previous = pthread_getspecific(self.key)
    pthread_setspecific(self.key, Unmanaged.passUnretained(handle).toOpaque())
    defer { pthread_setspecific(self.key, previous) }
    return withExtendedLifetime(handle) { body() }
  }
}
