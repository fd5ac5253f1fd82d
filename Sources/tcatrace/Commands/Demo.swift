import ArgumentParser
import CustomDump
import TCATraceExamples

extension TCATraceCommand {
  /// `tcatrace demo`: runs the example app through its scripted session.
  struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run the example app through a scripted session and print what it did.",
      discussion: """
        The session logs in with two-factor, works through the todo list and edits the \
        settings; then the leaky example breaks each boundary rule once. Each processed \
        action is printed with its number, its origin and the feature it was routed to.
        """
    )

    @MainActor
    func run() async throws {
      print("App session")
      let app = Store(
        initialState: AppFeature.State(),
        observer: { (event: ActionEvent<AppFeature.State, AppFeature.Action>) in
          printEvent(event)
        }
      ) {
        DemoScript.app()
      }
      await DemoScript.runApp { app.send($0) }
      await app.finish()

      print("\nLeaky session")
      let leaky = Store(
        initialState: LeakyParentFeature.State(),
        observer: { (event: ActionEvent<LeakyParentFeature.State, LeakyParentFeature.Action>) in
          printEvent(event)
        }
      ) {
        LeakyParentFeature()
      }
      await DemoScript.runLeaky { leaky.send($0) }
      await leaky.finish()
    }
  }
}

/// One line per action: `  3  effect ← 2  login  AppFeature.Action._internal(…)`.
@MainActor
private func printEvent<State, Action>(_ event: ActionEvent<State, Action>) {
  let origin =
    switch event.origin {
    case .send: "send"
    case let .effect(cause): "effect ← \(cause)"
    }
  let feature = event.route.statePath.isEmpty ? "(root)" : event.route.statePath
  let action = String(customDumping: event.action)
    .split(separator: "\n")
    .map { $0.trimmingPrefix(while: \.isWhitespace) }
    .reduce(into: "") { line, part in
      line += line.hasSuffix(",") ? " " + part : part
    }
  print(
    String(event.id).leftPadded(to: 4), " ", origin.rightPadded(to: 12), " ",
    feature.rightPadded(to: 18), " ", action, separator: ""
  )
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: " ", count: max(0, width - self.count)) + self
  }

  fileprivate func rightPadded(to width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - self.count))
  }
}
