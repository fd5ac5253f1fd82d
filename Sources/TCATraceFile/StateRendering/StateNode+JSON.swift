/// A state tree's JSON, as `states.tree` and `state_changes.rebuild` hold it (the schema
/// documents the format): written by the recorder, read back by the reader, which trusts none of
/// it.
extension StateNode {
  /// The node as JSON.
  package var json: String {
    var out: [UInt8] = []
    self.encode(into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The node whose JSON is `json`.
  ///
  /// - Throws: ``StateJSONError`` when `json` is not a tree's JSON.
  package init(json: String) throws(StateJSONError) {
    // NB: A keyframe is a tree of a hundred thousand nodes: read straight into nodes, it
    // skips a tree of `Any` values built to be taken apart. What that reading does not take
    // (anything but a well-formed tree) is read the long way, which says what is wrong.
    var json = json
    let node: Result<StateNode, StateJSONError>? = json.withUTF8 { bytes in
      var parser = JSONParser(bytes: bytes)
      do throws(StateJSONError) {
        let node = try parser.node(depth: 0)
        parser.skipSpace()
        return parser.index == bytes.count ? .success(node) : nil
      } catch {
        // NB: Too deep is said at once: read the long way, it would be as deep again.
        return error == .tooDeep ? .failure(error) : nil
      }
    }
    if let node {
      self = try node.get()
    } else {
      self = try Self.decode(Self.parse(json), depth: 0)
    }
  }

  /// How deep a tree read from a file may be: deeper is a damaged or hostile file, which would
  /// otherwise exhaust the stack of whatever walks it.
  package static let maxDepth = 2_000

  func encode(into out: inout [UInt8]) {
    switch self {
    case let .text(text):
      out += #"["t","#.utf8
      JSONString.quote(text, into: &out)
    case let .multilineString(string, hashes):
      out += #"["m","#.utf8
      JSONString.quote(string, into: &out)
      out += ",\(hashes)".utf8
    case let .enumCase(type, description):
      out += #"["e","#.utf8
      JSONString.quote(type, into: &out)
      out.append(UInt8(ascii: ","))
      JSONString.quote(description, into: &out)
    case let .some(wrapped):
      out += #"["s","#.utf8
      wrapped.encode(into: &out)
    case let .container(container):
      out += #"["c","#.utf8
      switch container.kind {
      case let .structure(type):
        out += #"["struct","#.utf8
        JSONString.quote(type, into: &out)
        out.append(UInt8(ascii: "]"))
      case .tuple: out += #"["tuple"]"#.utf8
      case .collection: out += #"["collection"]"#.utf8
      case let .dictionary(sorted):
        out += (sorted ? #"["dictionary",true]"# : #"["dictionary",false]"#).utf8
      case .set: out += #"["set"]"#.utf8
      case let .enumCase(type, name):
        out += #"["enum","#.utf8
        JSONString.quote(type, into: &out)
        out.append(UInt8(ascii: ","))
        JSONString.quote(name, into: &out)
        out.append(UInt8(ascii: "]"))
      }
      out += ",[".utf8
      for (offset, child) in container.children.enumerated() {
        if offset > 0 { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "["))
        if let label = child.label {
          JSONString.quote(label, into: &out)
        } else {
          out += "null".utf8
        }
        out.append(UInt8(ascii: ","))
        JSONString.quote(child.key, into: &out)
        out.append(UInt8(ascii: ","))
        child.node.encode(into: &out)
        out.append(UInt8(ascii: "]"))
      }
      out.append(UInt8(ascii: "]"))
    }
    out.append(UInt8(ascii: "]"))
  }

  package static func parse(_ json: String) throws(StateJSONError) -> Any {
    var json = json
    let result: Result<Any, StateJSONError> = json.withUTF8 { bytes in
      do throws(StateJSONError) {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw StateJSONError(reason: "is not JSON") }
        return .success(value)
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  static func decode(_ value: Any, depth: Int) throws(StateJSONError) -> StateNode {
    guard depth < Self.maxDepth else { throw .tooDeep }
    guard let array = value as? [Any], let tag = array.first as? String else {
      throw StateJSONError(reason: "holds a node that is not an array with a tag")
    }
    func string(_ index: Int) throws(StateJSONError) -> String {
      guard index < array.count, let string = array[index] as? String else {
        throw StateJSONError(reason: "holds a '\(tag)' node without its text")
      }
      return string
    }
    switch (tag, array.count) {
    case ("t", 2):
      return .text(try string(1))
    case ("m", 3):
      guard let hashes = array[2] as? Int, (0...1_000).contains(hashes) else {
        throw StateJSONError(reason: "holds a string whose number of #s is not a small number")
      }
      return .multilineString(try string(1), hashes: hashes)
    case ("e", 3):
      return .enumCase(type: try string(1), description: try string(2))
    case ("s", 2):
      return .some(try Self.decode(array[1], depth: depth + 1))
    case ("c", 3):
      guard let kind = array[1] as? [Any], let children = array[2] as? [Any] else {
        throw StateJSONError(reason: "holds a container without its kind and children")
      }
      var decoded: [StateChild] = []
      decoded.reserveCapacity(children.count)
      for child in children {
        guard let parts = child as? [Any], parts.count == 3, let key = parts[1] as? String,
          parts[0] is JSONParser.Null || parts[0] is String
        else { throw StateJSONError(reason: "holds a child that is not [label, key, node]") }
        decoded.append(
          StateChild(
            label: parts[0] as? String, key: key, node: try Self.decode(parts[2], depth: depth + 1))
        )
      }
      return .container(StateContainer(kind: try Self.kind(kind), children: decoded))
    default:
      throw StateJSONError(reason: "holds a node of an unknown kind '\(tag)'")
    }
  }

  private static func kind(_ array: [Any]) throws(StateJSONError) -> StateContainer.Kind {
    switch (array.first as? String, array.count) {
    case ("struct", 2):
      if let type = array[1] as? String { return .structure(type: type) }
    case ("tuple", 1): return .tuple
    case ("collection", 1): return .collection
    case ("dictionary", 2):
      if let sorted = array[1] as? Bool { return .dictionary(sorted: sorted) }
    case ("set", 1): return .set
    case ("enum", 3):
      if let type = array[1] as? String, let name = array[2] as? String {
        return .enumCase(type: type, name: name)
      }
    default: break
    }
    throw StateJSONError(reason: "holds a container of an unknown kind")
  }
}

extension StateChange.Rebuild {
  /// The rebuild as `state_changes.rebuild` holds it.
  package var json: String {
    var out: [UInt8] = Array("{".utf8)
    var fields: [[UInt8]] = []
    if let node = self.node {
      var field = Array(#""node":"#.utf8)
      node.encode(into: &field)
      fields.append(field)
    }
    if let index = self.index { fields.append(Array("\"index\":\(index)".utf8)) }
    if let label = self.label {
      var field = Array(#""label":"#.utf8)
      JSONString.quote(label, into: &field)
      fields.append(field)
    }
    if let order = self.order {
      var field = Array(#""order":["#.utf8)
      for (offset, key) in order.enumerated() {
        if offset > 0 { field.append(UInt8(ascii: ",")) }
        JSONString.quote(key, into: &field)
      }
      field.append(UInt8(ascii: "]"))
      fields.append(field)
    }
    for (offset, field) in fields.enumerated() {
      if offset > 0 { out.append(UInt8(ascii: ",")) }
      out += field
    }
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }

  /// The rebuild whose JSON is `json`.
  package init(json: String) throws(StateJSONError) {
    guard let object = try StateNode.parse(json) as? [String: Any] else {
      throw StateJSONError(reason: "holds a rebuild that is not an object")
    }
    self.init()
    if let node = object["node"] { self.node = try StateNode.decode(node, depth: 0) }
    if let index = object["index"] {
      guard let index = index as? Int, index >= 0 else {
        throw StateJSONError(reason: "holds an index that is not a number")
      }
      self.index = index
    }
    if let label = object["label"] {
      guard let label = label as? String else {
        throw StateJSONError(reason: "holds a label that is not text")
      }
      self.label = label
    }
    if let order = object["order"] {
      guard let order = order as? [String] else {
        throw StateJSONError(reason: "holds an order that is not a list of keys")
      }
      self.order = order
    }
  }
}

/// Reading a state tree straight into nodes (see ``StateNode/init(json:)``).
extension JSONParser {
  /// A state tree's node (see the `states` table), read straight from its JSON; throws at
  /// anything else, without saying what.
  mutating func node(depth: Int) throws(StateJSONError) -> StateNode {
    guard depth < StateNode.maxDepth else { throw .tooDeep }
    try self.expect(UInt8(ascii: "["))
    let tag = try self.quoted()
    let node: StateNode
    switch tag {
    case "t":
      try self.expect(UInt8(ascii: ","))
      node = .text(try self.quoted())
    case "m":
      try self.expect(UInt8(ascii: ","))
      let string = try self.quoted()
      try self.expect(UInt8(ascii: ","))
      self.skipSpace()
      let hashes = try self.integer()
      guard (0...1_000).contains(hashes) else { throw self.failure() }
      node = .multilineString(string, hashes: hashes)
    case "e":
      try self.expect(UInt8(ascii: ","))
      let type = try self.quoted()
      try self.expect(UInt8(ascii: ","))
      node = .enumCase(type: type, description: try self.quoted())
    case "s":
      try self.expect(UInt8(ascii: ","))
      node = .some(try self.node(depth: depth + 1))
    case "c":
      try self.expect(UInt8(ascii: ","))
      let kind = try self.containerKind()
      try self.expect(UInt8(ascii: ","))
      let children = try self.children { (parser, _) throws(StateJSONError) in
        try parser.node(depth: depth + 1)
      }
      node = .container(StateContainer(kind: kind, children: children))
    default:
      throw self.failure()
    }
    try self.expect(UInt8(ascii: "]"))
    return node
  }

  /// A container's children, `[[label, key, node], …]`, each node read by `node`, which is
  /// given the child's key.
  mutating func children(
    _ node: (inout JSONParser, _ key: String) throws(StateJSONError) -> StateNode
  ) throws(StateJSONError) -> [StateChild] {
    try self.expect(UInt8(ascii: "["))
    var children: [StateChild] = []
    self.skipSpace()
    if self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: "]") {
      self.index += 1
      return children
    }
    while true {
      let (label, key) = try self.childStart()
      children.append(StateChild(label: label, key: key, node: try node(&self, key)))
      guard try self.childEnd() else { return children }
    }
  }

  /// Reads the start of a child, `[label, key,`, up to its node.
  mutating func childStart() throws(StateJSONError) -> (label: String?, key: String) {
    try self.expect(UInt8(ascii: "["))
    self.skipSpace()
    var label: String?
    if self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: "n") {
      try self.literal("null")
    } else {
      label = try self.quoted()
    }
    try self.expect(UInt8(ascii: ","))
    let key = try self.quoted()
    try self.expect(UInt8(ascii: ","))
    return (label, key)
  }

  /// Reads the end of a child, after its node: its `]`, then the `,` before another (`true`)
  /// or the `]` that ends the children (`false`).
  mutating func childEnd() throws(StateJSONError) -> Bool {
    try self.expect(UInt8(ascii: "]"))
    self.skipSpace()
    guard self.index < self.bytes.count else { throw self.failure() }
    let byte = self.bytes[self.index]
    self.index += 1
    if byte == UInt8(ascii: "]") { return false }
    guard byte == UInt8(ascii: ",") else { throw self.failure() }
    return true
  }

  /// A container's kind, read straight from its JSON.
  mutating func containerKind() throws(StateJSONError) -> StateContainer.Kind {
    try self.expect(UInt8(ascii: "["))
    let kind: StateContainer.Kind
    switch try self.containerKindName() {
    case .structure?:
      try self.expect(UInt8(ascii: ","))
      kind = .structure(type: try self.quoted())
    case .tuple?: kind = .tuple
    case .collection?: kind = .collection
    case .dictionary?:
      try self.expect(UInt8(ascii: ","))
      kind = .dictionary(sorted: try self.boolean())
    case .set?: kind = .set
    case .enumeration?:
      try self.expect(UInt8(ascii: ","))
      let type = try self.quoted()
      try self.expect(UInt8(ascii: ","))
      kind = .enumCase(type: type, name: try self.quoted())
    case nil:
      throw self.failure()
    }
    try self.expect(UInt8(ascii: "]"))
    return kind
  }
}
