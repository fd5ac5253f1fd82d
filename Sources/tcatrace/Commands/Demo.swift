import ArgumentParser
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

import ToolSupport
import TCATraceFile

extension TCATraceCommand {
  /// `tcatrace demo`: records the example app into a trace and shows it.
  ///
  /// The recording is done by `tcatrace-demo`, the program built beside `tcatrace`: the example
  /// app and the recorder are built on `Composable`, which `tcatrace` does not link (see
  /// `tcatrace-demo`).
  struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "demo",
      abstract: "Record the example app's scripted session to a trace, then replay it.",
      discussion: """
        The app session logs in with two-factor, adds, toggles and clears todos, and edits \
        the settings; the leaky session breaks each boundary rule once. Both are recorded to \
        the output file (appended if it is already a trace), then printed with their leak \
        report. Explore the file afterwards with 'tcatrace replay', 'leaks', 'stats' and 'sql'.
        """
    )

    @Option(help: "The trace file to write.")
    var out = "demo.db"

    @Option(help: "Picks who logs in and the todo they add (1 is the README's).")
    var seed = 1

    func validate() throws {
      guard self.seed >= 1 else { throw ValidationError("--seed must be 1 or more.") }
    }

    /// Refuses, before anything is recorded, an output the recorder could not write: a folder
    /// that does not exist or cannot be written, or a directory.
    func checkOutput() throws {
      let url = URL(fileURLWithPath: self.out)
      let folder = url.deletingLastPathComponent().path
      if FileStatus(self.out)?.isDirectory == true {
        throw CLIError(message: "'\(self.out)' is a directory: give --out a file name")
      }
      guard FileStatus(folder)?.isDirectory == true else {
        throw CLIError(
          message:
            "cannot write '\(self.out)': the folder '\(folder)' does not exist; create it or choose another --out"
        )
      }
      guard access(folder, W_OK) == 0 else {
        throw CLIError(
          message:
            "cannot write '\(self.out)': the folder '\(folder)' is not writable; choose another --out"
        )
      }
    }

    func run() async throws {
      try self.checkOutput()
      try await Self.record(out: self.out, seed: self.seed)
      let reader = try TraceReader(path: self.out)
      let sessions = Array(try reader.sessions().suffix(2))
      let terminal = Terminal.standard
      print(
        "Recorded \(sessions.map { "\($0.actionCount) actions of \($0.rootFeature)" }.joined(separator: " and ")) to \(self.out).\n"
      )
      var printer = ReplayPrinter(
        reader: reader, format: .text, terminal: terminal, showsChanges: true)
      for session in sessions {
        try reader.forEachAction(matching: TraceFilter(session: session.id)) {
          try printer.print($0)
        }
      }
      print()
      let summaries = try sessions.flatMap { try reader.leakSummaries(session: $0.id) }
      printLeakTable(summaries, roots: try reader.rootFeatures(), terminal: terminal)
      print(
        """

        Next: tcatrace replay \(self.out) --session latest --leaks-only
              tcatrace replay \(self.out) --category view --feature login
              tcatrace stats \(self.out)
              tcatrace sql \(self.out) "SELECT feature, count(*) FROM actions GROUP BY 1"
        """
      )
    }
  }
}

extension TCATraceCommand.Demo {
  /// Runs `tcatrace-demo --out out --seed seed` (see ``TCATraceCommand/companion(_:runBy:)``).
  /// Throws `ExitCode` with its status when it fails (it has said why on standard error), or a
  /// `CLIError` when it cannot be run.
  static func record(out: String, seed: Int) async throws {
    let name = "tcatrace-demo"
    let arguments = [name, "--out", out, "--seed", String(seed)]
    let program = try await TCATraceCommand.companion(name, runBy: "demo")
    let status = try await runProgram(program, arguments)
    guard status == 0 else {
      if status > 128 {
        throw CLIError(
          message: "\(name) was stopped by signal \(status - 128) before it finished \(out)")
      }
      throw ExitCode(status)
    }
  }
}
