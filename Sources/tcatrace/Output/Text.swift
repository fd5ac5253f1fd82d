import ToolSupport

extension String {
  func leftPadded(to width: Int) -> String {
    String(repeating: " ", count: max(0, width - self.count)) + self
  }

  func rightPadded(to width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - self.count))
  }
}

/// Prints `values` as `format`: one JSON array, or one object per line.
func printJSON(_ values: [JSONValue], format: OutputFormat) {
  switch format {
  case .json: print(JSONValue.array(values).rendered)
  case .jsonl, .text: for value in values { print(value.rendered) }
  }
}
