import ArgumentParser
import Foundation
import TCATrace
import TCATraceCLI
import TCATraceExamples

extension TCATraceCommand {
  /// `tcatrace demo`: records the example app into a trace and shows it.
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

    @MainActor
    func run() async throws {
      let variant = DemoScript.Variant(seed: self.seed)
      let appRecorder = try TraceRecorder(
        path: self.out, session: "demo app (seed \(self.seed))", policy: .recordOnly,
        redacting: AppFeature.redactions
      )
      let app = RecordingStore(initialState: AppFeature.State(), recorder: appRecorder) {
        AppFeature()
      } withDependencies: {
        DemoScript.dependencies(&$0)
      }
      await DemoScript.runApp(variant) { app.send($0) }
      await app.finish()
      try await appRecorder.close()

      let leakyRecorder = try TraceRecorder(path: self.out, session: "demo leaky", policy: .recordOnly)
      let leaky = RecordingStore(initialState: LeakyParentFeature.State(), recorder: leakyRecorder) {
        LeakyParentFeature()
      }
      await DemoScript.runLeaky { leaky.send($0) }
      await leaky.finish()
      try await leakyRecorder.close()

      let reader = try TraceReader(path: self.out)
      let sessions = Array(try reader.sessions().suffix(2))
      let terminal = Terminal.standard
      print(
        "Recorded \(sessions.map { "\($0.actionCount) actions of \($0.rootFeature)" }.joined(separator: " and ")) to \(self.out).\n"
      )
      var printer = ReplayPrinter(reader: reader, format: .text, terminal: terminal, showsChanges: true)
      for session in sessions {
        try reader.forEachAction(matching: TraceFilter(session: session.id)) { try printer.print($0) }
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
