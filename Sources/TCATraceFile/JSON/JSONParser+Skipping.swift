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
