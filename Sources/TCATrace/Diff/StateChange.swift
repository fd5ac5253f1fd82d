/// One changed leaf or collection element of a feature's state.
///
/// ```swift
/// StateChange(path: "login.twoFactor.code", kind: .changed, old: #""""#, new: #""42""#)
/// StateChange(path: "todos.todos[id: 3]", kind: .removed, old: "TodoRowFeature.State(…)", new: nil)
/// ```
public struct StateChange: Hashable, Sendable {
  /// Whether a value changed, or an optional or collection element appeared or went away.
  public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
    case changed
    case added
    case removed
  }

  /// The path from the root state, dotted like a key path: `login.twoFactor.code`,
  /// `todos.todos[id: 3].isComplete`, `items[2]`, `settings` (an optional that became `nil`).
  public var path: String
  public var kind: Kind
  /// The old value, rendered with CustomDump; `nil` when added.
  public var old: String?
  /// The new value, rendered with CustomDump; `nil` when removed.
  public var new: String?

  public init(path: String, kind: Kind, old: String?, new: String?) {
    self.path = path
    self.kind = kind
    self.old = old
    self.new = new
  }
}

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
