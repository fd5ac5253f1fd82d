/// One change of a state's own JSON (`states.json`) that an action made: what the column
/// `actions.json_changes` holds, one operation per element, in the order they apply.
///
/// ```swift
/// StateJSONChange.set([.key("count")], "2")
/// StateJSONChange.insert([.key("todos"), .index(3)], #"{"id":7,"title":"Milk"}"#)
/// StateJSONChange.remove([.key("destination")])
/// ```
///
/// A value is JSON as `JSONEncoder` wrote it (keys sorted, slashes unescaped): applied to a
/// state's JSON, the changes give the JSON `JSONEncoder` writes of the state after the action,
/// byte for byte.
package enum StateJSONChange: Hashable, Sendable {
  /// The value at the path is now `value`: a member of an object (added when the object has
  /// none by that name), or an element of an array.
  case set([StateJSONKey], String)
  /// The member or element at the path is gone.
  case remove([StateJSONKey])
  /// `value` is inserted into an array at the path's last index.
  case insert([StateJSONKey], String)

  package var path: [StateJSONKey] {
    switch self {
    case let .set(path, _), let .remove(path), let .insert(path, _): path
    }
  }

  /// Deeper paths than this are a damaged or hostile file.
  package static let maxPathLength = 512

  /// `changes` as `actions.json_changes` holds them: `[["s",path,value],["d",path],["i",path,value]]`,
  /// each path an array of member names and indices.
  package static func text(of changes: [StateJSONChange]) -> String {
    var out: [UInt8] = [UInt8(ascii: "[")]
    for (offset, change) in changes.enumerated() {
      if offset > 0 { out.append(UInt8(ascii: ",")) }
      switch change {
      case .set: out += #"["s",["#.utf8
      case .remove: out += #"["d",["#.utf8
      case .insert: out += #"["i",["#.utf8
      }
      for (position, key) in change.path.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        switch key {
        case let .key(name): JSONString.quote(name, into: &out)
        case let .index(index): out += String(index).utf8
        }
      }
      out.append(UInt8(ascii: "]"))
      switch change {
      case let .set(_, value), let .insert(_, value):
        out.append(UInt8(ascii: ","))
        out += value.utf8
      case .remove:
        break
      }
      out.append(UInt8(ascii: "]"))
    }
    out.append(UInt8(ascii: "]"))
    return String(decoding: out, as: UTF8.self)
  }

  /// The changes that `text` (see ``text(of:)``) holds.
  ///
  /// - Throws: ``StateJSONError`` when it holds anything else.
  package static func changes(from text: String) throws(StateJSONError) -> [StateJSONChange] {
    var text = text
    let result: Result<[StateJSONChange], StateJSONError> = text.withUTF8 { bytes in
      do throws(StateJSONError) {
        var parser = JSONParser(bytes: bytes)
        var changes: [StateJSONChange] = []
        try parser.expect(UInt8(ascii: "["))
        try parser.elements(until: UInt8(ascii: "]")) { (parser) throws(StateJSONError) in
          changes.append(try self.change(&parser))
        }
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.failure() }
        return .success(changes)
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private static func change(_ parser: inout JSONParser) throws(StateJSONError) -> StateJSONChange {
    try parser.expect(UInt8(ascii: "["))
    parser.skipSpace()
    guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else {
      throw parser.failure()
    }
    let tag = try parser.string()
    try parser.expect(UInt8(ascii: ","))
    try parser.expect(UInt8(ascii: "["))
    var path: [StateJSONKey] = []
    try parser.elements(until: UInt8(ascii: "]")) { (parser) throws(StateJSONError) in
      guard path.count < Self.maxPathLength else {
        throw StateJSONError(reason: "holds a path longer than \(Self.maxPathLength) steps")
      }
      parser.skipSpace()
      guard parser.index < parser.bytes.count else { throw parser.failure() }
      if parser.bytes[parser.index] == UInt8(ascii: "\"") {
        path.append(.key(try parser.string()))
      } else {
        let index = try parser.integer()
        guard index >= 0 else { throw parser.failure() }
        path.append(.index(index))
      }
    }
    let change: StateJSONChange
    switch tag {
    case "s", "i":
      try parser.expect(UInt8(ascii: ","))
      parser.skipSpace()
      let start = parser.index
      try parser.skipValue()
      let value = String(
        decoding: UnsafeBufferPointer(rebasing: parser.bytes[start..<parser.index]), as: UTF8.self)
      change = tag == "s" ? .set(path, value) : .insert(path, value)
    case "d":
      change = .remove(path)
    default:
      throw StateJSONError(reason: "holds an operation '\(tag)' that is not 's', 'd' or 'i'")
    }
    try parser.expect(UInt8(ascii: "]"))
    return change
  }
}

/// A step of a path into a state's JSON: an object's member, or an array's element.
package enum StateJSONKey: Hashable, Sendable {
  case key(String)
  case index(Int)
}

/// A state's JSON that changes are applied to: read only as deep as they reach, so that a
/// change to one member of a large state reads the path to it, not the whole text.
package struct StateJSONDocument {
  private indirect enum Node {
    /// JSON not looked into: a slice of the text it came from.
    case raw(ArraySlice<UInt8>)
    case object([Member])
    case array([Node])
  }

  private struct Member {
    /// The name as the text writes it, quoted.
    var quotedKey: ArraySlice<UInt8>
    var key: String
    var value: Node
  }

  private var root: Node

  /// A document of the JSON `json`; nothing of it is read yet.
  package init(json: String) {
    self.root = .raw(ArraySlice(json.utf8))
  }

  /// The document's JSON.
  package var json: String {
    var out: [UInt8] = []
    Self.write(self.root, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Applies `change`.
  ///
  /// - Throws: ``StateJSONError`` when the document holds no value at its path, or no array
  ///   or object around it, or what the path reads through is not JSON.
  package mutating func apply(_ change: StateJSONChange) throws(StateJSONError) {
    let path = change.path
    guard !path.isEmpty else {
      guard case let .set(_, value) = change else {
        throw StateJSONError(reason: "removes or inserts the whole state")
      }
      self.root = .raw(ArraySlice(value.utf8))
      return
    }
    try Self.apply(change, path: path[...], to: &self.root)
  }

  private static func apply(
    _ change: StateJSONChange, path: ArraySlice<StateJSONKey>, to node: inout Node
  ) throws(StateJSONError) {
    if case let .raw(text) = node { node = try self.expand(text) }
    let key = path.first!
    let rest = path.dropFirst()
    switch (node, key) {
    case (.object(var members), .key(let name)):
      node = .array([])
      let found = members.firstIndex { $0.key.utf8.elementsEqual(name.utf8) }
      if rest.isEmpty {
        switch change {
        case let .set(_, value):
          if let found {
            members[found].value = .raw(ArraySlice(value.utf8))
          } else {
            // NB: `JSONEncoder` sorts members by their names' bytes.
            let place =
              members.firstIndex { name.utf8.lexicographicallyPrecedes($0.key.utf8) }
              ?? members.endIndex
            var quoted: [UInt8] = []
            JSONString.quote(name, into: &quoted)
            members.insert(
              Member(quotedKey: quoted[...], key: name, value: .raw(ArraySlice(value.utf8))),
              at: place)
          }
        case .remove:
          guard let found else { throw self.missing(name) }
          members.remove(at: found)
        case .insert:
          throw StateJSONError(reason: "inserts into an object, at '\(name)'")
        }
      } else {
        guard let found else { throw self.missing(name) }
        try self.apply(change, path: rest, to: &members[found].value)
      }
      node = .object(members)

    case (.array(var elements), .index(let index)):
      node = .array([])
      if rest.isEmpty {
        switch change {
        case let .set(_, value):
          guard index < elements.count else { throw self.missing(index) }
          elements[index] = .raw(ArraySlice(value.utf8))
        case .remove:
          guard index < elements.count else { throw self.missing(index) }
          elements.remove(at: index)
        case let .insert(_, value):
          guard index <= elements.count else { throw self.missing(index) }
          elements.insert(.raw(ArraySlice(value.utf8)), at: index)
        }
      } else {
        guard index < elements.count else { throw self.missing(index) }
        try self.apply(change, path: rest, to: &elements[index])
      }
      node = .array(elements)

    case (.object, .index(let index)):
      throw StateJSONError(reason: "reads element \(index) of an object")
    case (.array, .key(let name)):
      throw StateJSONError(reason: "reads member '\(name)' of an array")
    case (.raw, _):
      throw StateJSONError(reason: "reads into a value that is not an object or an array")
    }
  }

  private static func missing(_ name: String) -> StateJSONError {
    StateJSONError(reason: "names a member '\(name)' the state's JSON does not have")
  }

  private static func missing(_ index: Int) -> StateJSONError {
    StateJSONError(reason: "names an element \(index) past the end of an array")
  }

  /// The object or array that `text` holds, its members or elements not looked into; `.raw`
  /// for anything else.
  private static func expand(_ text: ArraySlice<UInt8>) throws(StateJSONError) -> Node {
    let result: Result<Node, StateJSONError> = text.withUnsafeBufferPointer { bytes in
      do throws(StateJSONError) {
        var parser = JSONParser(bytes: bytes)
        parser.skipSpace()
        guard parser.index < bytes.count else { throw parser.failure() }
        let base = text.startIndex
        func slice(_ range: Range<Int>) -> ArraySlice<UInt8> {
          text[(base + range.lowerBound)..<(base + range.upperBound)]
        }
        switch bytes[parser.index] {
        case UInt8(ascii: "{"):
          parser.index += 1
          var members: [Member] = []
          try parser.elements(until: UInt8(ascii: "}")) { (parser) throws(StateJSONError) in
            parser.skipSpace()
            guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "\"") else {
              throw parser.failure()
            }
            let keyStart = parser.index
            let key = try parser.string()
            let quotedKey = slice(keyStart..<parser.index)
            try parser.expect(UInt8(ascii: ":"))
            parser.skipSpace()
            let start = parser.index
            try parser.skipValue()
            members.append(
              Member(quotedKey: quotedKey, key: key, value: .raw(slice(start..<parser.index))))
          }
          return .success(.object(members))
        case UInt8(ascii: "["):
          parser.index += 1
          var elements: [Node] = []
          try parser.elements(until: UInt8(ascii: "]")) { (parser) throws(StateJSONError) in
            parser.skipSpace()
            let start = parser.index
            try parser.skipValue()
            elements.append(.raw(slice(start..<parser.index)))
          }
          return .success(.array(elements))
        default:
          return .success(.raw(text))
        }
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private static func write(_ node: Node, into out: inout [UInt8]) {
    switch node {
    case let .raw(text):
      out += text
    case let .object(members):
      out.append(UInt8(ascii: "{"))
      for (offset, member) in members.enumerated() {
        if offset > 0 { out.append(UInt8(ascii: ",")) }
        out += member.quotedKey
        out.append(UInt8(ascii: ":"))
        self.write(member.value, into: &out)
      }
      out.append(UInt8(ascii: "}"))
    case let .array(elements):
      out.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { out.append(UInt8(ascii: ",")) }
        self.write(element, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
  }
}

extension JSONParser {
  /// Skips one JSON value of any kind, however deep, without recursion: strings are checked
  /// as ``string()`` checks them, numbers by their characters.
  mutating func skipValue() throws(StateJSONError) {
    // The closing brackets of the arrays and objects the value is inside.
    var open: [UInt8] = []
    values: while true {
      self.skipSpace()
      guard self.index < self.bytes.count else { throw self.failure() }
      let byte = self.bytes[self.index]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        self.index += 1
        let closing = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        self.skipSpace()
        if self.index < self.bytes.count, self.bytes[self.index] == closing {
          self.index += 1
        } else {
          open.append(closing)
          if closing == UInt8(ascii: "}") { try self.memberName() }
          continue values
        }
      case UInt8(ascii: "\""):
        try self.skipString()
      case UInt8(ascii: "t"):
        try self.literal("true")
      case UInt8(ascii: "f"):
        try self.literal("false")
      case UInt8(ascii: "n"):
        try self.literal("null")
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        self.index += 1
        while self.index < self.bytes.count {
          switch self.bytes[self.index] {
          case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
            UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            self.index += 1
            continue
          default:
            break
          }
          break
        }
      default:
        throw self.failure()
      }
      // After a value: the next member or element, or the brackets it closes.
      while let closing = open.last {
        self.skipSpace()
        guard self.index < self.bytes.count else { throw self.failure() }
        let next = self.bytes[self.index]
        self.index += 1
        if next == UInt8(ascii: ",") {
          if closing == UInt8(ascii: "}") { try self.memberName() }
          continue values
        }
        guard next == closing else { throw self.failure() }
        open.removeLast()
      }
      return
    }
  }

  /// A member's name and its colon.
  private mutating func memberName() throws(StateJSONError) {
    self.skipSpace()
    guard self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: "\"") else {
      throw self.failure()
    }
    _ = try self.string()
    try self.expect(UInt8(ascii: ":"))
  }
}
