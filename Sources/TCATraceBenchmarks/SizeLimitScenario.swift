import Foundation
import TCATrace

extension Scenarios {
  /// Issue #73: what keeping the file within a size limit costs. Recordings of
  /// `limitSends` actions, one scalar changed each at 10 rows, into a new file with a limit of
  /// `limitBytes` and without one, taking turns: the store's thread's CPU time in the send
  /// loop (paired), the whole recording until the file is closed (the writer's cuts and
  /// checkpoints included), and the file's size at the end.
  @MainActor
  public static func sizeLimit(_ size: BenchmarkSize) async throws -> ScenarioResult {
    let scratch = try Scratch()
    let runs = try await Self.takingTurns(pairs: size.limitPairs) { limited, pair in
      let path = scratch.path("limit-\(limited)-\(pair).db")
      let timed = try await Self.timedRecording(
        path: path, keepsStates: true, sizeLimit: limited ? size.limitBytes : nil,
        count: size.limitSends, makeSendLoop: Self.scalarSendLoop(rows: 10))
      let fileSize = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
      try? FileManager.default.removeItem(atPath: path)
      return (sendCPU: timed.sendCPU, untilClosed: timed.untilClosed, bytes: Double(fileSize))
    }
    let sendCPU = runs.mapValues { $0.map(\.sendCPU) }
    let totals = runs.mapValues { $0.map(\.untilClosed) }
    let bytes = runs.mapValues { $0.map(\.bytes) }
    let label = "\(size.limitSends) actions at 10 rows"
    let limit = "a limit of \(size.limitBytes) bytes"
    let figures = [
      Figure(
        name: "\(label), \(limit): store's CPU time", unit: "ns/action", samples: sendCPU[true]!),
      Figure(
        name: "\(label), no limit: store's CPU time", unit: "ns/action", samples: sendCPU[false]!),
      Figure(name: "\(label), \(limit): until closed", unit: "ns/action", samples: totals[true]!),
      Figure(name: "\(label), no limit: until closed", unit: "ns/action", samples: totals[false]!),
      Figure(name: "\(label), \(limit): file", unit: "bytes", samples: bytes[true]!),
      Figure(name: "\(label), no limit: file", unit: "bytes", samples: bytes[false]!),
    ]
    let store = PairedRatios(sendCPU[true]!, sendCPU[false]!)
    let closed = PairedRatios(totals[true]!, totals[false]!)
    return ScenarioResult(
      name: "size limit", figures: figures,
      ratios: [
        Ratio(
          name: "store's CPU time with / without a size limit, paired, median",
          value: store.median, target: .atMost(1.1)),
        Ratio(
          name: "store's CPU time with / without a size limit, paired, 95% interval to",
          value: store.upper),
        Ratio(
          name: "until closed, with / without a size limit, paired, median", value: closed.median),
      ]
    )
  }
}
