import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where output goes, and whether it may be coloured.
package struct Terminal {
  /// Colour is used only when standard output is a terminal and `NO_COLOR` is unset.
  package let isColored: Bool

  package static let standard = Terminal(
    isColored: isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
  )

  /// Whether standard input is a terminal (for `--step`).
  package static var inputIsTerminal: Bool {
    isatty(STDIN_FILENO) == 1
  }

  package enum Style: String {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case yellow = "33"
    case blue = "34"
    case magenta = "35"
    case cyan = "36"
  }

  package func paint(_ text: String, _ style: Style) -> String {
    guard self.isColored, !text.isEmpty else { return text }
    return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
  }
}

/// Writes `line` and a newline to standard error.
package func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
