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
