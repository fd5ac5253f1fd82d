/// Keeps, while a store processes an action, the value each shared value had before the action
/// changed it, so that the state before the action and the state after it (which hold the same
/// shared references) can still be told apart.
///
/// A store runs each action's reducer with its tracker current on its thread (through
/// `StoreContext`), and its observer (the recorder) under ``comparing(_:)``: then ``Shared`` compares a shared value with itself
/// as its value before the action with its value now, and the recorder's diff reads the two.
/// Elsewhere, `==` compares values now, as swift-sharing's does outside a `TestStore`.
package final class SharedChangeTracker: @unchecked Sendable {
  // NB: `@unchecked`: a tracker is only used on the thread of the store that owns it, while
  // that store processes an action.
  private var forgetters: [() -> Void] = []
  /// Whether shared values compare their values before the action with their values now.
  package private(set) var isComparing = false

  package init() {}

  /// The tracker of the store processing an action on this thread, if any.
  package static var current: SharedChangeTracker? {
    StoreContext.current?.sharedChanges
  }

  /// Notes a shared value that kept its value from before the action, and how to forget it.
  func track(_ forget: @escaping () -> Void) {
    self.forgetters.append(forget)
  }

  /// Runs `body` (the processing of one action, with this tracker's store current), then
  /// forgets the values kept from before.
  package func tracking<T>(_ body: () -> T) -> T {
    defer {
      if !self.forgetters.isEmpty {
        for forget in self.forgetters { forget() }
        self.forgetters.removeAll(keepingCapacity: true)
      }
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
}
