import Foundation

/// A value guarded by a lock.
package final class Locked<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()

  package init(_ value: Value) {
    self.value = value
  }

  package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    self.lock.lock()
    defer { self.lock.unlock() }
    return try body(&self.value)
  }
}
