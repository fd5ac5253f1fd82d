extension StateChange {
  /// The changes from `old` to `new`, leaf by leaf, in the order of the state's properties.
  ///
  /// ```swift
  /// StateChange.diff(from: before, to: after)
  /// // [StateChange(path: "login.email", kind: .changed, old: #""""#, new: #""a@b.c""#)]
  /// ```
  ///
  /// `Equatable` subtrees that compare equal are skipped without being looked into; elements
  /// of collections of `Identifiable` values are matched by id (`todos[id: 3]`), other
  /// collections by index (`items[2]`), dictionaries by key.
  public static func diff(from old: Any, to new: Any) -> [StateChange] {
    StateDiff.changes(from: old, to: new)
  }
}
