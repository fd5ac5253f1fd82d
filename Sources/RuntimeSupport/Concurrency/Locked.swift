import Foundation

/// A value guarded by a lock.
///
/// NB: Inlinable, so that callers in other modules get it specialized for their values: the
/// recorder takes a few locks for every action, and a generic call looked up metadata for its
/// result each time. The lock, not a runtime check, keeps accesses to `value` exclusive.
package final class Locked<Value>: @unchecked Sendable {
  @usableFromInline @exclusivity(unchecked) var value: Value
  @usableFromInline let lock = NSLock()

  package init(_ value: Value) {
    self.value = value
  }

  @inlinable
  package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    self.lock.lock()
    defer { self.lock.unlock() }
    return try body(&self.value)
  }
}

extension Locked {
  /// The value kept for `key`, made by `make` the first time it is asked for.
  ///
  /// `make` runs outside the lock — making a value may ask for others — so two threads may
  /// both make one; the first kept is the one every caller gets.
  @inlinable
  package func value<Key: Hashable, Element>(
    for key: Key, orMake make: () -> Element
  ) -> Element where Value == [Key: Element] {
    if let known = self.withLock({ $0[key] }) { return known }
    let made = make()
    return self.withLock { values in
      if let known = values[key] { return known }
      values[key] = made
      return made
    }
  }
}
