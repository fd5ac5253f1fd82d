/// JSON strings as the trace writes them.
package enum JSONString {
  /// `string` as `JSONEncoder` writes it: `"`, `\` and the control characters escaped (the
  /// common ones by letter, the others as `\u00xx`), everything else as it is. A state tree's
  /// strings, a path's member names and a state's strings in its JSON changes are all written
  /// so.
  package static func quote(_ string: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += #"\""#.utf8
      case UInt8(ascii: "\\"): out += #"\\"#.utf8
      case 0x08: out += #"\b"#.utf8
      case 0x09: out += #"\t"#.utf8
      case 0x0A: out += #"\n"#.utf8
      case 0x0C: out += #"\f"#.utf8
      case 0x0D: out += #"\r"#.utf8
      case 0x00..<0x20:
        let hex = String(byte, radix: 16)
        out += ("\\u00" + (hex.count == 1 ? "0" : "") + hex).utf8
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
