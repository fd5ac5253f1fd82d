// NB: `@preconcurrency` for C's `stdout` (see `standardOutput()`), a global Swift 6 cannot
// otherwise read.
#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where output goes, and whether it may be coloured.
package struct Terminal {
  /// Colour is used only when standard output is a terminal and `NO_COLOR` is unset.
  package let isColored: Bool

  package static let standard = Terminal(
    isColored: isatty(STDOUT_FILENO) == 1 && getenv("NO_COLOR") == nil
  )

  package enum Style: String {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case yellow = "33"
    case blue = "34"
    case magenta = "35"
    case cyan = "36"
    case inverse = "7"
  }

  package func paint(_ text: String, _ style: Style) -> String {
    guard self.isColored, !text.isEmpty else { return text }
    return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
  }
}

/// Writes `line` and a newline to standard error.
///
/// NB: Through C's `stderr`, which reports a failed write rather than trapping as
/// `FileHandle.write(_:)` does: with standard error closed (`2>&-`) the program still ends
/// with its exit code.
///
/// Characters a terminal acts on are shown as escapes (see ``Swift/String/terminalSafe``), line
/// by line: a message may quote a file's contents.
package func printError(_ line: String) {
  let line = line.split(separator: "\n", omittingEmptySubsequences: false)
    .map { String($0).terminalSafe }
    .joined(separator: "\n")
  var bytes = Array((line + "\n").utf8)[...]
  while !bytes.isEmpty {
    let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    guard written > 0 else { return }
    bytes = bytes.dropFirst(written)
  }
}

/// Flushes standard output; if anything written to it was lost (a full disk, `> /dev/full`),
/// says so on one line and exits with 2, as `cat` does, rather than end as if all was written.
package func finishOutput() {
  let output = standardOutput()
  let flushed = fflush(output) == 0
  let reason = flushed ? nil : String(cString: strerror(errno))
  guard !flushed || ferror(output) != 0 else { return }
  clearerr(output)
  CLIError(
    message:
      "cannot write the output\(reason.map { " (\($0))" } ?? ""): nothing after that was written; check where the output goes"
  ).reportAndExit()
}

/// Whether standard output is a pipe or socket whose reading end is closed: whatever is written
/// to it now is lost.
package func isOutputUnread() -> Bool {
  var output = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
  // NB: No events asked for, no wait: `poll` reports an error or a hang-up on the descriptor
  // whatever is asked. A file or a terminal reports neither.
  guard poll(&output, 1, 0) == 1 else { return false }
  return output.revents & Int16(POLLERR | POLLHUP) != 0
}

/// Ends the program as a write to a pipe nobody reads does: by `SIGPIPE`, unless the program
/// ignores it, and then with the error a failed write reports.
package func raiseBrokenPipe() -> Never {
  raise(SIGPIPE)
  let reason = String(cString: strerror(EPIPE))
  CLIError(message: "cannot write the output (\(reason)): nothing reads it any more")
    .reportAndExit()
}

/// Writes `bytes` to standard output, the stream `print` writes to, as they are.
package func writeOutput(_ bytes: UnsafeBufferPointer<UInt8>) {
  _ = fwrite(bytes.baseAddress, 1, bytes.count, standardOutput())
}

/// C's `stdout`, the stream `print` writes to.
private func standardOutput() -> UnsafeMutablePointer<FILE>? {
  // NB: A global of the C library's; reading it races with nothing here.
  nonisolated(unsafe) let output = stdout
  return output
}
