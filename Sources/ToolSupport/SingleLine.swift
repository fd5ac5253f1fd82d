extension String {
  /// A CustomDump rendering on one line: `User(id: 1, name: "Blob")`.
  package var singleLine: String {
    self.split(separator: "\n")
      .map { $0.trimmingPrefix(while: \.isWhitespace) }
      .reduce(into: "") { line, part in
        line += line.hasSuffix(",") ? " " + part : part
      }
  }
}
