import Composable
import Foundation
import TCATrace

extension Scenarios {
  /// Scenario 7, issue #19: replaying a recorded session against its reducer (`TraceReplayer`,
  /// reading the trace, decoding each action, comparing what each changed), against sending
  /// the same actions to a plain store.
  @MainActor
  public static func replay(_ size: BenchmarkSize) async throws -> ScenarioResult {
    let scratch = try Scratch()
    let path = scratch.path("replay.db")
    let count = size.replayActions
    // One action in four taps one of 100 rows; the rest change a scalar.
    let actions: [BenchFeature.Action] = (0..<count).map {
      $0 % 4 == 0 ? .view(.rowTapped(id: $0 % 100)) : .view(.incrementTapped)
    }
    let recorder = try TraceRecorder(path: path, policy: .recordOnly, timing: .measured)
    let recording = RecordingStore(initialState: BenchFeature.State(rows: 100), recorder: recorder) {
      BenchFeature.Feature()
    }
    for (index, action) in actions.enumerated() {
      recording.send(action)
      // NB: Paced, so that the writer keeps up and drops nothing: the recording is not what is
      // measured here.
      if index % 5_000 == 4_999 { try await Task.sleep(for: .milliseconds(100)) }
    }
    try await recorder.close()
    let dropped = try TraceReader(path: path).session(id: 1).droppedActions
    guard dropped == 0 else { throw BenchError("the recording dropped \(dropped) actions") }

    var plain: [Double] = []
    var replays: [Double] = []
    for _ in 0..<size.repetitions {
      let store = Store(initialState: BenchFeature.State(rows: 100)) { BenchFeature.Feature() }
      let start = DispatchTime.now().uptimeNanoseconds
      for action in actions { store.send(action) }
      plain.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count))

      let replayStart = DispatchTime.now().uptimeNanoseconds
      let report = try await TraceReplayer(path: path, session: 1).run(BenchFeature.Feature())
      replays.append(Double(DispatchTime.now().uptimeNanoseconds - replayStart) / Double(count))
      guard report.divergence == nil, report.replayed == count else {
        throw BenchError("the replay diverged: \(report)")
      }
    }
    let store = Figure(name: "\(count) actions sent to a plain store", unit: "ns/action", samples: plain)
    let replay = Figure(name: "the same actions replayed from the trace", unit: "ns/action", samples: replays)
    return ScenarioResult(
      name: "replay",
      figures: [store, replay],
      ratios: [Ratio(name: "replay / plain store", value: replay.median / store.median, target: .atMost(3))]
    )
  }
}
