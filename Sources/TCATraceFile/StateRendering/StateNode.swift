/// A feature's whole state as CustomDump renders it, as a tree: what a trace keeps to rebuild the
/// state at any step, and what `tcatrace state` prints.
///
/// ```swift
/// let state = try reader.state(session: 1, after: 412)
/// print(state.rendered())              // as `customDump(store.state)` printed it then
/// print(state.node(at: "login.email")?.rendered() ?? "no such path")
/// ```
///
/// A node keeps what CustomDump's rendering of the value needs and nothing of its type: it
/// renders without the app's code. Each child has the key a change's path names it by
/// (`login`, `todos[id: 3]`, `items[2]`), so the changes a trace records rebuild one state from
/// another (``applying(_:)``).
public indirect enum StateNode: Hashable, Sendable {
  /// A value printed as it is, on one line or several: a number, a flag, a single-line string
  /// with its quotes, a value with a description of its own (`<redacted>`, a date).
  case text(String)
  /// A string with line breaks, printed as a multi-line literal whose delimiters carry
  /// `hashes` number signs: its indentation depends on whether it is labelled.
  case multilineString(String, hashes: Int)
  /// An enum case without associated values, `description` being how the case prints:
  /// `.loading`, or at the root `Feature.Status.loading`.
  case enumCase(type: String, description: String)
  /// An optional that holds a value: printed as the value.
  case some(StateNode)
  /// A value with children: a struct, a tuple, a collection, a dictionary, a set, or an enum
  /// case with associated values.
  case container(StateContainer)

  /// The node printed as CustomDump prints the value it stands for: `customDump(value)`.
  public func rendered() -> String {
    var renderer = StateRenderer()
    renderer.write(self, name: nil, indent: 0, isRoot: true)
    return renderer.string
  }

  /// The node printed as CustomDump prints the value inside another, without a label: an
  /// enum case as `.loading`, not `Status.loading`.
  package func renderedNested() -> String {
    var renderer = StateRenderer()
    renderer.write(self, name: nil, indent: 0, isRoot: false)
    return renderer.string
  }

  /// Whether the value has nothing to reflect: CustomDump prints a struct of one such
  /// property on one line, `Counter(count: 3)`.
  var isAtomic: Bool {
    switch self {
    case let .text(text): !text.utf8.contains(0x0A)
    case .multilineString, .enumCase: true
    case .some: false
    case let .container(container): container.children.isEmpty
    }
  }
}

/// A node with children.
public struct StateContainer: Hashable, Sendable {
  /// How the value prints around its children.
  public enum Kind: Hashable, Sendable {
    /// `Type(` … `)`: a struct, or a class.
    case structure(type: String)
    /// `(` … `)`.
    case tuple
    /// `[` … `]`, each child labelled with its index.
    case collection
    /// `[` … `]`, each child labelled with its key; `[:]` when empty. `sorted`: the children
    /// are kept in the order of their labels, as CustomDump sorts a `Dictionary`'s.
    case dictionary(sorted: Bool)
    /// `Set([` … `])`, the children in the order of their renderings.
    case set
    /// `.name(` … `)`, or at the root `Type.name(` … `)`: an enum case with associated values.
    case enumCase(type: String, name: String)
  }

  public var kind: Kind
  public var children: [StateChild]

  public init(kind: Kind, children: [StateChild]) {
    self.kind = kind
    self.children = children
  }

  var isSingleValueContainer: Bool {
    switch self.kind {
    case .collection, .dictionary, .set: false
    default: self.children.count == 1 && self.children[0].node.isAtomic
    }
  }
}

/// A child of a ``StateContainer``.
public struct StateChild: Hashable, Sendable {
  /// The label CustomDump prints before the child: a property's name, a dictionary's key;
  /// `nil` for none (a collection's children are labelled with their index when printed).
  public var label: String?
  /// How a change's path names the child below its parent: `email`, `[id: 3]`, `[2]`,
  /// `["key"]`, a case's name for its associated value; `""` when the path does not name it
  /// (a wrapper the paths look through).
  public var key: String
  public var node: StateNode

  public init(label: String?, key: String, node: StateNode) {
    self.label = label
    self.key = key
    self.node = node
  }
}
