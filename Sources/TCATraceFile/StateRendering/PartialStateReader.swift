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
