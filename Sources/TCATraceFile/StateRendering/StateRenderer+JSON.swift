extension StateRenderer {
  /// Writes the node whose JSON starts at `parser`'s index, as ``write(_:name:indent:isRoot:)``
  /// writes the node; `named`: it has a label, written already. Returns whether the node is
  /// one CustomDump prints on its parent's line when it is the only child (``StateNode/isAtomic``,
  /// not a string of several lines).
  mutating func writeJSON(
    _ parser: inout JSONParser, named: Bool, indent: Int, isRoot: Bool, depth: Int
  ) throws(StateJSONError) -> Bool {
    guard depth < StateNode.maxDepth else { throw parser.failure() }
    try parser.expect(UInt8(ascii: "["))
    parser.skipSpace()
    guard parser.bytes.count - parser.index >= 3, parser.bytes[parser.index] == UInt8(ascii: "\""),
      parser.bytes[parser.index + 2] == UInt8(ascii: "\"")
    else { throw parser.failure() }
    let tag = parser.bytes[parser.index + 1]
    parser.index += 3
    try parser.expect(UInt8(ascii: ","))
    var inline = true
    switch tag {
    case UInt8(ascii: "t"):
      inline = try !self.writeJSONString(&parser, indent: indent)
    case UInt8(ascii: "m"):
      // The number of #s follows the string, and is written before it.
      parser.skipSpace()
      let string = parser.index
      try self.writeJSONString(&parser, indent: 0, writes: false)
      try parser.expect(UInt8(ascii: ","))
      parser.skipSpace()
      let hashes = try parser.integer()
      guard (0...1_000).contains(hashes) else { throw parser.failure() }
      let end = parser.index
      let inner = named ? indent + 2 : indent
      self.marks(hashes)
      self.bytes.append(#"""""#)
      self.newline(indent: inner)
      parser.index = string
      try self.writeJSONString(&parser, indent: inner)
      parser.index = end
      self.newline(indent: inner)
      self.marks(hashes, after: #"""""#)
      inline = false
    case UInt8(ascii: "e"):
      try self.writeJSONString(&parser, indent: indent, writes: isRoot)
      try parser.expect(UInt8(ascii: ","))
      self.bytes.append(UInt8(ascii: "."))
      try self.writeJSONString(&parser, indent: indent)
    case UInt8(ascii: "s"):
      _ = try self.writeJSON(&parser, named: false, indent: indent, isRoot: false, depth: depth + 1)
      inline = false
    case UInt8(ascii: "c"):
      inline = try self.writeJSONContainer(&parser, indent: indent, isRoot: isRoot, depth: depth)
    default:
      throw parser.failure()
    }
    try parser.expect(UInt8(ascii: "]"))
    return inline
  }

  /// Writes a container's kind and children, from its JSON (after its tag), as
  /// `write(_:indent:isRoot:)` writes a container; returns whether it has no children.
  private mutating func writeJSONContainer(
    _ parser: inout JSONParser, indent: Int, isRoot: Bool, depth: Int
  ) throws(StateJSONError) -> Bool {
    try parser.expect(UInt8(ascii: "["))
    let layout: ContainerLayout
    switch try parser.containerKindName() {
    case .structure?:
      try parser.expect(UInt8(ascii: ","))
      try self.writeJSONString(&parser, indent: indent)
      layout = .parenthesized
    case .tuple?:
      layout = .parenthesized
    case .collection?:
      layout = .collection
    case .dictionary?:
      try parser.expect(UInt8(ascii: ","))
      _ = try parser.boolean()
      layout = .dictionary
    case .set?:
      layout = .set
    case .enumeration?:
      try parser.expect(UInt8(ascii: ","))
      try self.writeJSONString(&parser, indent: indent, writes: isRoot)
      try parser.expect(UInt8(ascii: ","))
      self.bytes.append(UInt8(ascii: "."))
      try self.writeJSONString(&parser, indent: indent)
      layout = .parenthesized
    case nil:
      throw parser.failure()
    }
    try parser.expect(UInt8(ascii: "]"))
    try parser.expect(UInt8(ascii: ","))
    try parser.expect(UInt8(ascii: "["))
    var children = JSONChildren(parser: parser, depth: depth)
    try self.children(&children, layout: layout, indent: indent)
    parser = children.parser
    return children.first == nil
  }

  /// Writes a child, `[label, key, node]`, with its label when `labelled`; returns what
  /// ``writeJSON(_:named:indent:isRoot:depth:)`` returns.
  fileprivate mutating func writeJSONChild(
    _ parser: inout JSONParser, labelled: Bool, indent: Int, depth: Int
  ) throws(StateJSONError) -> Bool {
    try parser.expect(UInt8(ascii: "["))
    parser.skipSpace()
    var named = false
    if parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "n") {
      try parser.literal("null")
    } else {
      named = labelled
      try self.writeJSONString(&parser, indent: indent, writes: named)
      if named { self.bytes.append(": ") }
    }
    try parser.expect(UInt8(ascii: ","))
    try self.writeJSONString(&parser, indent: indent, writes: false)
    try parser.expect(UInt8(ascii: ","))
    let inline = try self.writeJSON(
      &parser, named: named, indent: indent, isRoot: false, depth: depth + 1)
    try parser.expect(UInt8(ascii: "]"))
    return inline
  }

  /// Reads a JSON string at `parser`'s index, as ``JSONParser/string()`` does, and writes it
  /// (when `writes`) as ``text(_:indent:)`` does; returns whether it has a line break.
  @discardableResult
  private mutating func writeJSONString(
    _ parser: inout JSONParser, indent: Int, writes: Bool = true
  ) throws(StateJSONError) -> Bool {
    parser.skipSpace()
    guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else {
      throw parser.failure()
    }
    guard writes else {
      try parser.skipString()
      return false
    }
    var hasNewline = false
    try parser.scanString(
      run: { run in self.bytes.append(run) },
      escaped: { scalar in
        if scalar == "\n" {
          hasNewline = true
          self.newline(indent: indent)
        } else {
          UTF8.encode(scalar) { self.bytes.append($0) }
        }
      }
    )
    return hasNewline
  }
}

/// The children of a container in a kept state's JSON, `[[label, key, node], …]`, from after
/// their opening bracket.
struct JSONChildren: RenderedChildren {
  var parser: JSONParser
  /// The container's depth in the tree.
  let depth: Int
  /// Where the first child starts; `nil` until it is moved to, and when there is none.
  private(set) var first: Int?
  private var isStarted = false

  /// - Parameter continuing: Whether children were read before the parser's index: the next
  ///   is after a `,`.
  init(parser: JSONParser, depth: Int, continuing: Bool = false) {
    self.parser = parser
    self.depth = depth
    self.isStarted = continuing
  }

  mutating func next() throws(StateJSONError) -> Bool {
    self.parser.skipSpace()
    guard self.parser.index < self.parser.bytes.count else { throw self.parser.failure() }
    let byte = self.parser.bytes[self.parser.index]
    if byte == UInt8(ascii: "]") {
      self.parser.index += 1
      return false
    }
    if self.isStarted {
      guard byte == UInt8(ascii: ",") else { throw self.parser.failure() }
      self.parser.index += 1
    } else {
      self.isStarted = true
    }
    if self.first == nil { self.first = self.parser.index }
    return true
  }

  mutating func write(into renderer: inout StateRenderer, labelled: Bool, indent: Int)
    throws(StateJSONError) -> Bool
  {
    try renderer.writeJSONChild(&self.parser, labelled: labelled, indent: indent, depth: self.depth)
  }

  func writeFirstAgain(into renderer: inout StateRenderer, indent: Int) throws(StateJSONError) {
    var again = self.parser
    again.index = self.first ?? again.index
    _ = try renderer.writeJSONChild(&again, labelled: true, indent: indent, depth: self.depth)
  }
}

/// The children of a container in which reading its kept state stopped: those read, then its
/// rest, printed from the JSON where ``StateStubs/cursor`` is when the rest is reached.
struct ChildrenWithRest: RenderedChildren {
  private var read: NodeChildren
  private let stubs: StateStubs
  private let number: Int
  private let rest: StateStubs.Rest
  private var json: JSONChildren?
  private let readCount: Int
  /// How many children there were; known once ``next()`` returns `false`.
  private(set) var count = 0

  init(read: [StateChild], stubs: StateStubs, number: Int, rest: StateStubs.Rest) {
    self.read = NodeChildren(children: read)
    self.readCount = read.count
    self.stubs = stubs
    self.number = number
    self.rest = rest
  }

  mutating func next() throws(StateJSONError) -> Bool {
    if self.json == nil {
      if self.read.next() {
        self.count += 1
        return true
      }
      // NB: Rests are reached in the order they were made, innermost first, each where the
      // one before it ended: a rest reached otherwise is the JSON's structure misread.
      let cursor = self.stubs.cursor
      var parser = JSONParser(bytes: self.stubs.bytes)
      parser.index = cursor.offset
      guard cursor.printed == self.number else { throw parser.failure() }
      for _ in 0..<self.rest.closers { try parser.expect(UInt8(ascii: "]")) }
      self.json = JSONChildren(parser: parser, depth: self.rest.depth, continuing: true)
    }
    guard try self.json!.next() else {
      self.stubs.cursor.offset = self.json!.parser.index
      self.stubs.cursor.printed += 1
      return false
    }
    self.count += 1
    return true
  }

  mutating func write(into renderer: inout StateRenderer, labelled: Bool, indent: Int)
    throws(StateJSONError) -> Bool
  {
    if self.json == nil {
      return self.read.write(into: &renderer, labelled: labelled, indent: indent)
    }
    return try self.json!.write(into: &renderer, labelled: labelled, indent: indent)
  }

  func writeFirstAgain(into renderer: inout StateRenderer, indent: Int) throws(StateJSONError) {
    if self.readCount > 0 {
      self.read.writeFirstAgain(into: &renderer, indent: indent)
    } else {
      try self.json?.writeFirstAgain(into: &renderer, indent: indent)
    }
  }
}
