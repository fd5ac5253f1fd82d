/// A JSON value written with its keys in a fixed order and explicit `null`s, so that the
/// output of `--format json|jsonl` is exact and documented.
package enum JSONValue {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  package init(_ string: String?) {
    self = string.map(JSONValue.string) ?? .null
  }

  package init(_ integer: Int?) {
    self = integer.map { .integer(Int64($0)) } ?? .null
  }

  /// The value on one line.
  package var rendered: String {
    var output: [UInt8] = []
    output.reserveCapacity(256)
    self.render(into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  // NB: Rendered as UTF-8 bytes: appending to a String piece by piece cost most of
  // `replay --format jsonl`'s time.
  private func render(into output: inout [UInt8]) {
    switch self {
    case .null: output += "null".utf8
    case let .bool(bool): output += (bool ? "true" : "false").utf8
    case let .integer(integer): output += String(integer).utf8
    case let .number(number):
      output += (number.isFinite ? String(number) : "null").utf8
    case let .string(string): Self.quote(string, into: &output)
    case let .array(values):
      output.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        value.render(into: &output)
      }
      output.append(UInt8(ascii: "]"))
    case let .object(members):
      output.append(UInt8(ascii: "{"))
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        Self.quote(key, into: &output)
        output.append(UInt8(ascii: ":"))
        value.render(into: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// Appends `string` as a JSON string, escaped as ``rendered`` escapes it.
  package static func appendQuoted(_ string: String, to output: inout [UInt8]) {
    Self.quote(string, into: &output)
  }

  /// Appends the value on one line.
  package func append(to output: inout [UInt8]) {
    self.render(into: &output)
  }

  /// `string` as a JSON string. Besides what JSON must escape (`"`, `\\`, U+0000–U+001F), DEL,
  /// the C1 controls and the bidirectional formatting characters are escaped (`\u009b`), as
  /// JSON allows: they would act on a terminal that shows the output.
  private static func quote(_ string: String, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { bytes in
      // NB: Runs of bytes that need no escape are copied at once.
      var runStart = 0
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        // NB: The common bytes first: printable ASCII other than `"` and `\`, and the bytes of
        // UTF-8 sequences that cannot start an escaped character.
        if (byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C)
          || (byte >= 0x80 && byte != 0xC2 && byte != 0xD8 && byte != 0xE2)
        {
          index += 1
          continue
        }
        let escapedLength: Int
        switch byte {
        case 0x00..<0x20, 0x22, 0x5C, 0x7F: escapedLength = 1
        case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
          escapedLength = 2
        case 0xD8 where index + 1 < bytes.count && bytes[index + 1] == 0x9C: escapedLength = 2
        case 0xE2
        where index + 2 < bytes.count
          && ((bytes[index + 1] == 0x80
            && (bytes[index + 2] == 0x8E || bytes[index + 2] == 0x8F
              || (0xAA...0xAE).contains(bytes[index + 2])))
            || (bytes[index + 1] == 0x81 && (0xA6...0xA9).contains(bytes[index + 2]))):
          escapedLength = 3
        default:
          index += 1
          continue
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        switch byte {
        case 0x22: output += #"\""#.utf8
        case 0x5C: output += #"\\"#.utf8
        case 0x0A: output += #"\n"#.utf8
        case 0x0D: output += #"\r"#.utf8
        case 0x09: output += #"\t"#.utf8
        default:
          let scalar = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + escapedLength]),
            as: UTF8.self
          )
          .unicodeScalars.first!.value
          let hex = String(scalar, radix: 16)
          output += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
        }
        index += escapedLength
        runStart = index
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
    output.append(UInt8(ascii: "\""))
  }
}
