import TCATrace
import TCATraceExamples

/// Records one action of the leaky example at `path`: a session whose state is not
/// `Encodable`, so that the trace keeps its tree and no JSON.
@MainActor
func recordLeakySession(at path: String) async throws {
  let recorder = try TraceRecorder(path: path, policy: .recordOnly)
  let store = RecordingStore(initialState: LeakyParentFeature.State(), recorder: recorder) {
    LeakyParentFeature()
  }
  store.send(.view(.onAppear))
  await store.finish()
  try await recorder.close()
}
