extension String {
  /// `arguments` written as C's `printf` writes them with `format`: `String(format:)` without
  /// Foundation, whose internationalization a `tcatrace` without it does not load (see
  /// Documentation/Performance.md).
  package init(cFormat format: String, _ arguments: any CVarArg...) {
    var buffer = [CChar](repeating: 0, count: 32)
    while true {
      let count = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
      guard count >= buffer.count else { break }
      buffer = [CChar](repeating: 0, count: Int(count) + 1)
    }
    self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
