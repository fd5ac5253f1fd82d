import ActionObservation
import RuntimeSupport

/// Keeps, while a store processes an action, the value each shared value had before the action
/// changed it, so that the state before the action and the state after it (which hold the same
/// shared references) can still be told apart.
///
/// A store runs each action's reducer with its tracker current on its thread (through
/// `StoreContext`), and its observer (the recorder) under ``comparing(_:)``: then ``Shared``
/// compares a shared value with itself as its value before the action with its value now, and
/// the recorder's diff reads the two. Elsewhere, `==` compares values now, as swift-sharing's
/// does outside a `TestStore`.
///
/// A `TestStore`'s tracker keeps the values from before past the action
/// (``keepsValuesBefore``), until the test has asserted the action's change, and runs the
/// assertion under ``asserting(_:)``: there, as with swift-sharing's change tracker, a shared
/// value reads as its value before the action, `withLock` changes that value (what the test
/// expects) rather than the shared value, and `==` compares it with the value now.
package final class SharedChangeTracker: @unchecked Sendable {
  // NB: `@unchecked`: a tracker is only used on the thread of the store that owns it, while
  // that store processes an action or (a test store's) asserts one.
  private var forgetters: [() -> Void] = []
  /// Whether shared values compare their values before the action with their values now.
  package private(set) var isComparing = false
  /// Whether the values from before an action are kept after it, until ``forget()``.
  package var keepsValuesBefore = false

  package init() {}

  /// The tracker of the store processing an action on this thread, if any.
  package static var current: SharedChangeTracker? {
    StoreContext.current?.sharedChanges
  }

  /// Whether some shared value kept its value from before.
  package var hasChanges: Bool { !self.forgetters.isEmpty }

  /// Notes a shared value that kept its value from before the action, and how to forget it.
  func track(_ forget: @escaping () -> Void) {
    self.forgetters.append(forget)
  }

  /// Forgets the values kept from before.
  package func forget() {
    guard !self.forgetters.isEmpty else { return }
    let forgetters = self.forgetters
    self.forgetters.removeAll(keepingCapacity: true)
    for forget in forgetters { forget() }
  }

  /// Runs `body` (the processing of one action, with this tracker's store current), then
  /// forgets the values kept from before, unless it ``keepsValuesBefore``.
  package func tracking<T>(_ body: () -> T) -> T {
    defer {
      if !self.keepsValuesBefore { self.forget() }
    }
    return body()
  }

  /// Runs `body` with shared values comparing their values before the action with now.
  package func comparing<T>(_ body: () -> T) -> T {
    let wasComparing = self.isComparing
    self.isComparing = true
    defer { self.isComparing = wasComparing }
    return body()
  }

  // MARK: - Asserting

  @TaskLocal private static var assertingTracker: SharedChangeTracker?
  /// How many assertions run now, in any task: a shared value reads the task-local tracker only
  /// when some does.
  private static let assertions = AtomicWord(0)

  /// The tracker whose test store asserts in this task, if any.
  static var asserting: SharedChangeTracker? {
    guard Self.assertions.loadRelaxed() != 0 else { return nil }
    return Self.assertingTracker
  }

  /// Runs `body` (a test's expectation of a state, and its comparison with the actual one) with
  /// shared values read as their values before the action, changed there, and compared with now.
  package func asserting<T>(_ body: () throws -> T) rethrows -> T {
    Self.assertions.addRelaxed(1)
    defer { Self.assertions.addRelaxed(-1) }
    return try Self.$assertingTracker.withValue(self, operation: body)
  }
}
