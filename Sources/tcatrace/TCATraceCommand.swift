import ArgumentParser
import Foundation
import TCATrace

/// `tcatrace`: replays, filters and checks traces of TCA apps with action boundaries.
@main
struct TCATraceCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tcatrace",
    abstract: "Replay, filter and check action traces of TCA apps with action boundaries.",
    discussion: """
      A trace is a SQLite file written by a TraceRecorder: every action the app processed, \
      classified as view, internal or delegate, with the state change it caused and the \
      boundary leaks it showed. Files are opened read-only and never changed.

      Exit codes: 0 success, 1 findings (leaks, lint), 2 usage or bad input.
      """,
    version: TCATraceVersion.current,
    subcommands: [Demo.self, Sessions.self, Replay.self, Leaks.self, Stats.self, SQL.self, Lint.self]
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
    } catch let error as TraceFileError {
      printError("Error: \(error.cliDescription)")
      Foundation.exit(2)
    } catch let error as CLIError {
      printError("Error: \(error.message)")
      Foundation.exit(2)
    } catch let code as ExitCode {
      // NB: Findings (exit 1) carry no message; asking argument-parser for one builds the
      // command's help, ~0.4 ms.
      Foundation.exit(code.rawValue)
    } catch {
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if code == .success {
        // --help and --version.
        if !message.isEmpty { print(message) }
        Foundation.exit(0)
      }
      guard code == .validationFailure else {
        if !message.isEmpty { printError(message) }
        Foundation.exit(code.rawValue)
      }
      // NB: Usage errors get one line, not argument-parser's usage block, and exit 2 rather
      // than 64 (EX_USAGE), as every tcatrace error does.
      let reason = Self.message(for: error).split(separator: "\n").first.map(String.init) ?? ""
      let help = CommandLine.arguments.dropFirst().first { !$0.hasPrefix("-") }
        .flatMap { name in Self.configuration.subcommands.contains { $0._commandName == name } ? name : nil }
        .map { "tcatrace \($0) --help" } ?? "tcatrace --help"
      printError("Error: \(reason.hasSuffix(".") ? String(reason.dropLast()) : reason); see '\(help)'.")
      Foundation.exit(2)
    }
  }
}

enum TCATraceVersion {
  static let current = "0.1.0"
}

/// A problem with what the user asked for, reported on one line with exit code 2.
struct CLIError: Error {
  var message: String
}

extension TraceFileError {
  /// The error on one line, with what to do about it.
  var cliDescription: String {
    switch self.kind {
    case .corrupt:
      "\(self.description): the file is damaged (truncated or overwritten); record it again"
    case .sqlite where self.sql != nil:
      "\(self.description)"
    default:
      self.description
    }
  }
}
