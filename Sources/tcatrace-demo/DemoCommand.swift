import ArgumentParser
import Foundation
import TCATrace
import ToolSupport
import TCATraceExamples

/// `tcatrace-demo`: records the example app's scripted sessions into a trace.
///
/// A program of its own, which `tcatrace demo` runs and whose trace it then prints: the example
/// app is built on `Composable` and swift-dependencies, whose conformances and libraries
/// (FoundationNetworking and libcurl on Linux, through CustomDump and OpenCombine) would
/// otherwise be in `tcatrace` and slow every command's start-up (Documentation/Performance.md).
@main
struct DemoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tcatrace-demo",
    abstract: "Record the example app's scripted sessions to a trace (run by 'tcatrace demo').",
    discussion: """
      Records two sessions: the app session, and the leaky session that breaks each boundary \
      rule once. The trace is appended to if it exists. Prints nothing: 'tcatrace demo' runs \
      this program, then replays what it recorded.
      """,
    version: TCATraceVersion.current
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
    await DemoScript.runApp(variant, finish: app.finish) { app.send($0) }
    await app.finish()
    try await appRecorder.close()

    let leakyRecorder = try TraceRecorder(
      path: self.out, session: "demo leaky", policy: .recordOnly)
    let leaky = RecordingStore(initialState: LeakyParentFeature.State(), recorder: leakyRecorder) {
      LeakyParentFeature()
    }
    await DemoScript.runLeaky { leaky.send($0) }
    await leaky.finish()
    try await leakyRecorder.close()
  }

  static func main() async {
    await runAsTool { error in (error as? TraceFileError)?.cliDescription }
  }
}
