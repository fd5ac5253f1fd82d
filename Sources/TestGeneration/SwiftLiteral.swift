/// The literals and names `tcatrace test` writes: what a trace holds enters the source only
/// through here.
///
/// A trace is untrusted, and the compiler reads Unicode scalars, not the `Character`s a
/// `String` compares: a quote followed by a combining mark is one `Character` and still a quote
/// to the compiler. So nothing from a trace is copied into the source as text. A literal is
/// read, scalar by scalar, into the value it stands for, and written anew: every scalar outside
/// printable ASCII as `\u{…}` (`"café"` is written `"caf\u{E9}"`). A name is checked, scalar by
/// scalar, against the ASCII part of Swift's identifier grammar.
package enum SwiftLiteral {
  /// `string` as a one-line Swift string literal: printable ASCII as it is, `\\`, `\"`, `\n`,
  /// `\r`, `\t`, `\0`, and every other scalar as `\u{…}`.
  static func string(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\0": out += "\\0"
      case " "..."~": out.unicodeScalars.append(scalar)
      default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return out + "\""
  }

  /// A literal as CustomDump printed it (`"Blob"`, `#"say "hi""#`, `42`, `-1.5e-3`, `true`,
  /// `nil`, a `UUID`, an `IndexSet`), written anew; `nil` when `text` is not one literal and
  /// nothing more.
  static func rewritten(_ text: String) -> String? {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    guard let literal = self.literal(in: scalars, at: &index), index == scalars.count else {
      return nil
    }
    return literal
  }

  /// The literal at `index` in `scalars`, written anew; `index` moves past it. `nil`, with
  /// `index` where it was, when there is none there.
  static func literal(in scalars: [Unicode.Scalar], at index: inout Int) -> String? {
    guard index < scalars.count else { return nil }
    for word in ["true", "false", "nil"] where self.word(word, in: scalars, at: index) {
      index += word.unicodeScalars.count
      return word
    }
    if scalars[index] == "\"" || scalars[index] == "#" {
      var end = index
      guard let string = self.decodedString(scalars, at: &end) else { return nil }
      index = end
      return self.string(string)
    }
    if let uuid = self.uuid(in: scalars, at: &index) { return uuid }
    if let indexSet = self.indexSet(in: scalars, at: &index) { return indexSet }
    return self.number(in: scalars, at: &index)
  }

  /// The most integers an `IndexSet` is written with; a larger one is not written.
  static let indexSetLimit = 64

  /// An `IndexSet` as CustomDump prints it, `IndexSet(ranges: [[0]: 1..<4, [1]: 7..<8])`,
  /// written as the array literal of its integers, `[1, 2, 3, 7]`, which builds one where an
  /// `IndexSet` is expected (it is `ExpressibleByArrayLiteral`); `index` moves past it. `nil`
  /// for anything else, and for one of more than ``indexSetLimit`` integers.
  static func indexSet(in scalars: [Unicode.Scalar], at index: inout Int) -> String? {
    var position = index
    // NB: CustomDump prints one over several lines.
    func skipSpaces() {
      while position < scalars.count, scalars[position] == " " || scalars[position] == "\n" {
        position += 1
      }
    }
    func skip(_ text: String) -> Bool {
      skipSpaces()
      for scalar in text.unicodeScalars {
        guard position < scalars.count, scalars[position] == scalar else { return false }
        position += 1
      }
      return true
    }
    func integer() -> Int? {
      skipSpaces()
      let start = position
      while position < scalars.count, ("0"..."9").contains(scalars[position]), position - start < 18
      {
        position += 1
      }
      guard position > start else { return nil }
      return Int(String(String.UnicodeScalarView(scalars[start..<position])))
    }
    guard skip("IndexSet("), skip("ranges:"), skip("[") else { return nil }
    var ranges: [Range<Int>] = []
    if !skip("]") {
      while true {
        guard skip("["), integer() == ranges.count, skip("]"), skip(":"),
          let lower = integer(), skip("..<"), let upper = integer(), lower < upper,
          lower >= (ranges.last?.upperBound ?? 0)
        else { return nil }
        ranges.append(lower..<upper)
        if skip("]") { break }
        guard skip(",") else { return nil }
      }
    }
    guard skip(")"), let written = self.indexSet(ranges) else { return nil }
    index = position
    return written
  }

  /// The integers of `ranges`, ascending and apart, as an array literal; `nil` for more than
  /// ``indexSetLimit`` of them.
  static func indexSet(_ ranges: [Range<Int>]) -> String? {
    guard ranges.reduce(0, { $0 + $1.count }) <= self.indexSetLimit else { return nil }
    return "[" + ranges.joined().map(String.init).joined(separator: ", ") + "]"
  }

  /// A `UUID` as CustomDump prints it (`UUID(00000000-0000-0000-0000-000000000001)`), or as a
  /// path names an element by it (`rows[id: 00000000-0000-0000-0000-000000000001]`), written
  /// as TCA's tests write one: `UUID(1)` (swift-dependencies' initializer, which the incrementing
  /// `uuid` dependency's values have), or `UUID(uuidString: "…")!`; `index` moves past it.
  private static func uuid(in scalars: [Unicode.Scalar], at index: inout Int) -> String? {
    let prefix = Array("UUID(".unicodeScalars)
    let wrapped =
      scalars.count - index >= prefix.count
      && Array(scalars[index..<(index + prefix.count)]) == prefix
    let start = wrapped ? index + prefix.count : index
    let end = start + 36
    guard end <= scalars.count else { return nil }
    var digits = ""
    for (offset, scalar) in scalars[start..<end].enumerated() {
      if [8, 13, 18, 23].contains(offset) {
        guard scalar == "-" else { return nil }
        digits.unicodeScalars.append(scalar)
      } else {
        guard scalar.properties.isASCIIHexDigit else { return nil }
        digits += String(scalar).uppercased()
      }
    }
    var after = end
    if wrapped {
      guard after < scalars.count, scalars[after] == ")" else { return nil }
      after += 1
    }
    guard after == scalars.count || !self.isNameScalar(scalars[after]) else { return nil }
    index = after
    if digits.hasPrefix("00000000-0000-0000-0000-"), let value = Int(digits.suffix(12), radix: 16) {
      return "UUID(\(value))"
    }
    return "UUID(uuidString: \"\(digits)\")!"
  }

  /// Whether `word` stands at `index`, not followed by a scalar of a name.
  private static func word(_ word: String, in scalars: [Unicode.Scalar], at index: Int) -> Bool {
    var position = index
    for scalar in word.unicodeScalars {
      guard position < scalars.count, scalars[position] == scalar else { return false }
      position += 1
    }
    return position == scalars.count || !self.isNameScalar(scalars[position])
  }

  /// A decimal number: `-`? digits (`.` digits)? ([eE] [+-]? digits)?, as Swift prints
  /// integers and floating-point values; written as it was read, every scalar checked.
  private static func number(in scalars: [Unicode.Scalar], at index: inout Int) -> String? {
    var position = index
    var out = ""
    func digits() -> Bool {
      let start = position
      while position < scalars.count, ("0"..."9").contains(scalars[position]) {
        out.unicodeScalars.append(scalars[position])
        position += 1
      }
      return position > start
    }
    if position < scalars.count, scalars[position] == "-" {
      out += "-"
      position += 1
    }
    guard digits() else { return nil }
    if position + 1 < scalars.count, scalars[position] == ".",
      ("0"..."9").contains(scalars[position + 1])
    {
      out += "."
      position += 1
      _ = digits()
    }
    if position < scalars.count, scalars[position] == "e" || scalars[position] == "E" {
      out.unicodeScalars.append(scalars[position])
      position += 1
      if position < scalars.count, scalars[position] == "+" || scalars[position] == "-" {
        out.unicodeScalars.append(scalars[position])
        position += 1
      }
      guard digits() else { return nil }
    }
    // NB: `1e5e3` or `3-2` is not a number followed by more.
    guard
      position == scalars.count
        || !self.isNameScalar(scalars[position]) && scalars[position] != "."
          && scalars[position] != "-" && scalars[position] != "+"
    else { return nil }
    index = position
    return out
  }

  /// The value of the one-line string literal at `index`, plain or raw (`#"…"#`); `index` moves
  /// past it. `nil` when there is none, or it interpolates.
  ///
  /// NB: A control is read as it is (CustomDump writes them as they are in a raw string), and
  /// a line break ends nothing: the value is written anew, every control escaped.
  static func decodedString(_ scalars: [Unicode.Scalar], at index: inout Int) -> String? {
    var position = index
    var hashes = 0
    while position < scalars.count, scalars[position] == "#" {
      hashes += 1
      position += 1
    }
    guard position < scalars.count, scalars[position] == "\"" else { return nil }
    position += 1
    // NB: A multi-line literal is a `StateNode.multilineString`, never a one-line value.
    if position < scalars.count, scalars[position] == "\"",
      position + 1 < scalars.count, scalars[position + 1] == "\""
    {
      return nil
    }
    /// Whether `hashes` number signs follow `position`.
    func marks(after position: Int) -> Bool {
      guard position + hashes <= scalars.count else { return false }
      return scalars[position..<position + hashes].allSatisfy { $0 == "#" }
    }
    var value = ""
    while position < scalars.count {
      let scalar = scalars[position]
      if scalar == "\"", marks(after: position + 1) {
        index = position + 1 + hashes
        return value
      }
      if scalar == "\\", marks(after: position + 1) {
        position += 1 + hashes
        guard position < scalars.count else { return nil }
        switch scalars[position] {
        case "0": value += "\0"
        case "\\": value += "\\"
        case "t": value += "\t"
        case "n": value += "\n"
        case "r": value += "\r"
        case "\"": value += "\""
        case "'": value += "'"
        case "u":
          position += 1
          guard position < scalars.count, scalars[position] == "{" else { return nil }
          var hex = ""
          position += 1
          while position < scalars.count, scalars[position] != "}", hex.unicodeScalars.count < 8 {
            hex.unicodeScalars.append(scalars[position])
            position += 1
          }
          guard position < scalars.count, scalars[position] == "}",
            hex.unicodeScalars.allSatisfy(\.properties.isASCIIHexDigit),
            let code = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(code)
          else { return nil }
          value.unicodeScalars.append(decoded)
        // NB: `\(` interpolates: a trace's text never becomes an expression.
        default: return nil
        }
        position += 1
        continue
      }
      value.unicodeScalars.append(scalar)
      position += 1
    }
    return nil
  }

  /// Whether `text` is a name: `[A-Za-z_][A-Za-z0-9_]*`, not `_`, checked scalar by scalar.
  package static func isIdentifier(_ text: some StringProtocol) -> Bool {
    var scalars = text.unicodeScalars.makeIterator()
    guard let first = scalars.next(),
      first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first)
    else { return false }
    var count = 1
    while let scalar = scalars.next() {
      guard self.isNameScalar(scalar) else { return false }
      count += 1
    }
    return count > 1 || first != "_"
  }

  /// Whether `text` can follow a dot as a member of a value: a name that is not one of the
  /// words that name something else there (`.init`, `.self`, `.Type`).
  static func isMemberName(_ text: some StringProtocol) -> Bool {
    self.isIdentifier(text) && !self.specialMembers.contains(String(text))
  }

  /// Whether `text` can label an argument.
  static func isLabel(_ text: some StringProtocol) -> Bool {
    self.isIdentifier(text) && !["inout", "var", "let"].contains(String(text))
  }

  /// Whether `text` is a type's name, its components capitalized as Swift's types are:
  /// `TodosFeature.State`.
  static func isTypeName(_ text: some StringProtocol) -> Bool {
    text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { component in
      guard let first = component.unicodeScalars.first, ("A"..."Z").contains(first) else {
        return false
      }
      return self.isIdentifier(component) && !self.specialMembers.contains(String(component))
    }
  }

  private static let specialMembers: Set<String> = [
    "init", "self", "Self", "Type", "Protocol", "dynamicType",
  ]

  private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
      || ("0"..."9").contains(scalar)
  }
}
