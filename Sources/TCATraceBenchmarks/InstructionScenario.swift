import Foundation
import TCATrace

/// Issue #75: instructions, as valgrind's callgrind counts them, the same on every machine and
/// under load, where a time moves with both.
///
/// `tcatrace-bench --instructions` runs itself under callgrind (`--separate-threads=yes`) once
/// for each side and count: ``sendAndExit(recorded:count:)`` sends `count` small-state actions to
/// a plain `Store` or to a `RecordingStore`, on the main thread. Each side runs twice, with
/// ``InstructionCount/fewer`` and ``InstructionCount/more`` actions: what the second run's
/// threads execute beyond the first's, divided by the actions between, is what an action costs
/// them, with what starting and ending the process costs taken out.
public enum InstructionCount {
  /// The actions of the shorter run, and of the longer.
  public static let fewer = 500
  public static let more = 2_500

  /// One side of a run under callgrind: sends `count` small-state actions to a plain store or
  /// a recording one, closes the recorder, and exits. Called from a synchronous `main` on the
  /// main thread: valgrind 3.19 crashes in a process whose main thread `dispatch_main` parks (an
  /// `async` main's), and the main thread is then callgrind's thread 1.
  @MainActor
  public static func sendAndExit(recorded: Bool, count: Int) -> Never {
    if !recorded {
      let store = Store(initialState: BenchFeature.State(rows: 0)) { BenchFeature.Feature() }
      for _ in 0..<count { store.send(.view(.incrementTapped)) }
      exit(0)
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tcatrace-bench-instructions-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let recorder = try TraceRecorder(
        path: folder.appendingPathComponent("run.db").path, policy: .recordOnly,
        timing: .measured)
      let store = RecordingStore(initialState: BenchFeature.State(rows: 0), recorder: recorder) {
        BenchFeature.Feature()
      }
      for _ in 0..<count { store.send(.view(.incrementTapped)) }
      Task { @MainActor in
        // NB: A writer that failed wrote less than it was given: no count is made of it.
        do {
          try await recorder.close()
          try? FileManager.default.removeItem(at: folder)
          exit(0)
        } catch {
          FileHandle.standardError.write(Data("tcatrace-bench: \(error)\n".utf8))
          try? FileManager.default.removeItem(at: folder)
          exit(1)
        }
      }
      RunLoop.main.run()
    } catch {
      FileHandle.standardError.write(Data("tcatrace-bench: \(error)\n".utf8))
    }
    try? FileManager.default.removeItem(at: folder)
    exit(1)
  }

  /// The instructions an action costs the store's thread, plain and recorded, and the writer's
  /// thread, from runs of `executable` under valgrind; `nil` (with a note on standard error)
  /// when valgrind is not installed.
  public static func measure(executable: String) throws -> ScenarioResult? {
    guard let valgrind = Self.onPath("valgrind") else {
      FileHandle.standardError.write(
        Data("note: valgrind is not installed; instruction counts skipped\n".utf8))
      return nil
    }
    let scratch = try Scratch()
    // NB: valgrind 3.19 gives up on the debug information Swift 6.3 writes ("Possibly corrupted
    // debuginfo file"): it runs a copy without it, when binutils' objcopy is there to make one.
    var program = executable
    if let objcopy = Self.onPath("objcopy") {
      let stripped = scratch.path("tcatrace-bench")
      try Scenarios.run(objcopy, ["--strip-debug", executable, stripped])
      program = stripped
    } else {
      FileHandle.standardError.write(
        Data(
          "note: objcopy is not installed; valgrind runs the bench with its debug information\n"
            .utf8))
    }
    func threads(recorded: Bool, count: Int) throws -> [Int: Double] {
      let folder = scratch.path("\(recorded)-\(count)")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try Scenarios.run(
        valgrind,
        [
          "--tool=callgrind", "--separate-threads=yes",
          "--callgrind-out-file=\(folder)/callgrind.out.%p", program, "--instruction-run",
          recorded ? "recorded" : "plain", "\(count)",
        ], errors: folder + ".stderr")
      return try Self.instructionsByThread(in: folder)
    }
    let actions = Double(Self.more - Self.fewer)
    var perAction: [Bool: (store: Double, others: Double)] = [:]
    for recorded in [false, true] {
      let fewer = try threads(recorded: recorded, count: Self.fewer)
      let more = try threads(recorded: recorded, count: Self.more)
      let store = ((more[1] ?? 0) - (fewer[1] ?? 0)) / actions
      // NB: The writer is the thread, other than the main one, that executes the most in each
      // run: threads are numbered as they start, which need not be in the same order twice.
      func busiest(_ run: [Int: Double]) -> Double {
        run.filter { $0.key != 1 }.values.max() ?? 0
      }
      let others = (busiest(more) - busiest(fewer)) / actions
      perAction[recorded] = (store, others)
    }
    let plain = perAction[false]!
    let recorded = perAction[true]!
    func figure(_ name: String, _ value: Double) -> Figure {
      Figure(name: name, unit: "instructions/action", samples: [value])
    }
    return ScenarioResult(
      name: "instructions (callgrind)",
      figures: [
        figure("small state, Store.send: the store's thread", plain.store),
        figure("small state, recording: the store's thread", recorded.store),
        figure("small state, recording: the writer's thread", recorded.others),
      ],
      ratios: [
        Ratio(
          name: "small state, the store's thread: recording / Store.send",
          value: recorded.store / plain.store, target: .atMost(2)),
        Ratio(
          name: "small state: the writer's thread / the store's thread, recording",
          value: recorded.others / recorded.store),
      ]
    )
  }

  /// Each thread's instructions in the callgrind files of one run in `folder`, by callgrind's
  /// thread number (1: the main thread).
  package static func instructionsByThread(in folder: String) throws -> [Int: Double] {
    var counts: [Int: Double] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder)
    where name.hasPrefix("callgrind.out.") {
      let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
      var thread: Int?
      var summary: Double?
      for line in text.split(separator: "\n") {
        if line.hasPrefix("thread: ") { thread = Int(line.dropFirst("thread: ".count)) }
        if line.hasPrefix("summary: ") {
          summary = Double(line.dropFirst("summary: ".count).split(separator: " ").first ?? "")
        }
      }
      if let thread, let summary { counts[thread, default: 0] += summary }
    }
    guard counts[1] != nil else {
      throw BenchError("callgrind wrote no count of the main thread into \(folder)")
    }
    return counts
  }

  /// The executable `name` on `PATH`.
  static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":")
      .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name).path }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}
