import ArgumentParser
import TCATraceFile
import ToolSupport

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
    subcommands: [
      Demo.self, Sessions.self, Replay.self, State.self, Debug.self, Diff.self, Test.self,
      Leaks.self, Stats.self, SQL.self, Export.self, Merge.self, Serve.self, Lint.self,
    ]
  )

  /// Runs the command, with the exit codes every `tcatrace` command shares: 0 success,
  /// 1 findings, 2 usage or bad input.
  static func main() async {
    // NB: `lint` and `serve` are programs of their own (see `Lint` and `Serve`), and get their
    // arguments untouched, `--help` included.
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "lint" || arguments == ["help", "lint"] {
      await Lint.forward(arguments.first == "help" ? ["--help"] : Array(arguments.dropFirst()))
        .reportAndExit()
    }
    if arguments.first == "serve" || arguments == ["help", "serve"] {
      await Serve.forward(arguments.first == "help" ? ["--help"] : Array(arguments.dropFirst()))
        .reportAndExit()
    }
    // NB: File names that are not UTF-8 reach the commands whole (see `FileName`).
    await runAsTool(arguments: FileName.arguments()) { error in
      (error as? TraceFileError)?.cliDescription
    }
  }
}
