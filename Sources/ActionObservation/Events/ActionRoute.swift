import RuntimeSupport

/// One step of an action's way from a parent feature to a child feature.
///
/// `Scope`, `ifLet` and `forEach` each add a step when they hand an action to their child.
public struct ActionRoute: Hashable, CustomStringConvertible, @unchecked Sendable {
  // NB: Key paths are immutable values; `AnyKeyPath` is not marked `Sendable` by the standard
  // library, but sharing one across isolation domains is safe.

  /// How the child was embedded.
  public enum Kind: Hashable, Sendable {
    /// `Scope`: the child's state is always present.
    case scope
    /// `ifLet`: the child's state is optional.
    case optional
    /// `forEach`: the child is the element with this id of a collection.
    case element(id: ElementID)
  }

  /// The id of an element of a `forEach` collection.
  public struct ElementID: Hashable, CustomStringConvertible, @unchecked Sendable {
    // NB: Wraps the `Hashable & Sendable` id of an `IdentifiedAction`.
    public let base: AnyHashable

    public init(_ base: some Hashable & Sendable) {
      self.base = AnyHashable(base)
    }

    public var description: String {
      Self.describe(self.base.base)
    }

    /// How an element id reads in a path: `3`, `"a"` (strings are quoted).
    ///
    /// A stack element's id reads as its generation, `0`, on either host (TCA prints it `#0`).
    public static func describe(_ id: Any) -> String {
      // NB: The ids most collections use are read first: `String(describing:)` of a number
      // looks up its conformances, a microsecond of a recorded row's change.
      if let int = id as? Int {
        return String(int)
      }
      if let string = id as? String {
        return String(reflecting: string)
      }
      if String(describing: type(of: id)) == "StackElementID",
        let generation = Mirror(reflecting: id).children.first(where: { $0.label == "generation" })?
          .value as? Int
      {
        return String(generation)
      }
      return String(describing: id)
    }
  }

  /// The key path from the parent's state to the child's state (or to the collection).
  public let keyPath: AnyKeyPath

  /// How the child was embedded.
  public let kind: Kind

  /// The child's name where its key path does not read as one: the case of an enum state.
  private let name: String?

  /// - Parameters:
  ///   - keyPath: The key path from the parent's state to the child's state.
  ///   - kind: How the child was embedded.
  ///   - name: The child's name in state paths. Default: the key path's, `login` for
  ///     `\.login` (`destination` for `\.$destination`).
  public init(keyPath: AnyKeyPath, kind: Kind, name: String? = nil) {
    self.keyPath = keyPath
    self.kind = kind
    self.name = name
  }

  /// The child's state path relative to the parent: `login`, `twoFactor`, `todos[id: 3]`.
  public var statePath: String {
    let property = self.name ?? KeyPathNames.name(of: self.keyPath)
    switch self.kind {
    case .scope, .optional: return property
    case let .element(id): return "\(property)[id: \(id)]"
    }
  }

  public var description: String {
    self.statePath
  }
}

extension [ActionRoute] {
  /// The state path of the last child from the root: `login.twoFactor`, `todos[id: 3]`; empty
  /// for the root.
  public var statePath: String {
    // NB: Built in place: most routes have one step, and an array of the steps' paths, joined,
    // is a visible part of what recording a child's action on TCA adds to its send.
    guard let first = self.first else { return "" }
    var path = first.statePath
    for step in self.dropFirst() {
      path += "."
      path += step.statePath
    }
    return path
  }
}
