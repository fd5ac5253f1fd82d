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

/// CustomDump's rendering of a tree, written in one pass into one buffer.
///
/// NB: CustomDump renders a child, then indents each of its lines for its parent, and again for
/// each level above: a state of many levels was copied once per level. Here each line is
/// written once, indented as deep as it ends up.
struct StateRenderer {
  var bytes: [UInt8] = []
  /// Where the parts of a kept state that were left in its JSON lie (see ``StateStubs``).
  var stubs: StateStubs?
  /// Whether a part left in its JSON could not be written: the JSON is not a tree's.
  var failed = false

  var string: String { String(decoding: self.bytes, as: UTF8.self) }

  /// Writes `node`, labelled `name`, its first line where the buffer ends and the others
  /// `indent` spaces in; `isRoot`: an enum case prints its type.
  mutating func write(_ node: StateNode, name: String?, indent: Int, isRoot: Bool) {
    if let name {
      self.text(name, indent: indent)
      self.bytes += ": ".utf8
    }
    switch node {
    case let .text(text):
      if let stubs = self.stubs, let stub = stubs.node(of: text) {
        var parser = JSONParser(bytes: stubs.bytes)
        parser.index = stub.offset
        do throws(StateJSONError) {
          _ = try self.writeJSON(&parser, named: name != nil, indent: indent, isRoot: isRoot, depth: stub.depth)
        } catch {
          self.failed = true
        }
      } else {
        self.text(text, indent: indent)
      }
    case let .multilineString(string, hashes):
      // The lines of a labelled string are two spaces further in than its label.
      let inner = name != nil ? indent + 2 : indent
      self.marks(hashes)
      self.bytes += #"""""#.utf8
      self.newline(indent: inner)
      self.text(string, indent: inner)
      self.newline(indent: inner)
      self.marks(hashes, after: #"""""#)
    case let .enumCase(type, description):
      if isRoot { self.text(type, indent: indent) }
      self.bytes.append(UInt8(ascii: "."))
      self.text(description, indent: indent)
    case let .some(wrapped):
      self.write(wrapped, name: nil, indent: indent, isRoot: false)
    case let .container(container):
      self.write(container, indent: indent, isRoot: isRoot)
    }
  }

  private mutating func write(_ container: StateContainer, indent: Int, isRoot: Bool) {
    switch container.kind {
    case let .structure(type):
      self.text(type, indent: indent)
      self.children(of: container, indent: indent, prefix: "(", suffix: ")")
    case .tuple:
      self.children(of: container, indent: indent, prefix: "(", suffix: ")")
    case .collection:
      self.children(of: container, indent: indent, prefix: "[", suffix: "]")
    case .dictionary:
      if container.children.isEmpty {
        self.bytes += "[:]".utf8
      } else {
        self.children(of: container, indent: indent, prefix: "[", suffix: "]")
      }
    case .set:
      self.children(of: container, indent: indent, prefix: "Set([", suffix: "])")
    case let .enumCase(type, name):
      if isRoot { self.text(type, indent: indent) }
      self.bytes.append(UInt8(ascii: "."))
      self.text(name, indent: indent)
      self.children(of: container, indent: indent, prefix: "(", suffix: ")")
    }
  }

  /// CustomDump's layout of children: one child with nothing to reflect on the line, the rest
  /// one per line, two spaces in, separated by commas.
  private mutating func children(
    of container: StateContainer, indent: Int, prefix: StaticString, suffix: StaticString
  ) {
    self.append(prefix)
    if !container.children.isEmpty {
      if container.isSingleValueContainer {
        let child = container.children[0]
        // NB: An atomic value has one line, unless it is a string of several.
        if case .multilineString = child.node {
          self.newline(indent: indent + 2)
          self.write(child.node, name: child.label, indent: indent + 2, isRoot: false)
          self.newline(indent: indent)
        } else {
          self.write(child.node, name: child.label, indent: indent, isRoot: false)
        }
      } else {
        let isCollection = container.kind == .collection
        for (offset, child) in container.children.enumerated() {
          self.newline(indent: indent + 2)
          if isCollection {
            self.bytes += "[\(offset)]: ".utf8
            self.write(child.node, name: nil, indent: indent + 2, isRoot: false)
          } else {
            self.write(child.node, name: child.label, indent: indent + 2, isRoot: false)
          }
          if offset != container.children.count - 1 { self.bytes.append(UInt8(ascii: ",")) }
        }
        self.newline(indent: indent)
      }
    }
    self.append(suffix)
  }

  mutating func newline(indent: Int) {
    self.bytes.append(UInt8(ascii: "\n"))
    self.bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
  }

  /// `text`, each of its lines after the first `indent` spaces in.
  mutating func text(_ text: String, indent: Int) {
    var text = text
    text.withUTF8 { utf8 in
      var start = 0
      for index in utf8.indices where utf8[index] == UInt8(ascii: "\n") {
        self.bytes += UnsafeBufferPointer(rebasing: utf8[start..<index])
        self.newline(indent: indent)
        start = index + 1
      }
      self.bytes += UnsafeBufferPointer(rebasing: utf8[start...])
    }
  }

  mutating func marks(_ hashes: Int, after delimiter: String = "") {
    self.bytes += delimiter.utf8
    self.bytes.append(contentsOf: repeatElement(UInt8(ascii: "#"), count: hashes))
  }

  mutating func append(_ string: StaticString) {
    self.bytes += UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount)
  }
}
