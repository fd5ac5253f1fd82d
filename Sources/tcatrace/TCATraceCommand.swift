import ArgumentParser
import Foundation

/// `tcatrace`: records, replays and checks traces of TCA-style apps with action boundaries.
@main
struct TCATraceCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tcatrace",
    abstract: "Replay, filter and check action traces of TCA apps with action boundaries.",
    discussion: """
      A trace is a SQLite file written by a TraceRecorder: every action the app processed, \
      classified as view, internal or delegate, with the state change it caused and the \
      boundary leaks it showed.
      """,
    version: TCATraceVersion.current,
    subcommands: [Demo.self]
  )

  /// Runs the command, with the exit codes every `tcatrace` command shares: 0 success,
  /// 1 findings, 2 usage or bad input.
  static func main() async {
    do {
      var command = try parseAsRoot()
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
    } catch {
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if code == .success {
        // --help and --version.
        if !message.isEmpty { print(message) }
        Foundation.exit(0)
      }
      if !message.isEmpty {
        FileHandle.standardError.write(Data((message + "\n").utf8))
      }
      // NB: argument-parser exits 64 (EX_USAGE) on usage errors; ours is 2, as documented.
      Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
    }
  }
}

enum TCATraceVersion {
  static let current = "0.1.0"
}
