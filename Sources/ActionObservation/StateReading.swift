import RuntimeSupport

/// A wrapper whose single stored value is the state: readers of state (the recorder's diff)
/// look through it, so that `@Presents var destination` reads as `destination`.
package protocol _TransparentStateWrapper {
  /// The state it wraps.
  var wrappedState: Any { get }
}

/// A shared value as the readers of state see it: its value before the action being recorded
/// and its value now.
package protocol _SharedStateValue {
  /// The value before the action being recorded (the value now when it did not change), and
  /// the value now.
  var sharedValues: (before: Any, after: Any) { get }
}

/// Whether any shared value was ever made: until one is, readers of state (the recorder's
/// diff) need not look for them.
package let sharedValuesExist = AtomicWord(0)
