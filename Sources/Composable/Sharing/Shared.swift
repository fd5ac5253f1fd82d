import ActionObservation
import Foundation
import RuntimeSupport

/// A value shared by the features that hold it, and, with a key, kept in memory or in a file
/// under that key; swift-sharing's `Shared`, as TCA 1.x re-exports it.
///
/// ```swift
/// @ObservableState
/// struct State {
///   @Shared(.inMemory("count")) var count = 0
///   @Shared(.fileStorage(.settingsURL)) var settings = Settings()
/// }
///
/// state.$count.withLock { $0 += 1 }   // every feature holding `.inMemory("count")` sees 1
/// ```
///
/// A `Shared` is a reference: copies of a state hold the same value. It is read through the
/// property (`state.count`) and changed with ``withLock(_:fileID:filePath:line:column:)`` on
/// its projection (`state.$count`), as in swift-sharing 2.
@dynamicMemberLookup
@propertyWrapper
public struct Shared<Value> {
  private let box: Box

  init(reference: any SharedReference<Value>) {
    self.box = Box(reference)
  }

  var reference: any SharedReference<Value> {
    get { self.box.reference }
    nonmutating set { self.box.reference = newValue }
  }

  /// A shared value that no key persists.
  public init(value: sending Value) {
    self.init(reference: RootReference(value: value, key: nil))
  }

  /// A shared value from another: the two refer to the same value. Swift calls it for a
  /// `@Shared` parameter given `$shared`.
  public init(projectedValue: Self) {
    self = projectedValue
  }

  /// The value shared under `key`: the one already there, or `wrappedValue` when `key` holds
  /// none yet.
  ///
  /// ```swift
  /// @Shared(.inMemory("count")) var count = 0
  /// ```
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    self.init(reference: SharedReferences.reference(for: key, initialValue: wrappedValue))
  }

  /// The value shared under a key that has a default.
  ///
  /// ```swift
  /// extension SharedReaderKey where Self == InMemoryKey<Int>.Default {
  ///   static var count: Self { Self[.inMemory("count"), default: 0] }
  /// }
  /// @Shared(.count) var count
  /// ```
  public init<Key: SharedKey<Value>>(_ key: _SharedKeyDefault<Key>) {
    self.init(wrappedValue: key.defaultValue(), key)
  }

  /// The value shared under a key that has a default, or `wrappedValue` (rather than the
  /// default) when the key holds none yet.
  ///
  /// ```swift
  /// @Shared(.syncUps) var syncUps = [.mock]
  /// ```
  public init<Key: SharedKey<Value>>(
    wrappedValue: @autoclosure () -> Value, _ key: _SharedKeyDefault<Key>
  ) {
    self.init(wrappedValue: wrappedValue(), key.base)
  }

  /// A shared reference to the value in a shared optional, while it holds one; `nil` when it
  /// holds none.
  ///
  /// ```swift
  /// if let syncUp = Shared($syncUps[id: id]) {
  ///   SyncUpDetail.State(syncUp: syncUp)   // a Shared<SyncUp>
  /// }
  /// ```
  ///
  /// When the optional later becomes `nil`, the reference keeps its last value, and changes
  /// made through it stay there: none is written back.
  public init?(_ base: Shared<Value?>) {
    guard let value = base.wrappedValue else { return nil }
    self.init(reference: UnwrappedReference(base: base.reference, lastValue: value))
  }

  /// The shared value. Change it with ``withLock(_:fileID:filePath:line:column:)``.
  ///
  /// NB: Setting it is deprecated, as in swift-sharing, not unavailable: code written for TCA
  /// that sets it compiles with a warning, and in a `TestStore`'s closure (`$0.count = 1`, as
  /// `tcatrace test` writes a shared value's change) it sets what the test expects.
  public var wrappedValue: Value {
    get { self.reference.value }
    @available(
      *, deprecated,
      message: "Use '$shared.withLock' to modify a shared value with exclusive access."
    )
    nonmutating set { self.withLock { $0 = newValue } }
  }

  /// Changes the shared value with exclusive access to it, and saves it under its key.
  ///
  /// ```swift
  /// state.$count.withLock { $0 += 1 }
  /// ```
  @discardableResult
  public func withLock<R>(
    _ operation: (inout Value) throws -> R,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) rethrows -> R {
    try self.reference.withLock(operation)
  }

  /// The shared reference itself, to hand to another feature (`Child.State(count: $count)`) or
  /// to change with ``withLock(_:fileID:filePath:line:column:)``.
  public var projectedValue: Self {
    get { self }
    nonmutating set { self.reference = newValue.reference }
  }

  /// A shared reference to part of the value: `$settings.displayName`.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Shared<Member>
  {
    Shared<Member>(reference: self.reference.appending(keyPath))
  }

  /// Writes the value under its key now. Changes are saved as they are made; this is for a
  /// value changed elsewhere, such as a file another process edited.
  public func save() {
    self.reference.save()
  }

  /// Reads the value under its key again.
  public func load() {
    self.reference.load()
  }

  private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var _reference: any SharedReference<Value>

    init(_ reference: any SharedReference<Value>) {
      self._reference = reference
    }

    var reference: any SharedReference<Value> {
      get { self.lock.withLock { self._reference } }
      set { self.lock.withLock { self._reference = newValue } }
    }
  }
}

// NB: As swift-sharing's: a `Shared` is sent between features and effects; its value is
// only read and changed under its reference's lock.
extension Shared: @unchecked Sendable {}

extension Shared: Equatable where Value: Equatable {
  /// Whether the two hold equal values.
  ///
  /// While a store's observer looks at an action, or a test store asserts one (see
  /// `SharedChangeTracker`), a shared value compared with itself compares its value before the
  /// action with its value now, so that the recorder's diff and the test see what the action
  /// changed in it.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    let lhsReference = lhs.reference
    let rhsReference = rhs.reference
    if lhsReference.id == rhsReference.id,
      SharedChangeTracker.current?.isComparing == true || SharedChangeTracker.asserting != nil
    {
      return lhsReference.valueBeforeChange == rhsReference.valueNow
    }
    return lhsReference.value == rhsReference.value
  }
}

extension Shared: Identifiable where Value: Identifiable {
  public var id: Value.ID { self.wrappedValue.id }
}

extension Shared: CustomStringConvertible {
  public var description: String {
    "Shared<\(Value.self)>(\(String(describing: self.wrappedValue)))"
  }
}

extension Shared: CustomDumpRepresentable {
  public var customDumpValue: Any { self.wrappedValue }
}

// NB: As swift-sharing's: CustomDump's diff of two states that hold the same shared value shows
// its value before the action (as a test expects it) against its value now.
extension Shared: _CustomDiffObject {
  public var _customDiffValues: (Any, Any) {
    let reference = self.reference
    return (reference.valueBeforeChange as Any, reference.valueNow as Any)
  }

  public var _objectIdentifier: ObjectIdentifier { self.reference.id }
}

extension Shared: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(reflecting: self.wrappedValue as Any)
  }
}

extension Shared: _StateWrapperType {
  package static var wrappedStateType: Any.Type { Value.self }
  package static var readsAsOptional: Bool { false }
}

extension Shared: _SharedStateValue {
  package var sharedValues: (before: Any, after: Any) {
    let reference = self.reference
    return (reference.valueBeforeChange as Any, reference.value as Any)
  }
}
