import Foundation
import TCATrace

extension Scenarios {
  /// Scenario 5: the process's peak resident memory while a `RecordingStore` records
  /// `size.memoryActions` actions as fast as it can, above its resident memory just before.
  ///
  /// The store outruns the writer here, so the buffer between them stays full: the worst case
  /// for memory. The peak is read after a tenth of the actions and at the end; when nothing
  /// grows with the session's length, the two are close.
  ///
  /// - Returns: `nil` where the kernel does not report resident memory (`/proc/self/status`).
  @MainActor
  public static func memory(_ size: BenchmarkSize) async throws -> ScenarioResult? {
    guard ResidentMemory.current() != nil else { return nil }
    let scratch = try Scratch()
    let recorder = try TraceRecorder(path: scratch.path("memory.db"), policy: .recordOnly)
    let store = RecordingStore(initialState: BenchFeature.State(rows: 1_000), recorder: recorder) {
      BenchFeature.Feature()
    }
    func send(_ index: Int) {
      store.send(
        index.isMultiple(of: 2) ? .view(.incrementTapped) : .view(.rowTapped(id: index % 1_000)))
    }
    // NB: One action first, so that the one-time costs (type metadata, the session's row)
    // are part of the baseline rather than of the growth.
    send(1)
    ResidentMemory.resetPeak()
    // NB: The baseline is the peak just after the reset, not `VmRSS` read after it: other
    // threads (the tests run scenarios side by side) may grow and shrink the process between
    // the reset and the read, which left `VmRSS` above every later `VmHWM`, a negative growth.
    // The peak only rises from here.
    guard let baseline = ResidentMemory.peak() else { return nil }
    let tenth = size.memoryActions / 10
    for index in 0..<tenth { send(index) }
    let earlyPeak = max(ResidentMemory.peak() ?? 0, baseline)
    for index in tenth..<size.memoryActions { send(index) }
    // NB: Linux keeps a thread's resident-page counts in a per-thread cache it folds into the
    // process's every 64 page faults, so two reads of `VmHWM` can go down by a few pages with
    // other threads at work (seen once in `swift test`: a negative growth). Below the baseline
    // is no growth.
    let peak = max(ResidentMemory.peak() ?? 0, baseline)
    try await recorder.close()

    let session = try TraceReader(path: scratch.path("memory.db")).latestSession()
    func megabytes(_ name: String, _ bytes: Int) -> Figure {
      Figure(name: name, unit: "MB", samples: [Double(bytes) / 1_048_576])
    }
    let actions = Double(size.memoryActions + 1)
    return ScenarioResult(
      name: "memory",
      figures: [
        megabytes("resident before recording", baseline),
        megabytes("peak after \(tenth) actions, above that", earlyPeak - baseline),
        megabytes("peak after \(size.memoryActions) actions, above that", peak - baseline),
        Figure(
          name: "actions written (the rest dropped: buffer full)", unit: "actions",
          samples: [Double(session.actionCount)]
        ),
        Figure(name: "actions dropped", unit: "actions", samples: [Double(session.droppedActions)]),
      ],
      ratios: [
        Ratio(
          name: "peak above baseline, MB", value: Double(peak - baseline) / 1_048_576,
          target: .atMost(100)),
        Ratio(
          name: "written + dropped / sent",
          value: Double(session.actionCount + session.droppedActions) / actions),
      ]
    )
  }
}

/// The process's resident memory, from `/proc/self/status` (Linux).
enum ResidentMemory {
  /// `VmRSS`, in bytes: this process's, or the one with `pid`.
  static func current(of pid: Int32? = nil) -> Int? {
    self.field("VmRSS:", of: pid)
  }

  /// `VmHWM`, the peak since the process started or since `resetPeak()`, in bytes.
  static func peak() -> Int? { self.field("VmHWM:") }

  /// Sets the peak to the current resident memory (`/proc/self/clear_refs`, Linux 4.0+).
  static func resetPeak() {
    guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
    try? file.write(contentsOf: Data("5".utf8))
    try? file.close()
  }

  private static func field(_ name: String, of pid: Int32? = nil) -> Int? {
    // NB: Read with stdio: Foundation sizes a file by `stat`, and /proc's files say 0 bytes.
    guard let file = fopen("/proc/\(pid.map(String.init) ?? "self")/status", "r") else {
      return nil
    }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 256)
    while fgets(&buffer, Int32(buffer.count), file) != nil {
      let line = String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard line.hasPrefix(name) else { continue }
      let kilobytes = line.dropFirst(name.count).split(whereSeparator: \.isWhitespace).first.flatMap
      { Int($0) }
      return kilobytes.map { $0 * 1024 }
    }
    return nil
  }
}
