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

  private static func quote(_ string: String, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { bytes in
      // NB: Runs of bytes that need no escape are copied at once.
      var runStart = 0
      for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        runStart = index + 1
        switch byte {
        case 0x22: output += #"\""#.utf8
        case 0x5C: output += #"\\"#.utf8
        case 0x0A: output += #"\n"#.utf8
        case 0x0D: output += #"\r"#.utf8
        case 0x09: output += #"\t"#.utf8
        default:
          let hex = String(byte, radix: 16)
          output += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
        }
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
    output.append(UInt8(ascii: "\""))
  }
}
