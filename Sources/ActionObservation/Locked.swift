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
