import TCATrace
import TCATraceExamples

/// Records the demo's app session into `path` as `tcatrace demo` does, its secrets redacted.
@MainActor
func recordDemoAppSession(_ path: String) async throws {
  let recorder = try TraceRecorder(path: path, redacting: AppFeature.redactions)
  let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
    AppFeature()
  } withDependencies: {
    DemoScript.immediateDependencies(&$0)
  }
  await DemoScript.runApp(finish: store.finish) { store.send($0) }
  await store.finish()
  try await recorder.close()
}
