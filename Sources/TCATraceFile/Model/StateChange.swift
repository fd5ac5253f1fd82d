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
  /// What rebuilding the state needs besides ``new``; `nil` when `new` is all it needs.
  public var rebuild: Rebuild?
  /// When the changed value is, or is inside, a `@Shared` value, that value's path (`settings`
  /// for a change at `settings.theme`): a reference other states may hold too, whose change a
  /// `TestStore` sees when it is made. `nil` when it is not shared, and in traces older than
  /// schema version 5, which do not say.
  public var sharedPath: String?

  public init(
    path: String, kind: Kind, old: String?, new: String?, rebuild: Rebuild? = nil,
    sharedPath: String? = nil
  ) {
    self.path = path
    self.kind = kind
    self.old = old
    self.new = new
    self.rebuild = rebuild
    self.sharedPath = sharedPath
  }

  /// Two changes are equal when they say the same: the same path, kind and values. What they
  /// hold for rebuilding the state follows from the values, and whether they are shared from
  /// the state's type.
  public static func == (lhs: StateChange, rhs: StateChange) -> Bool {
    lhs.path == rhs.path && lhs.kind == rhs.kind && lhs.old == rhs.old && lhs.new == rhs.new
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.path)
    hasher.combine(self.kind)
    hasher.combine(self.old)
    hasher.combine(self.new)
  }

  /// What a change holds for rebuilding the state from the one before it, besides its text.
  public struct Rebuild: Hashable, Sendable {
    /// The new value as a tree, when its text alone does not say how it prints inside the
    /// state: a struct, an enum case, a string of several lines.
    public var node: StateNode?
    /// For an element added to an identified collection: its index in the collection after
    /// the action.
    public var index: Int?
    /// For an entry added to a dictionary: its key as CustomDump prints it inside the state.
    public var label: String?
    /// For a change of the order of an identified collection's elements: the keys of the
    /// elements it kept (`[id: 3]`), in their new order.
    public var order: [String]?

    public init(
      node: StateNode? = nil, index: Int? = nil, label: String? = nil, order: [String]? = nil
    ) {
      self.node = node
      self.index = index
      self.label = label
      self.order = order
    }
  }
}
