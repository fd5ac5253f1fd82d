import Foundation
@_spi(Benchmarks) import TCATrace

// NB: Shared by a link with Tests/RealTCA's RealTCABench, which compiles it against pointfreeco's
// TCA: what is counted on either host is sent by the same code.

/// Issue #75: instructions, as valgrind's callgrind counts them, the same on every machine and
/// under load, where a time moves with both.
///
/// `tcatrace-bench --instructions` (and `Tests/RealTCA/bench.sh instructions`) runs itself under
/// callgrind (`--separate-threads=yes`) once for each pattern, side and count:
/// ``sendAndExit(_:recorded:frames:)`` sends a pattern's frames to a plain `Store` or to a
/// `RecordingStore`, on the main thread. Each side runs twice, with fewer frames and with more:
/// what the second run's threads execute beyond the first's, divided by the actions between, is
/// what an action costs them, with what starting and ending the process costs taken out.
public enum InstructionCount {
  /// What the store is sent, in frames: each pattern runs with fewer frames, then more.
  public enum Pattern: String, CaseIterable, Sendable {
    /// Small-state actions back to back: a burst no app sends, which outruns any writer.
    case burst
    /// A tap: a `.view` action whose effect answers with two internal actions and a delegate,
    /// each tap written before the next, as a writer that keeps up with a tap every 16 ms writes
    /// it.
    case tap
    /// A timer's tick, from an effect, on a state of 1,000 rows, each written before the next.
    case timer
    /// Typing: a binding action a keystroke, each written before the next.
    case typing
    /// One row changed at 100,000 rows, back to back.
    case rows

    /// The frames of the shorter run, and of the longer.
    var frames: (fewer: Int, more: Int) {
      switch self {
      case .burst: (500, 2_500)
      case .tap, .timer, .typing: (100, 500)
      case .rows: (20, 120)
      }
    }

    /// The actions a frame sends.
    public var actionsPerFrame: Int { self == .tap ? 4 : 1 }

    /// What the figures call it.
    public var title: String {
      switch self {
      case .burst: "burst, small state"
      case .tap: "tap (4 actions)"
      case .timer: "timer, 1,000 rows"
      case .typing: "typing"
      case .rows: "one row changed, 100,000 rows"
      }
    }

    /// The issue's targets, recording / plain on the store's thread (#75): on `Composable`, and
    /// on pointfreeco's TCA.
    public var target: (composable: Double, tca: Double) {
      switch self {
      case .burst: (2, 1.5)
      case .tap, .timer, .typing: (1.5, 1.2)
      case .rows: (1.5, 1.3)
      }
    }
  }

  /// What an action of a pattern costs, in instructions.
  public struct Counted: Sendable {
    public var pattern: Pattern
    /// The store's thread, plain.
    public var plain: Double
    /// The store's thread, recording.
    public var recorded: Double
    /// The writer's thread, recording.
    public var writer: Double
  }

  /// One side of a run under callgrind: sends `frames` frames of `pattern` to a plain `Store` or
  /// to a `RecordingStore`, closes the recorder, and exits. Called from a synchronous `main` on
  /// the main thread: valgrind 3.19 crashes in a process whose main thread `dispatch_main` parks
  /// (an `async` main's), and the main thread is then callgrind's thread 1.
  @MainActor
  public static func sendAndExit(_ pattern: Pattern, recorded: Bool, frames: Int) -> Never {
    let progress = FrameProgress()
    switch pattern {
    case .burst:
      self.run(recorded: recorded, BenchFeature.State(rows: 0), BenchFeature.Feature()) { send, _ in
        for _ in 0..<frames { send(.view(.incrementTapped)) }
      }
    case .rows:
      let rows = 100_000
      self.run(recorded: recorded, BenchFeature.State(rows: rows), BenchFeature.Feature()) {
        send, _ in
        for frame in 0..<frames { send(.view(.rowTapped(id: frame * 7_919 % rows))) }
      }
    case .tap:
      let feature = PatternFeature.Feature(progress: progress)
      self.run(recorded: recorded, PatternFeature.State(rows: 0), feature) { send, written in
        for frame in 0..<frames {
          send(.view(.refreshTapped))
          progress.runUntil(frame + 1)
          written()
        }
      }
    case .timer:
      let (ticks, tick) = AsyncStream.makeStream(of: Void.self)
      let feature = PatternFeature.Feature(ticks: ticks, progress: progress)
      self.run(recorded: recorded, PatternFeature.State(rows: 1_000), feature) { send, written in
        send(.view(.timerStarted))
        for frame in 0..<frames {
          tick.yield()
          progress.runUntil(frame + 1)
          written()
        }
        tick.finish()
      }
    case .typing:
      let feature = PatternFeature.Feature(progress: progress)
      self.run(recorded: recorded, PatternFeature.State(rows: 0), feature) { send, written in
        var text = ""
        for _ in 0..<frames {
          text = text.count == 40 ? "" : text + "a"
          send(.view(.binding(.set(\.text, text))))
          written()
        }
      }
    }
  }

  /// Runs `frames` on a plain store or a recording one, with a function that sends to it and
  /// one that waits until what was recorded is written (nothing, for a plain store), and exits.
  @MainActor
  private static func run<R: Reducer>(
    recorded: Bool, _ initialState: R.State, _ reducer: R,
    frames: (_ send: (R.Action) -> Void, _ written: () -> Void) -> Void
  ) -> Never {
    if !recorded {
      let store = Store(initialState: initialState) { reducer }
      frames({ store.send($0) }, {})
      exit(0)
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tcatrace-bench-instructions-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let recorder = try TraceRecorder(
        path: folder.appendingPathComponent("run.db").path, policy: .recordOnly)
      let store = RecordingStore(initialState: initialState, recorder: recorder) { reducer }
      frames({ store.send($0) }, { recorder.waitUntilWritten() })
      Task { @MainActor in
        // NB: A writer that failed wrote less than it was given: no count is made of it.
        do {
          try await recorder.close()
          try? FileManager.default.removeItem(at: folder)
          exit(0)
        } catch {
          FileHandle.standardError.write(Data("\(CommandLine.arguments[0]): \(error)\n".utf8))
          try? FileManager.default.removeItem(at: folder)
          exit(1)
        }
      }
      RunLoop.main.run()
    } catch {
      FileHandle.standardError.write(Data("\(CommandLine.arguments[0]): \(error)\n".utf8))
    }
    try? FileManager.default.removeItem(at: folder)
    exit(1)
  }

  /// The instructions an action of each pattern costs the store's thread, plain and recorded,
  /// and the writer's thread, from runs of `executable` under valgrind; `nil` (with a note on
  /// standard error) when valgrind is not installed.
  public static func measure(
    executable: String, patterns: [Pattern] = Pattern.allCases
  ) throws -> [Counted]? {
    guard let runs = try Runs(executable: executable) else { return nil }
    return try patterns.map { pattern in
      let plain = try runs.perAction(pattern, recorded: false)
      let recorded = try runs.perAction(pattern, recorded: true)
      return Counted(
        pattern: pattern, plain: plain.store, recorded: recorded.store, writer: recorded.others)
    }
  }

  /// Issue #74: the instructions an action of the tap costs the store's thread recorded by a
  /// `RecordingStore`, alone and streaming to the `tcatrace serve --live` server `debugger`
  /// names (`HOST:PORT:SECRET`, as `TCATRACE_DEBUGGER` takes it), which the page may drive;
  /// `nil` when valgrind is not installed.
  public static func measureStreaming(
    executable: String, debugger: String
  ) throws -> (alone: Double, streaming: Double)? {
    guard let runs = try Runs(executable: executable) else { return nil }
    let alone = try runs.perAction(.tap, recorded: true, debugger: nil)
    let streaming = try runs.perAction(.tap, recorded: true, debugger: debugger)
    return (alone.store, streaming.store)
  }

  /// Runs of a copy of the bench under callgrind.
  private struct Runs {
    let valgrind: String
    let program: String
    let scratch: Scratch

    /// `nil` (with a note on standard error) when valgrind is not installed.
    init?(executable: String) throws {
      guard let valgrind = InstructionCount.onPath("valgrind") else {
        FileHandle.standardError.write(
          Data("note: valgrind is not installed; instruction counts skipped\n".utf8))
        return nil
      }
      self.valgrind = valgrind
      self.scratch = try Scratch()
      // NB: valgrind 3.19 gives up on the debug information Swift 6.3 writes ("Possibly
      // corrupted debuginfo file"): it runs a copy without it, when binutils' objcopy is there
      // to make one.
      if let objcopy = InstructionCount.onPath("objcopy") {
        let stripped = self.scratch.path("bench")
        try ChildProcess.run(objcopy, ["--strip-debug", executable, stripped])
        self.program = stripped
      } else {
        FileHandle.standardError.write(
          Data(
            "note: objcopy is not installed; valgrind runs the bench with its debug information\n"
              .utf8))
        self.program = executable
      }
    }

    /// What an action of `pattern` costs the store's thread and the busiest other thread: the
    /// difference between a run of fewer frames and one of more. A recording store streams to
    /// `debugger` when it is given, and to none otherwise, whatever this process's
    /// `TCATRACE_DEBUGGER`.
    func perAction(
      _ pattern: Pattern, recorded: Bool, debugger: String? = nil
    ) throws -> (store: Double, others: Double) {
      let (fewer, more) = pattern.frames
      let actions = Double((more - fewer) * pattern.actionsPerFrame)
      let short = try self.threads(pattern, recorded: recorded, frames: fewer, debugger: debugger)
      let long = try self.threads(pattern, recorded: recorded, frames: more, debugger: debugger)
      // NB: The writer is the thread, other than the main one, that executes the most in each
      // run: threads are numbered as they start, which need not be in the same order twice.
      func busiest(_ run: [Int: Double]) -> Double {
        run.filter { $0.key != 1 }.values.max() ?? 0
      }
      return (
        ((long[1] ?? 0) - (short[1] ?? 0)) / actions, (busiest(long) - busiest(short)) / actions
      )
    }

    private func threads(
      _ pattern: Pattern, recorded: Bool, frames: Int, debugger: String?
    ) throws -> [Int: Double] {
      let folder = self.scratch.path(
        "\(pattern)-\(recorded)-\(frames)\(debugger == nil ? "" : "-streaming")")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try ChildProcess.run(
        self.valgrind,
        [
          "--tool=callgrind", "--separate-threads=yes",
          "--callgrind-out-file=\(folder)/callgrind.out.%p", self.program, "--instruction-run",
          pattern.rawValue, recorded ? "recorded" : "plain", "\(frames)",
        ], errors: folder + ".stderr", temporaryDirectory: folder,
        environment: ["TCATRACE_DEBUGGER": debugger])
      return try InstructionCount.instructionsByThread(in: folder)
    }
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

/// How many frames a pattern's store has taken in; only touched on the main actor.
final class FrameProgress: @unchecked Sendable {
  var frames = 0

  /// Serves the main run loop, where effects send their actions, until `frames` frames are in;
  /// exits when they are not within a minute.
  @MainActor
  func runUntil(_ frames: Int) {
    let deadline = Date(timeIntervalSinceNow: 60)
    while self.frames < frames {
      guard Date() < deadline else {
        FileHandle.standardError.write(
          Data("\(CommandLine.arguments[0]): frame \(frames) did not arrive within a minute\n".utf8)
        )
        exit(1)
      }
      _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.1))
    }
  }
}

/// A directory for the files a run writes, removed at the end.
final class Scratch {
  let url: URL

  init() throws {
    self.url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tcatrace-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: self.url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: self.url)
  }

  func path(_ name: String) -> String {
    self.url.appendingPathComponent(name).path
  }
}

package struct BenchError: Error, CustomStringConvertible {
  package var description: String
  init(_ description: String) { self.description = description }
}

/// Another program, run to its end.
enum ChildProcess {
  /// Runs `executable` with `arguments`, its output into /dev/null (its errors into the file
  /// `errors`, when given, whose last lines a failure then quotes), and checks its status. One
  /// still running after `deadline` seconds is terminated (killed, when it is still running 5
  /// seconds later), and that is an error. `temporaryDirectory`, when given, is the child's
  /// `TMPDIR`: what it leaves there when it is stopped goes with the folder.
  static func run(
    _ executable: String, _ arguments: [String], expecting status: Int32 = 0,
    errors: String? = nil, deadline: Double = 600, temporaryDirectory: String? = nil,
    environment changes: [String: String?] = [:]
  ) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    if let errors {
      _ = FileManager.default.createFile(atPath: errors, contents: nil)
      process.standardError = FileHandle(forWritingAtPath: errors)
    } else {
      process.standardError = FileHandle.nullDevice
    }
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    if let temporaryDirectory { environment["TMPDIR"] = temporaryDirectory }
    for (name, value) in changes { environment[name] = value }
    process.environment = environment
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    if exited.wait(timeout: .now() + deadline) == .timedOut {
      process.terminate()
      if exited.wait(timeout: .now() + 5) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
      }
      process.waitUntilExit()
      throw BenchError(
        "\(executable) \(arguments.joined(separator: " ")) ran past \(Int(deadline)) s and was stopped"
      )
    }
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == status else {
      let how =
        process.terminationReason == .exit
        ? "exited with \(process.terminationStatus)"
        : "was ended by signal \(process.terminationStatus)"
      let said = errors.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }.map {
        ": " + $0.split(separator: "\n").suffix(5).joined(separator: " / ")
      }
      throw BenchError(
        "\(executable) \(arguments.joined(separator: " ")) \(how)\(said ?? "")")
    }
  }
}
