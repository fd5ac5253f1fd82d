/// The parts of a kept state that rebuilding a later state from it left in its JSON, unread:
/// those no change since reaches. Each stands in the tree as a text (a *stub*) that the
/// renderer knows, and is printed straight from the JSON.
///
/// NB: A keyframe of a large state is mostly parts no change since reaches: building them into
/// nodes to print them cost most of the time of `tcatrace state`.
struct StateStubs {
  let bytes: UnsafeBufferPointer<UInt8>
  /// What a stub's text starts with: a control character no rendering starts with, and a
  /// number drawn for this read, which a file cannot forge.
  private let marker: [UInt8]
  /// Where each stub's node starts in `bytes`, and how deep in the tree it is.
  private var nodes: [(offset: Int, depth: Int)] = []
  /// The rests (see ``rest(depth:closers:)``), in the order they are printed: innermost first.
  private(set) var rests: [Rest] = []
  /// Where the JSON not read yet goes on: where reading stopped, then after each rest printed.
  let cursor = Cursor()

  /// The children of a container that were not read, from after the child within which reading
  /// stopped to the container's end.
  struct Rest {
    /// The container's depth in the tree.
    var depth: Int
    /// The `]`s that end the child within which reading stopped (and the containers within it
    /// that reading stopped in), before the rest's first `,`.
    var closers: Int
  }

  /// Where printing the JSON not read yet has got to.
  final class Cursor {
    /// The byte.
    var offset = 0
    /// How many rests have been printed.
    var printed = 0
  }

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    self.marker =
      [0x01] + Array(String(UInt64.random(in: .min ... .max), radix: 36).utf8) + [UInt8(ascii: ":")]
  }

  /// A stub for the container whose JSON starts at `offset`, `depth` levels down the tree,
  /// which has children.
  ///
  /// NB: Its text has a line break, so that its parent's layout (``StateNode/isAtomic``) takes
  /// it for a value with parts, as the container it stands for is.
  mutating func stub(at offset: Int, depth: Int) -> StateNode {
    let text = String(decoding: self.marker, as: UTF8.self) + String(self.nodes.count) + "\n"
    self.nodes.append((offset, depth))
    return .text(text)
  }

  /// The last child of a container `depth` levels down the tree in which reading stopped: it
  /// stands for the children not read, printed from where ``cursor`` is when it is reached.
  mutating func rest(depth: Int, closers: Int) -> StateChild {
    let text = String(decoding: self.marker, as: UTF8.self) + "r" + String(self.rests.count) + "\n"
    self.rests.append(Rest(depth: depth, closers: closers))
    return StateChild(label: nil, key: text, node: .text(text))
  }

  /// Where the node that `text` stands for starts, and its depth; `nil` when `text` is not a
  /// stub.
  func node(of text: String) -> (offset: Int, depth: Int)? {
    self.number(in: text).flatMap { self.nodes.indices.contains($0) ? self.nodes[$0] : nil }
  }

  /// The rest that `child` is, and its number; `nil` when it is not one.
  func rest(_ child: StateChild) -> (number: Int, rest: Rest)? {
    guard case let .text(text) = child.node,
      let number = self.number(in: text, after: UInt8(ascii: "r")),
      self.rests.indices.contains(number)
    else { return nil }
    return (number, self.rests[number])
  }

  /// The number of a stub's (`prefix`: a rest's) text; `nil` when `text` is not one.
  private func number(in text: String, after prefix: UInt8? = nil) -> Int? {
    let utf8 = text.utf8
    guard utf8.first == 0x01, utf8.starts(with: self.marker) else { return nil }
    var digits = utf8.dropFirst(self.marker.count)
    if let prefix {
      guard digits.first == prefix else { return nil }
      digits = digits.dropFirst()
    }
    var number = 0
    for byte in digits {
      if byte == 0x0A { break }
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      number = number &* 10 &+ Int(byte - UInt8(ascii: "0"))
    }
    return number
  }
}

/// Reads a kept state's JSON into nodes where a change may reach (`wanted`: the changes' paths
/// and the paths that hold them), and leaves each container elsewhere in the JSON, a stub.
///
/// Reading stops once the last of the changes' paths is read: each container it is in then
/// ends with a rest (``StateStubs/rest(depth:closers:)``), and what follows is printed from the
/// JSON without being read twice. A change whose path is not in the JSON (an element to add)
/// lets reading go to the end.
struct PartialStateReader {
  var stubs: StateStubs
  let wanted: Set<String>
  /// The changes' paths not read yet.
  private var targets: Set<String>
  /// Whether reading stopped: every change's path was read.
  private(set) var stopped = false
  /// Once stopped, the `]`s left to read to the end of the node being read.
  private(set) var closers = 0

  init(stubs: StateStubs, wanted: Set<String>, targets: Set<String>) {
    self.stubs = stubs
    self.wanted = wanted
    self.targets = targets
  }

  /// The node whose JSON starts at `parser`'s index, whose path is `path`.
  mutating func node(_ parser: inout JSONParser, path: String, depth: Int) throws(StateJSONError)
    -> StateNode
  {
    guard depth < StateNode.maxDepth else { throw parser.failure() }
    parser.skipSpace()
    let start = parser.index
    try parser.expect(UInt8(ascii: "["))
    let tag = try parser.quoted()
    if tag == "s" {
      // NB: Paths look through an optional.
      try parser.expect(UInt8(ascii: ","))
      let wrapped = try self.node(&parser, path: path, depth: depth + 1)
      if self.stopped {
        self.closers += 1
      } else {
        try parser.expect(UInt8(ascii: "]"))
      }
      return .some(wrapped)
    }
    guard tag == "c" else {
      parser.index = start
      let node = try parser.node(depth: depth)
      self.read(path)
      return node
    }
    try parser.expect(UInt8(ascii: ","))
    let kind = try parser.containerKind()
    try parser.expect(UInt8(ascii: ","))
    parser.skipSpace()
    try parser.expect(UInt8(ascii: "["))
    parser.skipSpace()
    let isEmpty =
      parser.index < parser.bytes.count && parser.bytes[parser.index] == UInt8(ascii: "]")
    if !isEmpty && !self.wanted.contains(path) {
      parser.index = start
      try parser.skipBrackets()
      return self.stubs.stub(at: start, depth: depth)
    }
    var children: [StateChild] = []
    if isEmpty {
      parser.index += 1
    } else {
      repeat {
        let (label, key) = try parser.childStart()
        // NB: An element added to a set goes where its rendering sorts among the others': a
        // set's elements are read whole.
        let node =
          kind == .set
          ? try parser.node(depth: depth + 1)
          : try self.node(&parser, path: StateContainer.join(path, key), depth: depth + 1)
        children.append(StateChild(label: label, key: key, node: node))
        if self.stopped {
          // NB: The child's `]` too.
          children.append(self.stubs.rest(depth: depth, closers: self.closers + 1))
          // The container's `]`, read once its rest is.
          self.closers = 1
          return .container(StateContainer(kind: kind, children: children))
        }
      } while try parser.childEnd()
    }
    try parser.expect(UInt8(ascii: "]"))
    self.read(path)
    return .container(StateContainer(kind: kind, children: children))
  }

  /// Notes that the node at `path` was read whole; stops reading when it was the last of the
  /// changes' paths.
  private mutating func read(_ path: String) {
    guard self.targets.remove(path) != nil, self.targets.isEmpty else { return }
    self.stopped = true
    self.closers = 0
  }
}

extension JSONParser {
  /// Skips the array at the index by its brackets, its strings by their quotes, without
  /// checking what lies between: what is skipped so is read again, and checked, when it is
  /// written (``StateRenderer/writeJSON(_:named:indent:isRoot:depth:)``).
  mutating func skipBrackets() throws(StateJSONError) {
    self.skipSpace()
    guard self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: "[") else {
      throw self.failure()
    }
    var depth = 0
    var index = self.index
    let bytes = self.bytes
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "["):
        depth += 1
      case UInt8(ascii: "]"):
        depth -= 1
        if depth == 0 {
          self.index = index + 1
          return
        }
      case UInt8(ascii: "\""):
        index += 1
        while true {
          index = Self.quoteOrBackslash(in: bytes, from: index)
          guard index < bytes.count else { throw self.failure() }
          if bytes[index] == UInt8(ascii: "\"") { break }
          index += 2
        }
      default:
        break
      }
      index += 1
    }
    throw self.failure()
  }

  /// The index of the first `"` or `\` in `bytes` from `index` on; `bytes.count` when there is
  /// none.
  ///
  /// NB: Eight bytes at a time: a byte is zero after XOR with the one looked for, and the
  /// lowest byte that borrows when one is taken from each is the first zero (those above it
  /// may borrow from it). A keyframe's JSON is skipped over in megabytes at a time.
  private static func quoteOrBackslash(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int
  {
    var index = index
    if let base = UnsafeRawPointer(bytes.baseAddress) {
      let ones: UInt64 = 0x0101_0101_0101_0101
      while bytes.count - index >= 8 {
        // NB: The first byte in memory is the word's lowest on any byte order.
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let quotes = word ^ (0x22 &* ones)
        let backslashes = word ^ (0x5C &* ones)
        let found =
          ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & (0x80 &* ones)
        if found != 0 { return index + found.trailingZeroBitCount / 8 }
        index += 8
      }
    }
    while index < bytes.count, bytes[index] != UInt8(ascii: "\""),
      bytes[index] != UInt8(ascii: "\\")
    {
      index += 1
    }
    return index
  }
}

extension JSONParser {
  /// The names of containers' kinds in a tree's JSON.
  enum ContainerKindName: CaseIterable {
    case structure, tuple, collection, dictionary, set, enumeration

    var bytes: StaticString {
      switch self {
      case .structure: "struct"
      case .tuple: "tuple"
      case .collection: "collection"
      case .dictionary: "dictionary"
      case .set: "set"
      case .enumeration: "enum"
      }
    }
  }

  /// Skips space, then reads a string that names a container's kind, from its bytes, without
  /// making a `String` of them; `nil` for any other string.
  mutating func containerKindName() throws(StateJSONError) -> ContainerKindName? {
    self.skipSpace()
    guard self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: "\"") else {
      throw self.failure()
    }
    let start = self.index + 1
    var end = start
    while end < self.bytes.count, self.bytes[end] != UInt8(ascii: "\""),
      self.bytes[end] != UInt8(ascii: "\\")
    {
      end += 1
    }
    // NB: Escaped, it is no name the recorder writes.
    guard end < self.bytes.count, self.bytes[end] == UInt8(ascii: "\"") else { return nil }
    self.index = end + 1
    let name = UnsafeBufferPointer(rebasing: self.bytes[start..<end])
    return ContainerKindName.allCases.first { kind in
      let bytes = kind.bytes
      return UnsafeBufferPointer(start: bytes.utf8Start, count: bytes.utf8CodeUnitCount)
        .elementsEqual(name)
    }
  }
}

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
