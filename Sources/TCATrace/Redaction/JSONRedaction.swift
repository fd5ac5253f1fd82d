/// Replaces the values at given paths of a JSON text with the redaction marker, leaving every
/// other byte as it was.
///
/// NB: The redactor finds a secret by where it lives, not by what it is: a value found by
/// searching for its JSON is missed when it is empty (`""` is in every state) or encodes
/// differently where it is nested. Splicing the text, rather than decoding and encoding it
/// again, keeps the rest of the JSON exactly as `TraceJSON` wrote it, which the reader's JSON
/// changes are applied to.
enum JSONRedaction {
  /// One step of a path into a JSON text.
  enum Step: Equatable {
    /// The member of an object with this name; a property's storage (`_name`, as Codable
    /// synthesis names the stored property behind an observed one) answers to it too.
    case member(String)
    /// Into an enum case's associated values, as Codable synthesis encodes them (`{"_0": …}`
    /// or one member per label): the only member, or the member whose value is an object
    /// with a member named `next` (the next case on the path).
    case caseValues(next: String)
    /// The last step of a case: each of its associated values.
    case eachMember
  }

  /// The marker as a JSON string.
  static let marker = "\"\(TraceRedaction.marker)\""

  /// `json` with the value at `path` replaced by the marker; as it was when nothing is there.
  /// An empty path replaces the whole text.
  static func redacting(_ path: ArraySlice<Step>, in json: String) -> String {
    guard !path.isEmpty else { return Self.marker }
    var bytes = Array(json.utf8)
    var scanner = Scanner(bytes: bytes)
    var ranges: [Range<Int>] = []
    scanner.find(path, ranges: &ranges)
    guard !ranges.isEmpty else { return json }
    // NB: Spliced from the end, so that the earlier ranges stay where they were.
    for range in ranges.sorted(by: { $0.lowerBound > $1.lowerBound }) {
      bytes.replaceSubrange(range, with: Self.marker.utf8)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether a JSON member named `name` is the property `property`: by its name, or by its
  /// storage's (`_name`).
  static func isMember(_ name: some Collection<UInt8>, named property: String) -> Bool {
    name.elementsEqual(property.utf8)
      || (name.first == UInt8(ascii: "_") && name.dropFirst().elementsEqual(property.utf8))
  }

  /// The member steps of a state path (`login.twoFactor.code`); `nil` when it names something
  /// that is not a member (an element of a collection), which JSON reaches by index.
  static func steps(ofStatePath path: String) -> [Step]? {
    guard !path.isEmpty else { return [] }
    let names = path.split(separator: ".", omittingEmptySubsequences: false)
    guard
      names.allSatisfy({ name in !name.isEmpty && !name.contains(where: { "[]() ".contains($0) }) })
    else { return nil }
    return names.map { .member(String($0)) }
  }

  /// Reads the compact JSON that `JSONEncoder` writes, and anything else well formed; stops
  /// quietly at anything else, which then has nothing at any path.
  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) {
      self.bytes = bytes
    }

    /// Appends the ranges of the values at `path`, from the value at `index`.
    mutating func find(_ path: ArraySlice<Step>, ranges: inout [Range<Int>]) {
      guard let step = path.first else {
        let start = self.skipSpace()
        if self.skipValue() { ranges.append(start..<self.index) }
        return
      }
      guard let members = self.members() else { return }
      let rest = path.dropFirst()
      switch step {
      case let .member(name):
        for member in members where JSONRedaction.isMember(self.bytes[member.name], named: name) {
          var scanner = Scanner(bytes: self.bytes, index: member.value.lowerBound)
          scanner.find(rest, ranges: &ranges)
          return
        }
      case let .caseValues(next):
        let chosen =
          members.count == 1
          ? members.first
          : members.first { member in
            var scanner = Scanner(bytes: self.bytes, index: member.value.lowerBound)
            return scanner.members()?.contains {
              JSONRedaction.isMember(self.bytes[$0.name], named: next)
            } == true
          }
        guard let chosen else { return }
        var scanner = Scanner(bytes: self.bytes, index: chosen.value.lowerBound)
        scanner.find(rest, ranges: &ranges)
      case .eachMember:
        for member in members {
          var scanner = Scanner(bytes: self.bytes, index: member.value.lowerBound)
          scanner.find(rest, ranges: &ranges)
        }
      }
    }

    private init(bytes: [UInt8], index: Int) {
      self.bytes = bytes
      self.index = index
    }

    /// The members of the object at `index`: the range of each name's bytes (inside its
    /// quotes, as written) and of its value; `nil` when the value there is not an object.
    mutating func members() -> [(name: Range<Int>, value: Range<Int>)]? {
      self.skipSpace()
      guard self.peek == UInt8(ascii: "{") else { return nil }
      self.index += 1
      var members: [(name: Range<Int>, value: Range<Int>)] = []
      self.skipSpace()
      if self.peek == UInt8(ascii: "}") { return members }
      while true {
        self.skipSpace()
        guard self.peek == UInt8(ascii: "\""), self.skipString() else { return nil }
        let name = (self.index - (self.lastStringLength + 1))..<(self.index - 1)
        self.skipSpace()
        guard self.peek == UInt8(ascii: ":") else { return nil }
        self.index += 1
        let start = self.skipSpace()
        guard self.skipValue() else { return nil }
        members.append((name, start..<self.index))
        self.skipSpace()
        switch self.peek {
        case UInt8(ascii: ","): self.index += 1
        case UInt8(ascii: "}"): return members
        default: return nil
        }
      }
    }

    private var peek: UInt8? { self.index < self.bytes.count ? self.bytes[self.index] : nil }
    private var lastStringLength = 0

    @discardableResult
    private mutating func skipSpace() -> Int {
      while let byte = self.peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        self.index += 1
      }
      return self.index
    }

    /// Skips the string at `index`, its quotes included.
    private mutating func skipString() -> Bool {
      let start = self.index
      self.index += 1
      while let byte = self.peek {
        self.index += 1
        if byte == UInt8(ascii: "\\") {
          self.index += 1
        } else if byte == UInt8(ascii: "\"") {
          self.lastStringLength = self.index - start - 2
          return self.index <= self.bytes.count
        }
      }
      return false
    }

    /// Skips the value at `index`, with what it holds.
    private mutating func skipValue(depth: Int = 0) -> Bool {
      guard depth < 512, let byte = self.peek else { return false }
      switch byte {
      case UInt8(ascii: "\""):
        return self.skipString()
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        self.index += 1
        self.skipSpace()
        if self.peek == close {
          self.index += 1
          return true
        }
        while true {
          self.skipSpace()
          if close == UInt8(ascii: "}") {
            guard self.peek == UInt8(ascii: "\""), self.skipString() else { return false }
            self.skipSpace()
            guard self.peek == UInt8(ascii: ":") else { return false }
            self.index += 1
            self.skipSpace()
          }
          guard self.skipValue(depth: depth + 1) else { return false }
          self.skipSpace()
          if self.peek == UInt8(ascii: ",") {
            self.index += 1
          } else if self.peek == close {
            self.index += 1
            return true
          } else {
            return false
          }
        }
      default:
        // A number, `true`, `false` or `null`: up to the next delimiter.
        let start = self.index
        while let byte = self.peek, !",:]} \n\r\t".utf8.contains(byte) { self.index += 1 }
        return self.index > start
      }
    }
  }
}
