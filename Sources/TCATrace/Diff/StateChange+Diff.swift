extension StateChange {
  /// The changes from `old` to `new`, leaf by leaf, in the order of the state's properties.
  ///
  /// ```swift
  /// StateChange.diff(from: before, to: after)
  /// // [StateChange(path: "login.email", kind: .changed, old: #""""#, new: #""a@b.c""#)]
  /// ```
  ///
  /// `Equatable` subtrees that compare equal are skipped without being looked into; elements
  /// of identified collections (an `IdentifiedArray` or a `StackState`) are matched by id
  /// (`todos[id: 3]`), as their `[id:]` subscript names them; other collections', an array of
  /// `Identifiable` values included, by index (`results[2]`); dictionaries' by key.
  public static func diff(from old: Any, to new: Any) -> [StateChange] {
    StateDiff.changes(from: old, to: new)
  }
}
