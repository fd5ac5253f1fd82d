/// A JSON value written with its keys in a fixed order and explicit `null`s, so that the
/// output of `--format json|jsonl` is exact and documented.
enum JSONValue {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  init(_ string: String?) {
    self = string.map(JSONValue.string) ?? .null
  }

  init(_ integer: Int?) {
    self = integer.map { .integer(Int64($0)) } ?? .null
  }

  /// The value on one line.
  var rendered: String {
    var output = ""
    self.render(into: &output)
    return output
  }

  private func render(into output: inout String) {
    switch self {
    case .null: output += "null"
    case let .bool(bool): output += bool ? "true" : "false"
    case let .integer(integer): output += String(integer)
    case let .number(number):
      output += number.isFinite ? String(number) : "null"
    case let .string(string): Self.quote(string, into: &output)
    case let .array(values):
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        value.render(into: &output)
      }
      output += "]"
    case let .object(members):
      output += "{"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { output += "," }
        Self.quote(key, into: &output)
        output += ":"
        value.render(into: &output)
      }
      output += "}"
    }
  }

  private static func quote(_ string: String, into output: inout String) {
    output += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}

/// Prints `values` as `format`: one JSON array, or one object per line.
func printJSON(_ values: [JSONValue], format: OutputFormat) {
  switch format {
  case .json: print(JSONValue.array(values).rendered)
  case .jsonl, .text: for value in values { print(value.rendered) }
  }
}
