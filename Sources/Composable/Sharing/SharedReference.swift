import ActionObservation
import Foundation
import RuntimeSupport

/// Where a ``Shared`` value lives: a root that holds it (and saves it under its key), or a part
/// of another shared value.
protocol SharedReference<Value>: AnyObject, Sendable {
  associatedtype Value
  /// The root's identity: two references with the same id read the same storage.
  var id: ObjectIdentifier { get }
  /// The value now; while a test store asserts (see ``SharedChangeTracker``), the value before
  /// the action, as the test expects it.
  var value: Value { get }
  /// The value now, even while a test store asserts.
  var valueNow: Value { get }
  /// The value before the action a ``SharedChangeTracker`` records, when it changed during it;
  /// otherwise the value now.
  var valueBeforeChange: Value { get }
  func withLock<R>(_ operation: (inout Value) throws -> R) rethrows -> R
  func save()
  func load()
}

extension SharedReference {
  func appending<Member>(_ keyPath: WritableKeyPath<Value, Member>) -> any SharedReference<Member> {
    PartReference(base: self, keyPath: keyPath)
  }
}

/// A shared value's storage, persisted under its key, if any.
final class RootReference<Value>: SharedReference, @unchecked Sendable {
  // NB: Recursive: an operation in `withLock` may read the value it changes.
  private let lock = NSRecursiveLock()
  private var _value: Value
  private var snapshot: Value?
  private let key: (any SharedKey<Value>)?

  init(value: Value, key: (any SharedKey<Value>)?) {
    self._value = value
    self.key = key
    sharedValuesExist.storeRelaxed(1)
  }

  var id: ObjectIdentifier { ObjectIdentifier(self) }

  var value: Value {
    self.lock.withLock {
      if let snapshot = self.snapshot, SharedChangeTracker.asserting != nil { return snapshot }
      return self._value
    }
  }

  var valueNow: Value {
    self.lock.withLock { self._value }
  }

  var valueBeforeChange: Value {
    self.lock.withLock { self.snapshot ?? self._value }
  }

  func withLock<R>(_ operation: (inout Value) throws -> R) rethrows -> R {
    if let tracker = SharedChangeTracker.asserting {
      // NB: A test's expectation: it changes the value before the action, which is compared
      // with the value now; the shared value itself stays as the action left it.
      return try self.lock.withLock {
        if self.snapshot == nil {
          tracker.track { [weak self] in self?.forgetSnapshot() }
        }
        var expected = self.snapshot ?? self._value
        defer { self.snapshot = expected }
        return try operation(&expected)
      }
    }
    let result = try self.lock.withLock {
      if self.snapshot == nil, let tracker = SharedChangeTracker.current {
        self.snapshot = self._value
        tracker.track { [weak self] in self?.forgetSnapshot() }
      }
      return try operation(&self._value)
    }
    self.save()
    return result
  }

  private func forgetSnapshot() {
    self.lock.withLock { self.snapshot = nil }
  }

  func save() {
    guard let key = self.key else { return }
    key.save(self.value)
  }

  func load() {
    guard let key = self.key else { return }
    let loaded = self.lock.withLock { key.load(initialValue: self._value) }
    guard let loaded else { return }
    self.lock.withLock { self._value = loaded }
  }
}

/// A part of another shared value, reached by a key path.
final class PartReference<Base: SharedReference, Value>: SharedReference, @unchecked Sendable {
  // NB: `@unchecked`: the key path is immutable, and every access goes through the base.
  private let base: Base
  private let keyPath: WritableKeyPath<Base.Value, Value>

  init(base: Base, keyPath: WritableKeyPath<Base.Value, Value>) {
    self.base = base
    self.keyPath = keyPath
  }

  var id: ObjectIdentifier { self.base.id }
  var value: Value { self.base.value[keyPath: self.keyPath] }
  var valueNow: Value { self.base.valueNow[keyPath: self.keyPath] }
  var valueBeforeChange: Value { self.base.valueBeforeChange[keyPath: self.keyPath] }

  func withLock<R>(_ operation: (inout Value) throws -> R) rethrows -> R {
    try self.base.withLock { try operation(&$0[keyPath: self.keyPath]) }
  }

  func save() { self.base.save() }
  func load() { self.base.load() }
}

/// The value in a shared optional: the optional's while it holds one, its last one after.
final class UnwrappedReference<Value>: SharedReference, @unchecked Sendable {
  // NB: `@unchecked`: the last value is only read and written under the lock.
  private let base: any SharedReference<Value?>
  private let lock = NSLock()
  private var lastValue: Value

  init(base: any SharedReference<Value?>, lastValue: Value) {
    self.base = base
    self.lastValue = lastValue
  }

  /// The value now, kept as the last one when there is one.
  private func unwrapped(_ value: Value?) -> Value {
    self.lock.withLock {
      if let value { self.lastValue = value }
      return self.lastValue
    }
  }

  var id: ObjectIdentifier { self.base.id }
  // NB: Values other than the value now (a test's expectation, the value before an action) are
  // not kept as the last value.
  var value: Value {
    guard SharedChangeTracker.asserting == nil else {
      return self.base.value ?? self.lock.withLock { self.lastValue }
    }
    return self.valueNow
  }
  var valueNow: Value { self.unwrapped(self.base.valueNow) }
  var valueBeforeChange: Value {
    self.base.valueBeforeChange ?? self.lock.withLock { self.lastValue }
  }

  func withLock<R>(_ operation: (inout Value) throws -> R) rethrows -> R {
    try self.base.withLock { optional in
      var value = optional ?? self.lock.withLock { self.lastValue }
      defer {
        if optional != nil { optional = value }
        if SharedChangeTracker.asserting == nil { _ = self.unwrapped(value) }
      }
      return try operation(&value)
    }
  }

  func save() { self.base.save() }
  func load() { self.base.load() }
}

/// The roots of the shared values with a key, while some `Shared` holds them: two
/// `@Shared(.inMemory("count"))` refer to one value.
enum SharedReferences {
  private final class WeakRoot: @unchecked Sendable {
    weak var root: AnyObject?
    init(_ root: AnyObject) { self.root = root }
  }

  private static let roots = Locked<[AnyHashable: WeakRoot]>([:])

  static func reference<Value>(
    for key: some SharedKey<Value>, initialValue: () -> Value
  ) -> any SharedReference<Value> {
    let id = AnyHashable(key.id)
    return self.roots.withLock { roots in
      if let root = roots[id]?.root as? RootReference<Value> { return root }
      let initialValue = initialValue()
      let root = RootReference(
        value: key.load(initialValue: initialValue) ?? initialValue, key: key)
      roots = roots.filter { $0.value.root != nil }
      roots[id] = WeakRoot(root)
      return root
    }
  }
}
