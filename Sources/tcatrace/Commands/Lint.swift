import ArgumentParser
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
import ToolSupport

extension TCATraceCommand {
  /// `tcatrace lint …`: runs `tcatrace-lint`, the program beside `tcatrace` that holds the
  /// linter, with the same arguments.
  ///
  /// The linter is swift-syntax's parser, whose ~5,100 protocol conformances would otherwise
  /// be in `tcatrace` too: the Swift runtime scans every conformance in a binary the first time
  /// it is asked about a type, and argument-parser asks about ~50 types before a command
  /// runs. Out of `tcatrace`, they cost the other commands nothing (Documentation/Performance.md).
  struct Lint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "lint",
      abstract: "Check Swift sources for boundary leaks, without running them.",
      discussion: """
        Run by tcatrace-lint, which is built beside tcatrace. 'tcatrace lint --help' lists \
        its options and rules.
        """
    )

    @Argument(
      parsing: .captureForPassthrough,
      help: ArgumentHelp(
        "Swift files or directories, and options: see 'tcatrace lint --help'.",
        valueName: "argument")
    )
    var arguments: [String] = []

    func run() async throws {
      throw await Self.forward(self.arguments)
    }

    /// Replaces this process with `tcatrace-lint` and `arguments` (see
    /// ``TCATraceCommand/companion(_:runBy:)``). Returns only if it cannot be run, with what to
    /// do about it.
    static func forward(_ arguments: [String]) async -> CLIError {
      await TCATraceCommand.runCompanion("tcatrace-lint", runBy: "lint", arguments: arguments)
    }
  }

  /// Runs the companion program `name` with `arguments` in this process's place; returns only
  /// the error that it could not be found or run.
  static func runCompanion(_ name: String, runBy command: String, arguments: [String]) async
    -> CLIError
  {
    let program: String
    do {
      program = try await TCATraceCommand.companion(name, runBy: command)
    } catch {
      return error
    }
    // NB: `execv` keeps the calling thread's signal mask, and this runs on a thread of the
    // concurrency pool, which blocks most signals (Dispatch's on Linux, the kernel's workqueue
    // threads on Darwin): the program would start deaf to Ctrl-C and `kill`.
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    pthread_sigmask(SIG_SETMASK, &noSignals, nil)
    let argv = ([name] + arguments).map { strdup($0) } + [nil]
    execv(program, argv)
    return CLIError(message: "could not run \(program): \(String(cString: strerror(errno)))")
  }
}
