import Foundation
import TCATrace

extension Scenarios {
  /// Issue #73: what writing the flight journal costs the store. Recordings of `limitSends`
  /// actions, one scalar changed each at 10 rows, with the journal and without it, taking
  /// turns: the store's thread's CPU time in the send loop (paired). Without it, the store's
  /// thread still classifies and encodes each action before its reducer runs, as the record
  /// needs: what is compared is the journal's own work, its stores into the mapped file.
  @MainActor
  public static func flightJournal(_ size: BenchmarkSize) async throws -> ScenarioResult {
    let scratch = try Scratch()
    let runs = try await Self.takingTurns(pairs: size.limitPairs) { journal, pair in
      let path = scratch.path("journal-\(journal)-\(pair).db")
      let timed = try await Self.timedRecording(
        path: path, keepsStates: true, flightJournal: journal, count: size.limitSends,
        makeSendLoop: Self.scalarSendLoop(rows: 10))
      try? FileManager.default.removeItem(atPath: path)
      return timed.sendCPU
    }
    let label = "\(size.limitSends) actions at 10 rows"
    let store = PairedRatios(runs[true]!, runs[false]!)
    return ScenarioResult(
      name: "flight journal",
      figures: [
        Figure(
          name: "\(label), with the flight journal: store's CPU time", unit: "ns/action",
          samples: runs[true]!),
        Figure(
          name: "\(label), without it: store's CPU time", unit: "ns/action",
          samples: runs[false]!),
      ],
      ratios: [
        Ratio(
          name: "store's CPU time with / without the flight journal, paired, median",
          value: store.median, target: .atMost(1.1)),
        Ratio(
          name: "store's CPU time with / without the flight journal, paired, 95% interval to",
          value: store.upper),
      ]
    )
  }
}
