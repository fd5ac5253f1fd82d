import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where output goes, and whether it may be coloured.
struct Terminal {
  /// Colour is used only when standard output is a terminal and `NO_COLOR` is unset.
  let isColored: Bool

  static let standard = Terminal(
    isColored: isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
  )

  /// Whether standard input is a terminal (for `--step`).
  static var inputIsTerminal: Bool {
    isatty(STDIN_FILENO) == 1
  }

  enum Style: String {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case yellow = "33"
    case blue = "34"
    case magenta = "35"
    case cyan = "36"
  }

  func paint(_ text: String, _ style: Style) -> String {
    guard self.isColored, !text.isEmpty else { return text }
    return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
  }
}

/// Writes `line` and a newline to standard error.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

extension String {
  func leftPadded(to width: Int) -> String {
    String(repeating: " ", count: max(0, width - self.count)) + self
  }

  func rightPadded(to width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - self.count))
  }

  /// A CustomDump rendering on one line: `User(id: 1, name: "Blob")`.
  var singleLine: String {
    self.split(separator: "\n")
      .map { $0.trimmingPrefix(while: \.isWhitespace) }
      .reduce(into: "") { line, part in
        line += line.hasSuffix(",") ? " " + part : part
      }
  }
}
