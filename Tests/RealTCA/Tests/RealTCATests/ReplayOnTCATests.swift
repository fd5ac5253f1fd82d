import Foundation
import TCATrace
import Testing
@testable import RealTCAExamples

/// `TraceReplayer` re-runs a session recorded on TCA against TCA's reducers (#41).
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct ReplayOnTCATests {
  @Test func theAppsSessionReplaysAndVerifiesAgainstItsReducerAndABrokenOneDiverges() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("tcatrace-replay-\(UUID().uuidString).db").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path, session: "app", policy: .recordOnly)
    let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
      AppFeature()
    } withDependencies: {
      DemoScript.immediateDependencies(&$0)
    }
    await DemoScript.runApp(finish: store.finish) { store.send($0) }
    await store.finish()
    try await recorder.close()

    let replayer = try TraceReplayer(path: path, session: 1)
    let report = try await replayer.run(
      AppFeature(), withDependencies: DemoScript.immediateDependencies)
    #expect(report.divergence == nil, "\(report)")
    #expect(report.replayed == 25)
    try await replayer.verify(AppFeature(), withDependencies: DemoScript.immediateDependencies)

    let broken = try await replayer.run(
      Broken(), withDependencies: DemoScript.immediateDependencies)
    #expect(broken.divergence?.seq == 1, "\(broken)")
    await withKnownIssue {
      try await replayer.verify(Broken(), withDependencies: DemoScript.immediateDependencies)
    }
  }
}

/// The app, but every action also flips a setting.
private struct Broken: Reducer {
  var body: some ReducerOf<AppFeature> {
    AppFeature()
    Reduce { state, _ in
      state.notificationsEnabled.toggle()
      return .none
    }
  }
}
