import ArgumentParser
import ToolSupport

extension TCATraceCommand {
  /// `tcatrace serve FILE…`: the traces in a browser.
  ///
  /// NB: A program of its own, `tcatrace-serve`, run in this process's place as `lint` runs
  /// `tcatrace-lint`: its HTTP server, and the whole of Foundation that the server imports,
  /// would otherwise load with every command.
  struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract: "See traces in a browser: the action log, the state after each action, the leaks.",
      discussion: """
        Run by tcatrace-serve, which is built beside tcatrace. 'tcatrace serve --help' lists \
        its options.
        """
    )

    @Argument(
      parsing: .captureForPassthrough,
      help: ArgumentHelp(
        "Trace files, and options: see 'tcatrace serve --help'.", valueName: "argument")
    )
    var arguments: [String] = []

    func run() async throws {
      throw await Self.forward(self.arguments)
    }

    static func forward(_ arguments: [String]) async -> CLIError {
      await TCATraceCommand.runCompanion("tcatrace-serve", runBy: "serve", arguments: arguments)
    }
  }
}
