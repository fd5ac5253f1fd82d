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
    let actions: [CodableBenchFeature.Action] = (0..<count).map {
      $0 % 4 == 0 ? .rowTapped(id: $0 % 100) : .incrementTapped
    }
    let recorder = try TraceRecorder(path: path, policy: .recordOnly, timing: .measured)
    let recording = RecordingStore(
      initialState: CodableBenchFeature.State(rows: 100), recorder: recorder
    ) {
      CodableBenchFeature.Feature()
    }
    // NB: Paced, so that the writer keeps up and drops nothing; only the sends are timed.
    var recordingNanoseconds: UInt64 = 0
    for block in stride(from: 0, to: count, by: 5_000) {
      let start = DispatchTime.now().uptimeNanoseconds
      for action in actions[block..<min(block + 5_000, count)] { recording.send(action) }
      recordingNanoseconds += DispatchTime.now().uptimeNanoseconds - start
      try await Task.sleep(for: .milliseconds(100))
    }
    try await recorder.close()
    let dropped = try TraceReader(path: path).session(id: 1).droppedActions
    guard dropped == 0 else { throw BenchError("the recording dropped \(dropped) actions") }

    var plain: [Double] = []
    var replays: [Double] = []
    for _ in 0..<size.repetitions {
      let store = Store(initialState: CodableBenchFeature.State(rows: 100)) {
        CodableBenchFeature.Feature()
      }
      let start = DispatchTime.now().uptimeNanoseconds
      for action in actions { store.send(action) }
      plain.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count))

      let replayStart = DispatchTime.now().uptimeNanoseconds
      let report = try await TraceReplayer(path: path, session: 1).run(
        CodableBenchFeature.Feature())
      replays.append(Double(DispatchTime.now().uptimeNanoseconds - replayStart) / Double(count))
      guard report.divergence == nil, report.replayed == count else {
        throw BenchError("the replay diverged: \(report)")
      }
    }
    let store = Figure(
      name: "\(count) actions sent to a plain store", unit: "ns/action", samples: plain)
    let replay = Figure(
      name: "the same actions replayed from the trace", unit: "ns/action", samples: replays)
    // What recording them cost (once): `Codable` actions are encoded as JSON on the store's thread.
    let recorded = Figure(
      name: "the same actions recorded (Codable: with their JSON)", unit: "ns/action",
      samples: [Double(recordingNanoseconds) / Double(count)]
    )
    return ScenarioResult(
      name: "replay",
      figures: [store, replay, recorded],
      ratios: [
        Ratio(
          name: "replay / plain store", value: replay.median / store.median, target: .atMost(3)),
        Ratio(
          name: "recording Codable actions / plain store", value: recorded.median / store.median),
      ]
    )
  }
}
