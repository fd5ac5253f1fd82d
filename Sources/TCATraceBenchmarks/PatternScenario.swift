import Foundation
import TCATrace

extension Scenarios {
  /// Issue #75, in time: a tap every 16 ms, a timer's tick every 16 ms on 1,000 rows, and a
  /// keystroke every 100 ms (each at least that long after the one before), as an app sends
  /// them (`InstructionCount.Pattern`), to a plain `Store` and to a `RecordingStore`. Whether the writer keeps up at those rates (every action
  /// written, none dropped), and the main thread's CPU time an action, for the record: one run of
  /// each side, whose instructions `--instructions` counts without the noise. The CPU time is
  /// only measured where the main actor runs on the main thread, as in `tcatrace-bench`; under
  /// an `async` main on Linux (the tests') its jobs run on other threads.
  @MainActor
  public static func appPatterns(_ size: BenchmarkSize) async throws -> ScenarioResult {
    let scratch = try Scratch()
    var figures: [Figure] = []
    var ratios: [Ratio] = []
    let patterns: [(InstructionCount.Pattern, milliseconds: UInt64, frames: Int)] = [
      (.tap, 16, size.patternFrames), (.timer, 16, size.patternFrames),
      (.typing, 100, size.keystrokes),
    ]
    for (pattern, milliseconds, frames) in patterns {
      var cpu: [Bool: Double?] = [:]
      for recorded in [false, true] {
        let path = scratch.path("\(pattern)-\(recorded).db")
        let (nanoseconds, sent, backlog) = try await Self.sendAtRate(
          pattern, every: milliseconds, frames: frames, recordingTo: recorded ? path : nil)
        cpu[recorded] = nanoseconds.map { Double($0) / Double(sent) }
        guard recorded else { continue }
        let session = try TraceReader(path: path).session(id: 1)
        figures.append(
          Figure(
            name: "\(pattern.title) every \(milliseconds) ms: actions dropped", unit: "actions",
            samples: [Double(session.droppedActions)]))
        ratios.append(
          Ratio(
            name: "\(pattern.title) every \(milliseconds) ms: actions written / sent",
            value: Double(session.actionCount) / Double(sent), target: .atLeast(1)))
        // NB: All but the session's first, which keeps the state before it, where the writer
        // keeps up: none past the backlog's bound.
        if let backlog {
          figures.append(
            Figure(
              name:
                "\(pattern.title) every \(milliseconds) ms: actions analysed on the store's thread past the backlog's bound",
              unit: "actions", samples: [Double(backlog.fallbacks)]))
          ratios.append(
            Ratio(
              name:
                "\(pattern.title) every \(milliseconds) ms: actions analysed on the writer's thread / sent but the first",
              value: Double(backlog.admitted) / Double(sent - 1), target: .atLeast(1)))
        }
      }
      guard let plain = cpu[false] ?? nil, let recording = cpu[true] ?? nil else { continue }
      figures += [
        Figure(
          name: "\(pattern.title) every \(milliseconds) ms, Store.send: the main thread's CPU time",
          unit: "ns/action", samples: [plain]),
        Figure(
          name: "\(pattern.title) every \(milliseconds) ms, recording: the main thread's CPU time",
          unit: "ns/action", samples: [recording]),
      ]
      ratios.append(
        Ratio(
          name:
            "\(pattern.title) every \(milliseconds) ms, the main thread's CPU time: recording / Store.send (one run)",
          value: recording / plain))
    }
    return ScenarioResult(name: "app patterns, in time", figures: figures, ratios: ratios)
  }

  /// Sends `frames` frames of `pattern`, one every `milliseconds`, to a plain store or (with a
  /// path) a recording one, and waits for the last frame's actions; the main thread's CPU time
  /// meanwhile (`nil` when the main actor does not run on the main thread), and the actions
  /// sent. A recorder is closed before it returns.
  /// With `debugger`, the recording store streams its session there (`tcatrace serve --live`).
  @MainActor
  static func sendAtRate(
    _ pattern: InstructionCount.Pattern, every milliseconds: UInt64, frames: Int,
    recordingTo path: String?, debugger: TraceDebugger? = nil
  ) async throws -> (
    nanoseconds: UInt64?, actions: Int, backlog: (admitted: Int, fallbacks: Int)?
  ) {
    let progress = FrameProgress()
    let (ticks, tick) = AsyncStream.makeStream(of: Void.self)
    let feature = PatternFeature.Feature(ticks: ticks, progress: progress)
    let state = PatternFeature.State(rows: pattern == .timer ? 1_000 : 0)
    let recorder = try path.map { try TraceRecorder(path: $0, policy: .recordOnly) }
    let send: (PatternFeature.Action) -> Void
    if let recorder {
      let store = RecordingStore(initialState: state, recorder: recorder, debugger: debugger) {
        feature
      }
      send = { store.send($0) }
    } else {
      let store = Store(initialState: state) { feature }
      send = { store.send($0) }
    }
    let start = Thread.isMainThread ? threadCPUNanoseconds() : 0
    var text = ""
    if pattern == .timer { send(.view(.timerStarted)) }
    for _ in 0..<frames {
      switch pattern {
      case .tap: send(.view(.refreshTapped))
      case .timer: tick.yield()
      case .typing:
        text += "a"
        send(.view(.binding(.set(\.text, text))))
      case .burst, .rows: preconditionFailure("not sent at a rate")
      }
      try await Task.sleep(nanoseconds: milliseconds * 1_000_000)
    }
    let deadline = Date(timeIntervalSinceNow: 60)
    while progress.frames < frames {
      guard Date() < deadline else {
        throw BenchError("\(pattern): \(progress.frames) of \(frames) frames arrived in a minute")
      }
      try await Task.sleep(nanoseconds: 1_000_000)
    }
    let nanoseconds = Thread.isMainThread ? threadCPUNanoseconds() - start : nil
    tick.finish()
    try await recorder?.close()
    let actions = frames * pattern.actionsPerFrame + (pattern == .timer ? 1 : 0)
    return (nanoseconds, actions, recorder.map { ($0.backlog.admitted, $0.backlog.fallbacks) })
  }
}
