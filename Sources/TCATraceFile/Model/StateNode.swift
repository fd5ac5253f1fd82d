import Foundation

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
    self.rendered(name: nil, indent: 0, isRoot: true)
  }

  /// The node printed as CustomDump prints the value inside another, without a label: an
  /// enum case as `.loading`, not `Status.loading`.
  package func renderedNested() -> String {
    self.rendered(name: nil, indent: 0, isRoot: false)
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

  func rendered(name: String?, indent: Int, isRoot: Bool) -> String {
    var out: String
    switch self {
    case let .text(text):
      out = text
    case let .multilineString(string, hashes):
      let marks = String(repeating: "#", count: hashes)
      out = marks + "\"\"\"\n" + string.indented(by: name != nil ? 2 : 0) + "\n"
      out += name != nil ? "  \"\"\"" + marks : "\"\"\"" + marks
    case let .enumCase(type, description):
      out = (isRoot ? type + "." : ".") + description
    case let .some(wrapped):
      out = wrapped.rendered(name: nil, indent: 0, isRoot: false)
    case let .container(container):
      out = container.rendered(isRoot: isRoot)
    }
    return ((name.map { "\($0): " } ?? "") + out).indented(by: indent)
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

  func rendered(isRoot: Bool) -> String {
    switch self.kind {
    case let .structure(type):
      return self.renderedChildren(prefix: type + "(", suffix: ")")
    case .tuple:
      return self.renderedChildren(prefix: "(", suffix: ")")
    case .collection:
      return self.renderedChildren(prefix: "[", suffix: "]")
    case .dictionary:
      return self.children.isEmpty ? "[:]" : self.renderedChildren(prefix: "[", suffix: "]")
    case .set:
      return self.renderedChildren(prefix: "Set([", suffix: "])")
    case let .enumCase(type, name):
      return (isRoot ? type + "." : ".") + self.renderedChildren(prefix: name + "(", suffix: ")")
    }
  }

  /// CustomDump's layout of children: one child with nothing to reflect on the line, the rest
  /// one per line, indented, separated by commas.
  private func renderedChildren(prefix: String, suffix: String) -> String {
    var out = prefix
    if !self.children.isEmpty {
      if self.isSingleValueContainer {
        let child = self.children[0]
        let childOut = child.node.rendered(name: child.label, indent: 0, isRoot: false)
        out += childOut.utf8.contains(0x0A) ? "\n" + childOut.indented(by: 2) + "\n" : childOut
      } else {
        out += "\n"
        for (offset, child) in self.children.enumerated() {
          let label = self.kind == .collection ? "[\(offset)]" : child.label
          out += child.node.rendered(name: label, indent: 2, isRoot: false)
          if offset != self.children.count - 1 { out += "," }
          out += "\n"
        }
      }
    }
    return out + suffix
  }

  private var isSingleValueContainer: Bool {
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

extension String {
  /// CustomDump's indentation: every line, the first included, by `count` spaces.
  ///
  /// NB: Byte by byte, not with Foundation's `replacingOccurrences`: a large state is indented
  /// once per level of nesting, and Foundation's search dominated printing it.
  fileprivate func indented(by count: Int) -> String {
    guard count > 0 else { return self }
    var out: [UInt8] = []
    out.reserveCapacity(self.utf8.count + count * 16)
    let pad = [UInt8](repeating: UInt8(ascii: " "), count: count)
    out += pad
    for byte in self.utf8 {
      out.append(byte)
      if byte == UInt8(ascii: "\n") { out += pad }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
