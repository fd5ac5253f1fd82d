import ArgumentParser
// NB: Every program that prints a trace's text shows it through `terminalSafe`.
@_exported import TerminalSafeText

/// A problem with what the user asked for, reported on one line with exit code 2.
package struct CLIError: Error {
  package var message: String

  package init(message: String) {
    self.message = message
  }

  /// Writes `Error: <message>` to standard error, on one line, and exits with 2.
  ///
  /// NB: One line whatever the message holds: a path or a file's SQL with a line break in it
  /// is shown with `\n`.
  package func reportAndExit() -> Never {
    printError("Error: \(self.message)".terminalSafe)
    exitProcess(2)
  }
}

/// Ends the process with `code`, flushing C's output buffers: `exit`, under a name that
/// `ParsableCommand.exit(withError:)` does not hide.
package func exitProcess(_ code: Int32) -> Never {
  exit(code)
}

package enum TCATraceVersion {
  package static let current = "0.1.0"
}

extension ParsableCommand {
  /// Parses the command line and runs the command, with the exit codes every `tcatrace`
  /// program shares: 0 success, 1 findings, 2 usage or bad input, said on one line.
  ///
  /// It runs on the main thread, as `@main`'s `main()` does: a command run on a thread of the
  /// concurrent pool would set up that thread's own heap first, at every start.
  ///
  /// - Parameter arguments: The arguments; default: the command line's.
  /// - Parameter describe: The one-line message for an error of the caller's own kind
  ///   (exit 2), or `nil` for the errors this function knows.
  @MainActor
  package static func runAsTool(
    arguments: [String]? = nil,
    describing describe: @Sendable (any Error) -> String? = { _ in nil }
  ) async {
    do {
      var command = try parseAsRoot(arguments)
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
      finishOutput()
    } catch let error as CLIError {
      error.reportAndExit()
    } catch let code as ExitCode {
      // NB: Findings (exit 1) carry no message; asking argument-parser for one would build
      // the command's help.
      finishOutput()
      exitProcess(code.rawValue)
    } catch {
      if let message = describe(error) {
        CLIError(message: message).reportAndExit()
      }
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if code == .success {
        // --help and --version.
        if !message.isEmpty { print(message) }
        finishOutput()
        exitProcess(0)
      }
      guard code == .validationFailure else {
        if !message.isEmpty { printError(message) }
        exitProcess(code.rawValue)
      }
      // NB: Usage errors get one line, not argument-parser's usage block, and exit 2 rather
      // than 64 (EX_USAGE), as every tcatrace error does.
      let reason = Self.message(for: error).split(separator: "\n").first.map(String.init) ?? ""
      let help =
        CommandLine.arguments.dropFirst().first { !$0.hasPrefix("-") }
        .flatMap { name in
          configuration.subcommands.contains { $0._commandName == name } ? name : nil
        }
        .map { "\(_commandName) \($0) --help" } ?? "\(_commandName) --help"
      CLIError(
        message: "\(reason.hasSuffix(".") ? String(reason.dropLast()) : reason); see '\(help)'."
      )
      .reportAndExit()
    }
  }
}
