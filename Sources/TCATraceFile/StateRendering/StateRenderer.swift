// The contract of this file: for any value, `StateRenderer` writes, from the value's tree, the
// text swift-custom-dump's `customDump(_:)` writes for the value itself, byte for byte (the
// version this package depends on). `tcatrace state`, the state at each step of `tcatrace
// debug` and the values `tcatrace test` asserts depend on it: a user compares them with what
// their app printed. `StateTreeTests` and `StateRebuildTests` (TCATraceTests) check it on
// random states, and `TimeTravelTests` on the demo's; CustomDump's rules this follows are named
// where they are followed.

/// CustomDump's rendering of a tree, written in one pass into one buffer.
///
/// NB: CustomDump renders a child, then indents each of its lines for its parent, and again for
/// each level above: a state of many levels was copied once per level. Here each line is
/// written once, indented as deep as it ends up.
struct StateRenderer: ~Copyable {
  var bytes = RenderedBytes()
  /// Where the parts of a kept state that were left in its JSON lie (see ``StateStubs``).
  var stubs: StateStubs?
  /// Whether a part left in its JSON could not be written: the JSON is not a tree's.
  var failed = false

  var string: String { self.bytes.string }

  /// Writes `node`, labelled `name`, its first line where the buffer ends and the others
  /// `indent` spaces in; `isRoot`: an enum case prints its type.
  mutating func write(_ node: StateNode, name: String?, indent: Int, isRoot: Bool) {
    if let name {
      self.text(name, indent: indent)
      self.bytes.append(": ")
    }
    switch node {
    case let .text(text):
      if let stubs = self.stubs, let stub = stubs.node(of: text) {
        var parser = JSONParser(bytes: stubs.bytes)
        parser.index = stub.offset
        do throws(StateJSONError) {
          _ = try self.writeJSON(
            &parser, named: name != nil, indent: indent, isRoot: isRoot, depth: stub.depth)
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
      self.bytes.append(#"""""#)
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
    let layout: ContainerLayout
    switch container.kind {
    case let .structure(type):
      self.text(type, indent: indent)
      layout = .parenthesized
    case .tuple: layout = .parenthesized
    case .collection: layout = .collection
    case .dictionary: layout = .dictionary
    case .set: layout = .set
    case let .enumCase(type, name):
      if isRoot { self.text(type, indent: indent) }
      self.bytes.append(UInt8(ascii: "."))
      self.text(name, indent: indent)
      layout = .parenthesized
    }
    if let stubs = self.stubs, let last = container.children.last,
      let (number, rest) = stubs.rest(last)
    {
      var children = ChildrenWithRest(
        read: Array(container.children.dropLast()), stubs: stubs, number: number, rest: rest
      )
      do throws(StateJSONError) {
        try self.children(&children, layout: layout, indent: indent)
      } catch {
        self.failed = true
      }
      // NB: Its parent took it for a container with children (``StateNode/isAtomic``): one
      // whose every child was removed since is printed from a whole read instead.
      if children.count == 0 { self.failed = true }
      return
    }
    var children = NodeChildren(children: container.children)
    self.children(&children, layout: layout, indent: indent)
  }

  /// How CustomDump lays out a container's children, by its kind.
  struct ContainerLayout {
    var prefix: StaticString
    var suffix: StaticString
    /// Each child labelled with its index.
    var isCollection = false
    /// `[:]` when it has no children.
    var isDictionary = false
    /// A lone child with nothing to reflect is printed on the container's line:
    /// `Counter(count: 3)`.
    var mayBeSingle = false

    /// A struct, a tuple, an enum case with associated values.
    static let parenthesized = Self(prefix: "(", suffix: ")", mayBeSingle: true)
    static let collection = Self(prefix: "[", suffix: "]", isCollection: true)
    static let dictionary = Self(prefix: "[", suffix: "]", isDictionary: true)
    static let set = Self(prefix: "Set([", suffix: "])")
  }

  /// CustomDump's layout of children: each on a line of its own, two spaces in, separated by
  /// commas (a collection's labelled with their index); a lone child with nothing to reflect on
  /// the container's line.
  ///
  /// NB: Each child is written on a line of its own; a lone child printed on the container's
  /// line is then moved up to it: whether it is alone is known only after it, when the children
  /// are read from a kept state's JSON (``JSONChildren``).
  mutating func children<Children: RenderedChildren>(
    _ children: inout Children, layout: ContainerLayout, indent: Int
  ) throws(Children.Failure) {
    self.bytes.append(layout.prefix)
    var count = 0
    var lineStart = 0
    var childStart = 0
    var inline = false
    while try children.next() {
      if count > 0 { self.bytes.append(UInt8(ascii: ",")) }
      lineStart = self.bytes.count
      self.newline(indent: indent + 2)
      childStart = self.bytes.count
      if layout.isCollection {
        self.bytes.append(UInt8(ascii: "["))
        self.decimal(count)
        self.bytes.append("]: ")
      }
      inline = try children.write(into: &self, labelled: !layout.isCollection, indent: indent + 2)
      count += 1
    }
    if count == 0 {
      if layout.isDictionary {
        self.bytes.append(":]")
      } else {
        self.bytes.append(layout.suffix)
      }
      return
    }
    if count == 1 && layout.mayBeSingle && inline {
      if !self.bytes.contains(UInt8(ascii: "\n"), from: childStart) {
        self.bytes.removeSubrange(lineStart..<childStart)
      } else {
        // A label or a type of several lines, indented as deep as the container.
        self.bytes.removeLast(from: lineStart)
        try children.writeFirstAgain(into: &self, indent: indent)
      }
    } else {
      self.newline(indent: indent)
    }
    self.bytes.append(layout.suffix)
  }

  /// Writes `number`, which is not negative, in decimal.
  mutating func decimal(_ number: Int) {
    DecimalDigits.withDigits(of: UInt(number)) { self.bytes.append($0) }
  }

  mutating func newline(indent: Int) {
    self.bytes.append(UInt8(ascii: "\n"))
    self.bytes.append(UInt8(ascii: " "), count: indent)
  }

  /// `text`, each of its lines after the first `indent` spaces in.
  mutating func text(_ text: String, indent: Int) {
    var text = text
    text.withUTF8 { utf8 in
      var start = 0
      for index in utf8.indices where utf8[index] == UInt8(ascii: "\n") {
        self.bytes.append(UnsafeBufferPointer(rebasing: utf8[start..<index]))
        self.newline(indent: indent)
        start = index + 1
      }
      self.bytes.append(UnsafeBufferPointer(rebasing: utf8[start...]))
    }
  }

  mutating func marks(_ hashes: Int, after delimiter: StaticString = "") {
    self.bytes.append(delimiter)
    self.bytes.append(UInt8(ascii: "#"), count: hashes)
  }
}

/// The children of a container ``StateRenderer/children(_:layout:indent:)`` writes: a node's,
/// or those in a kept state's JSON.
protocol RenderedChildren {
  associatedtype Failure: Error
  /// Moves to the next child; `false` when there is none left.
  mutating func next() throws(Failure) -> Bool
  /// Writes the child moved to, its lines after the first `indent` spaces in, with its label
  /// when `labelled`; returns whether CustomDump prints it on its parent's line when it is the
  /// only child (it has nothing to reflect, and is not a string of several lines).
  mutating func write(into renderer: inout StateRenderer, labelled: Bool, indent: Int)
    throws(Failure) -> Bool
  /// Writes the first child again, with its label, its lines after the first `indent` spaces in.
  mutating func writeFirstAgain(into renderer: inout StateRenderer, indent: Int) throws(Failure)
}

/// A node's children.
struct NodeChildren: RenderedChildren {
  let children: [StateChild]
  private var index = -1

  init(children: [StateChild]) {
    self.children = children
  }

  mutating func next() -> Bool {
    self.index += 1
    return self.index < self.children.count
  }

  func write(into renderer: inout StateRenderer, labelled: Bool, indent: Int) -> Bool {
    let child = self.children[self.index]
    renderer.write(child.node, name: labelled ? child.label : nil, indent: indent, isRoot: false)
    if case .multilineString = child.node { return false }
    return child.node.isAtomic
  }

  func writeFirstAgain(into renderer: inout StateRenderer, indent: Int) {
    let child = self.children[0]
    renderer.write(child.node, name: child.label, indent: indent, isRoot: false)
  }
}
