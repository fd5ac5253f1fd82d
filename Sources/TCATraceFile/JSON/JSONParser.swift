/// JSON that is not a state tree's.
package struct StateJSONError: Error, Hashable, Sendable {
  package var reason: String

  /// A tree deeper than ``StateNode/maxDepth``.
  package static let tooDeep = StateJSONError(
    reason: "nests deeper than \(StateNode.maxDepth) levels")
}

/// A parser of the JSON the recorder writes (arrays, objects, strings, integers, booleans,
/// `null`), into `[Any]`, `[String: Any]`, `String`, `Int`, `Bool` and ``Null``: several times
/// faster than Foundation's for a large state, and as strict.
struct JSONParser {
  struct Null {}

  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  mutating func skipSpace() {
    while self.index < self.bytes.count {
      switch self.bytes[self.index] {
      case 0x20, 0x0A, 0x0D, 0x09: self.index += 1
      default: return
      }
    }
  }

  /// Skips space, then `byte`.
  @inline(__always)
  mutating func expect(_ byte: UInt8) throws(StateJSONError) {
    // NB: The recorder writes no space: the byte is most often next.
    if self.index < self.bytes.count, self.bytes[self.index] == byte {
      self.index += 1
      return
    }
    try self.expectAfterSpace(byte)
  }

  private mutating func expectAfterSpace(_ byte: UInt8) throws(StateJSONError) {
    self.skipSpace()
    guard self.index < self.bytes.count, self.bytes[self.index] == byte else {
      throw self.failure()
    }
    self.index += 1
  }

  /// Skips space, then reads a string.
  mutating func quoted() throws(StateJSONError) -> String {
    self.skipSpace()
    guard self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: "\"") else {
      throw self.failure()
    }
    return try self.string()
  }

  func failure() -> StateJSONError { StateJSONError(reason: "is not JSON") }

  mutating func value(depth: Int) throws(StateJSONError) -> Any {
    // NB: Deeper than any tree is a hostile file; the tree's own check comes later. A tree's
    // level is three of JSON's (a node, its children, a child), and the deepest leaf one more.
    // NB: No deeper: each level is a few frames of the stack, larger in a debug build.
    guard depth < StateNode.maxDepth * 3 + 2 else { throw .tooDeep }
    self.skipSpace()
    guard self.index < self.bytes.count else { throw self.failure() }
    switch self.bytes[self.index] {
    case UInt8(ascii: "["):
      self.index += 1
      var array: [Any] = []
      try self.elements(until: UInt8(ascii: "]")) { (parser) throws(StateJSONError) in
        array.append(try parser.value(depth: depth + 1))
      }
      return array
    case UInt8(ascii: "{"):
      self.index += 1
      var object: [String: Any] = [:]
      try self.elements(until: UInt8(ascii: "}")) { (parser) throws(StateJSONError) in
        parser.skipSpace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"")
        else {
          throw parser.failure()
        }
        let key = try parser.string()
        parser.skipSpace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: ":")
        else {
          throw parser.failure()
        }
        parser.index += 1
        object[key] = try parser.value(depth: depth + 1)
      }
      return object
    case UInt8(ascii: "\""):
      return try self.string()
    case UInt8(ascii: "t"):
      try self.literal("true")
      return true
    case UInt8(ascii: "f"):
      try self.literal("false")
      return false
    case UInt8(ascii: "n"):
      try self.literal("null")
      return Null()
    default:
      return try self.integer()
    }
  }

  /// Reads the comma-separated elements of an array or an object, each with `element`, and
  /// the `closing` bracket after them.
  mutating func elements(
    until closing: UInt8, _ element: (inout JSONParser) throws(StateJSONError) -> Void
  ) throws(StateJSONError) {
    self.skipSpace()
    if self.index < self.bytes.count, self.bytes[self.index] == closing {
      self.index += 1
      return
    }
    while true {
      try element(&self)
      self.skipSpace()
      guard self.index < self.bytes.count else { throw self.failure() }
      let byte = self.bytes[self.index]
      self.index += 1
      if byte == closing { return }
      guard byte == UInt8(ascii: ",") else { throw self.failure() }
    }
  }

  /// Skips space, then reads `true` or `false`.
  mutating func boolean() throws(StateJSONError) -> Bool {
    self.skipSpace()
    guard self.index < self.bytes.count else { throw self.failure() }
    let value = self.bytes[self.index] == UInt8(ascii: "t")
    try self.literal(value ? "true" : "false")
    return value
  }

  mutating func literal(_ word: StaticString) throws(StateJSONError) {
    let count = word.utf8CodeUnitCount
    guard self.bytes.count - self.index >= count else { throw self.failure() }
    for offset in 0..<count where self.bytes[self.index + offset] != word.utf8Start[offset] {
      throw self.failure()
    }
    self.index += count
  }

  mutating func integer() throws(StateJSONError) -> Int {
    var negative = false
    if self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: "-") {
      negative = true
      self.index += 1
    }
    let start = self.index
    var value = 0
    while self.index < self.bytes.count,
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self.bytes[self.index])
    {
      let (times, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(
        Int(self.bytes[self.index] - UInt8(ascii: "0")))
      guard !overflow, !overflow2 else { throw self.failure() }
      value = sum
      self.index += 1
    }
    guard self.index > start else { throw self.failure() }
    return negative ? -value : value
  }

  mutating func string() throws(StateJSONError) -> String {
    // NB: Most strings have no escapes: made from the bytes where they lie.
    var plain: UnsafeBufferPointer<UInt8>?
    var out: [UInt8]?
    try self.scanString(
      run: { run in
        if out == nil { plain = run } else { out! += run }
      },
      escaped: { scalar in
        if out == nil { out = Array(plain ?? UnsafeBufferPointer(start: nil, count: 0)) }
        UTF8.encode(scalar) { out!.append($0) }
      }
    )
    if let out { return String(decoding: out, as: UTF8.self) }
    return String(decoding: plain ?? UnsafeBufferPointer(start: nil, count: 0), as: UTF8.self)
  }

  /// Skips a string, checked as ``string()`` checks it.
  mutating func skipString() throws(StateJSONError) {
    try self.scanString(run: { _ in }, escaped: { _ in })
  }

  /// Reads the string at the index (its opening quote): hands `run` each run of its bytes
  /// that needs no unescaping, and `escaped` each character written as an escape, in order.
  @inline(__always)
  mutating func scanString(
    run: (UnsafeBufferPointer<UInt8>) -> Void, escaped: (Unicode.Scalar) -> Void
  ) throws(StateJSONError) {
    self.index += 1  // the opening quote
    var runStart = self.index
    while self.index < self.bytes.count {
      let byte = self.bytes[self.index]
      if byte == UInt8(ascii: "\"") {
        run(UnsafeBufferPointer(rebasing: self.bytes[runStart..<self.index]))
        self.index += 1
        return
      }
      if byte < 0x20 { throw self.failure() }
      guard byte == UInt8(ascii: "\\") else {
        self.index += 1
        continue
      }
      run(UnsafeBufferPointer(rebasing: self.bytes[runStart..<self.index]))
      self.index += 1
      guard self.index < self.bytes.count else { throw self.failure() }
      let escape = self.bytes[self.index]
      self.index += 1
      var scalar: UInt32
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = UInt32(escape)
      case UInt8(ascii: "b"): scalar = 0x08
      case UInt8(ascii: "f"): scalar = 0x0C
      case UInt8(ascii: "n"): scalar = 0x0A
      case UInt8(ascii: "r"): scalar = 0x0D
      case UInt8(ascii: "t"): scalar = 0x09
      case UInt8(ascii: "u"):
        scalar = try self.hex4()
        if (0xD800...0xDBFF).contains(scalar) {
          // A surrogate pair: the low half follows as its own escape.
          guard self.bytes.count - self.index >= 6, self.bytes[self.index] == UInt8(ascii: "\\"),
            self.bytes[self.index + 1] == UInt8(ascii: "u")
          else { throw self.failure() }
          self.index += 2
          let low = try self.hex4()
          guard (0xDC00...0xDFFF).contains(low) else { throw self.failure() }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
      default:
        throw self.failure()
      }
      guard let unicode = Unicode.Scalar(scalar) else { throw self.failure() }
      escaped(unicode)
      runStart = self.index
    }
    throw self.failure()
  }

  private mutating func hex4() throws(StateJSONError) -> UInt32 {
    guard self.bytes.count - self.index >= 4 else { throw self.failure() }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = self.bytes[self.index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw self.failure()
      }
      value = value << 4 | UInt32(digit)
      self.index += 1
    }
    return value
  }
}
