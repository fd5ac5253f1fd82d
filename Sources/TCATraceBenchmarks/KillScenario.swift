import Foundation
import TCATrace

extension Scenarios {
  /// Issue #73: what a process killed from outside loses. Actions sent one at a time, a frame
  /// (16 ms) apart, as an app sends taps: for each, the time from its `send` returning to the
  /// writer committing it, after which a reader opening the file sees it and a kill cannot take
  /// it away. Polled every 0.1 ms; the session's first action on its own.
  @MainActor
  public static func killWindow(_ size: BenchmarkSize) async throws -> ScenarioResult {
    let scratch = try Scratch()
    let recorder = try TraceRecorder(
      path: scratch.path("kill.db"), policy: .recordOnly, timing: .measured)
    let store = RecordingStore(initialState: BenchFeature.State(rows: 10), recorder: recorder) {
      BenchFeature.Feature()
    }
    var delays: [Double] = []
    for _ in 0...size.killActions {
      let before = recorder.writtenSeq ?? 0
      store.send(.view(.incrementTapped))
      delays.append(Self.millisecondsUntilWritten(recorder, past: before))
      try await Task.sleep(for: .milliseconds(16))
    }
    try await recorder.close()
    // NB: The session's first action waits for the file to be opened and checked, and for the
    // state before it to be kept: apart.
    let first = delays.removeFirst()
    let sorted = delays.sorted()
    let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    let (burstCPU, burst) = try await Self.burstsByWriterDelay(size, scratch: scratch)
    let (frameCPU, frames) = try await Self.framesByWriterDelay(size, scratch: scratch)
    let comparison =
      "store's CPU time, a burst, writer delay \(Self.milliseconds(TraceWriter.maxDelay)) / "
      + Self.milliseconds(Self.formerWriterDelay)
    return ScenarioResult(
      name: "kill window",
      figures: [
        Figure(
          name: "one action a frame: from send to committed", unit: "ms", samples: delays)
      ] + burstCPU + frameCPU,
      ratios: [
        Ratio(name: "\(comparison), paired, median", value: burst.median, target: .atMost(1.1)),
        Ratio(name: "\(comparison), paired, 95% interval from", value: burst.lower),
        Ratio(name: "\(comparison), paired, 95% interval to", value: burst.upper),
        Ratio(
          name:
            "the process's CPU time, an action a frame, writer delay \(Self.milliseconds(TraceWriter.maxDelay)) / \(Self.milliseconds(Self.formerWriterDelay)), paired, median",
          value: frames.median),
        Ratio(name: "from send to committed, median, ms", value: sorted[sorted.count / 2]),
        Ratio(
          name: "from send to committed, 99th percentile, ms", value: p99, target: .atMost(20)),
        Ratio(name: "from send to committed, most, ms", value: sorted[sorted.count - 1]),
        Ratio(name: "the session's first action, from send to committed, ms", value: first),
      ]
    )
  }

  /// The writer's delay before 2026-12-03 (issue #73), in seconds: its batches waited up to
  /// 50 ms to fill.
  static let formerWriterDelay = 0.05

  static func milliseconds(_ seconds: Double) -> String {
    "\(Int((seconds * 1_000).rounded())) ms"
  }

  /// The store's CPU time for a burst of `limitSends`' actions, one scalar changed at 10
  /// rows, with the writer's delay today and before, taking turns (`limitPairs` pairs): what
  /// committing sooner costs the store, where the writer is busiest.
  @MainActor
  private static func burstsByWriterDelay(
    _ size: BenchmarkSize, scratch: Scratch
  ) async throws -> (figures: [Figure], ratios: PairedRatios) {
    let sendCPU = try await Self.takingTurns(pairs: size.limitPairs) { now, pair in
      let path = scratch.path("delay-\(now)-\(pair).db")
      let timed = try await Self.timedRecording(
        path: path, keepsStates: true,
        writerDelay: now ? TraceWriter.maxDelay : Self.formerWriterDelay,
        count: size.limitSends, makeSendLoop: Self.scalarSendLoop(rows: 10))
      try? FileManager.default.removeItem(atPath: path)
      return timed.sendCPU
    }
    let label = "\(size.limitSends) actions at 10 rows, store's CPU time, writer delay"
    return (
      [
        Figure(
          name: "\(label) \(Self.milliseconds(TraceWriter.maxDelay))", unit: "ns/action",
          samples: sendCPU[true]!),
        Figure(
          name: "\(label) \(Self.milliseconds(Self.formerWriterDelay))", unit: "ns/action",
          samples: sendCPU[false]!),
      ],
      PairedRatios(sendCPU[true]!, sendCPU[false]!)
    )
  }

  /// `frameActions` actions a frame (16 ms) apart, one scalar changed at 10 rows, with the
  /// writer's delay today and before, taking turns (`framePairs` pairs): the process's CPU time
  /// an action, every thread's, until the recorder is closed; the store's and the runtime's
  /// work is the same on both sides, the writer's is not. Where the delay changes most how
  /// often the writer commits: about once an action today, once every three before.
  ///
  /// NB: The process's time, not the other threads' as the process's less the store thread's:
  /// after an `await`, the store's work may go on on another thread.
  @MainActor
  private static func framesByWriterDelay(
    _ size: BenchmarkSize, scratch: Scratch
  ) async throws -> (figures: [Figure], ratios: PairedRatios) {
    let processCPU = try await Self.takingTurns(pairs: size.framePairs) { now, pair in
      let path = scratch.path("frames-\(now)-\(pair).db")
      let recorder = try TraceRecorder(
        path: path, policy: .recordOnly, timing: .measured,
        writerDelay: now ? TraceWriter.maxDelay : Self.formerWriterDelay)
      let store = RecordingStore(initialState: BenchFeature.State(rows: 10), recorder: recorder) {
        BenchFeature.Feature()
      }
      let start = processCPUNanoseconds()
      for _ in 0..<size.frameActions {
        store.send(.view(.incrementTapped))
        try await Task.sleep(for: .milliseconds(16))
      }
      try await recorder.close()
      try? FileManager.default.removeItem(atPath: path)
      return Double(processCPUNanoseconds() - start) / Double(size.frameActions)
    }
    let label = "\(size.frameActions) actions a frame apart, the process's CPU time"
    return (
      [
        Figure(
          name: "\(label), writer delay \(Self.milliseconds(TraceWriter.maxDelay))",
          unit: "ns/action", samples: processCPU[true]!),
        Figure(
          name: "\(label), writer delay \(Self.milliseconds(Self.formerWriterDelay))",
          unit: "ns/action", samples: processCPU[false]!),
      ],
      PairedRatios(processCPU[true]!, processCPU[false]!)
    )
  }

  /// The milliseconds from now until `recorder` has committed an action after `seq`, polled
  /// every 0.1 ms; 10 seconds at the most.
  private static func millisecondsUntilWritten(_ recorder: TraceRecorder, past seq: Int) -> Double {
    let sent = DispatchTime.now().uptimeNanoseconds
    var now = sent
    while (recorder.writtenSeq ?? 0) <= seq, now < sent + 10_000_000_000 {
      Thread.sleep(forTimeInterval: 0.000_1)
      now = DispatchTime.now().uptimeNanoseconds
    }
    return Double(now - sent) / 1e6
  }
}
