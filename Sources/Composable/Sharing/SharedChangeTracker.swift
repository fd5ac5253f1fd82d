#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps, while a store processes an action, the value each shared value had before the action
/// changed it, so that the state before the action and the state after it (which hold the same
/// shared references) can still be told apart.
///
/// A store runs each action's reducer with a tracker current on its thread, and its observer
/// (the recorder) under ``comparing(_:)``: then ``Shared`` compares a shared value with itself
/// as its value before the action with its value now, and the recorder's diff reads the two.
/// Elsewhere, `==` compares values now, as swift-sharing's does outside a `TestStore`.
package final class SharedChangeTracker {
  private var forgetters: [() -> Void] = []
  /// Whether shared values compare their values before the action with their values now.
  package private(set) var isComparing = false

  package init() {}

  // NB: A thread-local, as `StoreContext`: a store runs its reducer and observer synchronously
  // on its own thread.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The tracker of the action being processed on this thread, if any.
  package static var current: SharedChangeTracker? {
    pthread_getspecific(self.key).map {
      Unmanaged<SharedChangeTracker>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// Notes a shared value that kept its value from before the action, and how to forget it.
  func track(_ forget: @escaping () -> Void) {
    self.forgetters.append(forget)
  }

  /// Runs `body` with this tracker current, then forgets the values kept from before.
  package func tracking<T>(_ body: () -> T) -> T {
    let previous = pthread_getspecific(Self.key)
    pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
    defer {
      pthread_setspecific(Self.key, previous)
      for forget in self.forgetters { forget() }
      self.forgetters.removeAll(keepingCapacity: true)
    }
    return withExtendedLifetime(self) { body() }
  }

  /// Runs `body` with shared values comparing their values before the action with now.
  package func comparing<T>(_ body: () -> T) -> T {
    let wasComparing = self.isComparing
    self.isComparing = true
    defer { self.isComparing = wasComparing }
    return body()
  }
}
