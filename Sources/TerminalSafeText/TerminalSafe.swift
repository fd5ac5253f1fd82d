extension String {
  /// Whether the text shows as it is on a terminal, line by line: nothing in it but its line
  /// breaks would be escaped by ``terminalSafe``.
  package var isTerminalSafeLineByLine: Bool {
    // NB: Read as bytes while they are ASCII, where the only controls are the C0 ones and DEL:
    // a state of a megabyte is checked at a fraction of reading its scalars, and from its
    // storage at a fraction of reading its bytes one by one.
    let ascii =
      self.utf8.withContiguousStorageIfAvailable(Self.isTerminalSafeLineByLine(ascii:))
      ?? Array(self.utf8).withUnsafeBufferPointer(Self.isTerminalSafeLineByLine(ascii:))
    if let ascii { return ascii }
    return !self.unicodeScalars.contains {
      ($0.isTerminalControl && $0 != "\n") || $0.value >= 0x10FF80
    }
  }

  /// Whether UTF-8 `bytes` show as they are on a terminal, line by line, when they are ASCII;
  /// `nil` when they are not, and their scalars decide (``isTerminalSafeLineByLine``).
  ///
  /// NB: Eight bytes at a time, each word's bytes compared at once. Where a word holds both a
  /// byte that is not ASCII and a control, either answer comes to the same: an ASCII control
  /// is a terminal control.
  package static func isTerminalSafeLineByLine(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    /// The high bit of each byte of `word` (all below 0x80) that is zero.
    func zeros(_ word: UInt64) -> UInt64 { ~((word &+ 0x7F &* ones) & highs) & highs }
    var index = 0
    if let base = UnsafeRawPointer(bytes.baseAddress) {
      while bytes.count - index >= 8 {
        let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        if word & highs != 0 { return nil }
        let controls = ~((word &+ 0x60 &* ones) & highs) & highs  // below 0x20
        let newlines = zeros(word ^ (0x0A &* ones))
        let deletes = zeros(word ^ (0x7F &* ones))
        if (controls & ~newlines) | deletes != 0 { return false }
        index += 8
      }
    }
    for byte in bytes[index...] {
      if byte >= 0x80 { return nil }
      if (byte < 0x20 && byte != UInt8(ascii: "\n")) || byte == 0x7F { return false }
    }
    return true
  }

  /// The string with its lines kept and every other character a terminal acts on escaped, as
  /// ``terminalSafe`` escapes it: for text of several lines made of a trace's values.
  package var terminalSafeLineByLine: String {
    guard !self.isTerminalSafeLineByLine else { return self }
    return self.split(separator: "\n", omittingEmptySubsequences: false)
      .map { String($0).terminalSafe }.joined(separator: "\n")
  }

  /// The string with every character a terminal acts on shown as an escape, as CustomDump
  /// writes them: `\n`, `\r`, `\t`, and `\u{1B}` for the other C0 controls, DEL, the C1
  /// controls (U+0080–U+009F) and the bidirectional overrides and isolates; and each byte of a
  /// file name that is not UTF-8 (see `FileName`) as `\xFF`.
  ///
  /// A trace is someone else's data: a session name, a payload or a state value holding
  /// `ESC [ 2 J` would otherwise clear the user's screen, and a newline would forge a line.
  package var terminalSafe: String {
    guard self.unicodeScalars.contains(where: { $0.isTerminalControl || $0.value >= 0x10FF80 })
    else { return self }
    var escaped = ""
    escaped.reserveCapacity(self.utf8.count + 8)
    for scalar in self.unicodeScalars {
      switch scalar {
      case "\n": escaped += #"\n"#
      case "\r": escaped += #"\r"#
      case "\t": escaped += #"\t"#
      case _ where scalar.isTerminalControl:
        escaped += #"\u{"# + String(scalar.value, radix: 16, uppercase: true) + "}"
      case _ where scalar.value >= 0x10FF80:
        // NB: A byte of a file name that is not UTF-8 (see `FileName`), as `\xFF`.
        escaped += #"\x"# + String(scalar.value & 0xFF, radix: 16, uppercase: true)
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}

extension Unicode.Scalar {
  /// Whether a terminal acts on the character rather than show it: C0 and C1 controls, DEL,
  /// and the bidirectional formatting characters that reorder what follows.
  package var isTerminalControl: Bool {
    switch self.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
