// What recording costs an app on pointfreeco's TCA: a small-state action sent to a plain TCA
// `Store` and to a `RecordingStore` on TCA, in pairs, as `tcatrace-bench --only send` measures
// them on `Composable`: the same state, action and reducer, from the same file
// (BenchFeatures.swift is a link to tcatrace-bench's, as is Measurement.swift, whose
// `PairedRatios` takes the median and its interval). Build it in release:
//
//   REAL_TCA=DIR Tests/RealTCA/bench.sh
//
// Prints each side's median and the median of the paired ratios with its 95% interval, for the
// action and for a child's action (through a `Scope`). With `rows` first
// (`bench.sh rows [PAIRS [SENDS]]`), for an action that changes one row, at 10, 1,000 and
// 100,000 rows, of plain structs and of `@ObservableState` ones, and how each side grows. With
// `journal` or `limit` first, issue #73's costs on TCA: a recording with the flight journal
// against one without, or within a size limit of 1 MB against none. With `instructions`, issue
// #75's: what an action costs in instructions, under valgrind's callgrind.

import Foundation
@_spi(Benchmarks) import TCATrace

/// Nanoseconds of the monotonic clock.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Sends `change` to a plain TCA store and to a recording one, in `pairs` pairs of `sends`
/// actions, and prints each side's median and the median of the paired ratios.
@MainActor
@discardableResult
func measure<R: Reducer>(
  _ label: String, pairs: Int, sends: Int, action change: R.Action,
  initialState: () -> R.State, reducer: () -> R
) async throws -> (plain: Double, recording: Double) where R.Action: Sendable {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "tcatrace-tca-bench-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let plainStore = Store(initialState: initialState()) { reducer() }
  var plain: [Double] = []
  var recording: [Double] = []
  for index in 0..<pairs {
    let recorder = try TraceRecorder(
      path: folder.appendingPathComponent("\(index).db").path, policy: .recordOnly)
    let store = RecordingStore(initialState: initialState(), recorder: recorder) { reducer() }
    func sendPlain() {
      let start = now()
      for _ in 0..<sends { plainStore.send(change) }
      plain.append(Double(now() - start) / Double(sends))
    }
    func sendRecorded() {
      let start = now()
      for _ in 0..<sends { store.send(change) }
      recording.append(Double(now() - start) / Double(sends))
    }
    // NB: Which goes first alternates, as in tcatrace-bench.
    if index.isMultiple(of: 2) {
      sendPlain()
      sendRecorded()
    } else {
      sendRecorded()
      sendPlain()
    }
    try await recorder.close()
  }
  func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
  let ratios = PairedRatios(recording, plain)
  print("## send overhead on TCA, \(label) (\(pairs) pairs of \(sends) actions)")
  print("  Store.send            \(Int(median(plain))) ns/action")
  print("  RecordingStore.send   \(Int(median(recording))) ns/action")
  print(
    "  ratio recording / Store.send, paired, median  \(String(format: "%.3f", ratios.median))  (95% interval \(String(format: "%.3f", ratios.lower))–\(String(format: "%.3f", ratios.upper)))"
  )
  return (median(plain), median(recording))
}

/// One row changed, at each size, in a state of plain structs (``BenchFeature``) and in one of
/// `@ObservableState` rows (``ObservedRowsFeature``); each size runs fewer actions as it grows.
@MainActor
func measureRows(pairs: Int, sends: Int) async throws {
  for (label, observed) in [("plain structs", false), ("@ObservableState", true)] {
    var bySize: [(rows: Int, plain: Double, recording: Double)] = []
    for rows in [10, 1_000, 100_000] {
      let count = max(10, sends / max(1, rows / 100))
      let pairCount = rows >= 100_000 ? min(pairs, 11) : pairs
      let (plain, recording) =
        observed
        ? try await measure(
          "one row changed, \(rows) rows of \(label)", pairs: pairCount, sends: count,
          action: ObservedRowsFeature.Action.view(.rowTapped(id: 3)),
          initialState: { ObservedRowsFeature.State(rows: rows) },
          reducer: { ObservedRowsFeature.Feature() }
        )
        : try await measure(
          "one row changed, \(rows) rows of \(label)", pairs: pairCount, sends: count,
          action: BenchFeature.Action.view(.rowTapped(id: 3)),
          initialState: { BenchFeature.State(rows: rows) }, reducer: { BenchFeature.Feature() }
        )
      bySize.append((rows, plain, recording))
    }
    if let small = bySize.first, let large = bySize.last {
      print("## one row changed, \(label): \(large.rows) rows / \(small.rows) rows")
      print("  Store.send            \(String(format: "%.1f", large.plain / small.plain))")
      print("  RecordingStore.send   \(String(format: "%.1f", large.recording / small.recording))")
    }
  }
}

/// Issue #73 on TCA, as `tcatrace-bench --only journal` and `--only limit` measure it on
/// `Composable`: recordings of `sends` actions, one scalar changed each at 10 rows, made by
/// `recorder` with what is measured (`true`) and without it, taking turns; the store's thread's
/// CPU time in the send loop, paired.
@MainActor
func measureRecorders(
  _ what: String, pairs: Int, sends: Int, recorder: (Bool, String) throws -> TraceRecorder
) async throws {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "tcatrace-tca-bench-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  var runs: [Bool: [Double]] = [true: [], false: []]
  for index in 0..<pairs {
    // NB: Which goes first alternates, as in tcatrace-bench.
    for measured in index.isMultiple(of: 2) ? [true, false] : [false, true] {
      let path = folder.appendingPathComponent("\(measured)-\(index).db").path
      let recording = try recorder(measured, path)
      let store = RecordingStore(initialState: BenchFeature.State(rows: 10), recorder: recording) {
        BenchFeature.Feature()
      }
      let start = threadCPUNanoseconds()
      for _ in 0..<sends { store.send(.view(.incrementTapped)) }
      runs[measured]!.append(Double(threadCPUNanoseconds() - start) / Double(sends))
      try await recording.close()
      try? FileManager.default.removeItem(atPath: path)
    }
  }
  func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
  let ratios = PairedRatios(runs[true]!, runs[false]!)
  print("## \(what) on TCA (\(pairs) pairs of \(sends) actions at 10 rows)")
  print("  with it: store's CPU time      \(Int(median(runs[true]!))) ns/action")
  print("  without it: store's CPU time   \(Int(median(runs[false]!))) ns/action")
  print(
    "  ratio with / without, paired, median  \(String(format: "%.3f", ratios.median))  (95% interval \(String(format: "%.3f", ratios.lower))–\(String(format: "%.3f", ratios.upper)))"
  )
}

/// Issue #75 on TCA, as `tcatrace-bench --only instructions` counts it on `Composable`: what an
/// action of each pattern costs the store's thread, plain and recorded, and the writer's, in
/// instructions under callgrind (InstructionRuns.swift is a link to tcatrace-bench's).
func countInstructions(_ patterns: [InstructionCount.Pattern]) throws {
  let executable =
    Bundle.main.executableURL?.resolvingSymlinksInPath().path ?? CommandLine.arguments[0]
  guard let counts = try InstructionCount.measure(executable: executable, patterns: patterns)
  else { return }
  print("## instructions on TCA (callgrind), per action")
  for counted in counts {
    let ratio = counted.recorded / counted.plain
    let target = counted.pattern.target.tca
    print("  \(counted.pattern.title)")
    print("    Store.send: the store's thread       \(Int(counted.plain))")
    print("    recording: the store's thread        \(Int(counted.recorded))")
    print("    recording: the writer's thread       \(Int(counted.writer))")
    print(
      "    ratio recording / Store.send  \(String(format: "%.3f", ratio))  target ≤ \(target): \(ratio <= target ? "met" : "MISSED")"
    )
  }
}

var arguments = CommandLine.arguments.dropFirst()
// NB: One side of a count under callgrind, from `instructions`: synchronous, on the main thread.
if arguments.first == "--instruction-run", arguments.count == 4,
  let pattern = InstructionCount.Pattern(rawValue: arguments.dropFirst().first!),
  let frames = Int(arguments.last!)
{
  let recorded = arguments.dropFirst(2).first == "recorded"
  MainActor.assumeIsolated {
    InstructionCount.sendAndExit(pattern, recorded: recorded, frames: frames)
  }
}
// NB: `instructions [PATTERN…]` counts instructions instead, of every pattern or those named.
if arguments.first == "instructions" {
  do {
    let named = try arguments.dropFirst().map { name in
      guard let pattern = InstructionCount.Pattern(rawValue: name) else {
        throw BenchError(
          "no pattern '\(name)': \(InstructionCount.Pattern.allCases.map(\.rawValue))")
      }
      return pattern
    }
    try countInstructions(named.isEmpty ? InstructionCount.Pattern.allCases : named)
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("RealTCABench: \(error)\n".utf8))
    exit(1)
  }
}
// NB: `live-instructions HOST:PORT:SECRET` counts what streaming to a `tcatrace serve --live`
// server costs the store's thread instead (issue #74), as `tcatrace-bench --only live` does on
// `Composable`; bench.sh's `live` starts the server.
if arguments.first == "live-instructions", arguments.count == 2 {
  do {
    let executable =
      Bundle.main.executableURL?.resolvingSymlinksInPath().path ?? CommandLine.arguments[0]
    if let counted = try InstructionCount.measureStreaming(
      executable: executable, debugger: String(arguments.last!))
    {
      let ratio = counted.streaming / counted.alone
      print("## streaming live on TCA (callgrind): a tap, the store's thread, per action")
      print("    recording                             \(Int(counted.alone))")
      print("    recording and streaming live          \(Int(counted.streaming))")
      print(
        "    ratio streaming / not  \(String(format: "%.3f", ratio))  target ≤ 1.1: \(ratio <= 1.1 ? "met" : "MISSED")"
      )
    }
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("RealTCABench: \(error)\n".utf8))
    exit(1)
  }
}
// NB: `journal` and `limit` measure issue #73's costs instead.
let issue73 = ["journal", "limit"].contains(arguments.first ?? "") ? arguments.first : nil
if issue73 != nil { arguments = arguments.dropFirst() }
// NB: `rows` measures a row's change at 10, 1,000 and 100,000 rows instead.
let measuresRows = arguments.first == "rows"
if measuresRows { arguments = arguments.dropFirst() }
let pairs = arguments.first.flatMap(Int.init) ?? 41
let sends = arguments.dropFirst().first.flatMap(Int.init) ?? 2_000
// NB: On Linux an async top-level `main` runs main-actor jobs off the main thread, where TCA's
// main-thread checks trap: the main actor is served from the main thread's run loop instead.
Task { @MainActor in
  do {
    if measuresRows {
      try await measureRows(pairs: pairs, sends: sends)
      exit(0)
    }
    if let issue73 {
      // NB: As many actions as `tcatrace-bench --only journal` and `--only limit` send.
      let count = arguments.dropFirst().first.flatMap(Int.init) ?? 20_000
      let limit = issue73 == "limit"
      try await measureRecorders(
        limit ? "a size limit of 1 MB" : "the flight journal",
        pairs: arguments.first.flatMap(Int.init) ?? 21, sends: count
      ) { measured, path in
        limit
          ? try TraceRecorder(
            path: path, sizeLimit: measured ? 1_000_000 : nil, policy: .recordOnly,
            flightJournal: true)
          : try TraceRecorder(path: path, policy: .recordOnly, flightJournal: measured)
      }
      exit(0)
    }
    try await measure(
      "small state", pairs: pairs, sends: sends, action: BenchFeature.Action.view(.incrementTapped),
      initialState: { BenchFeature.State(rows: 0) }, reducer: { BenchFeature.Feature() }
    )
    // NB: Most of an app's actions are a child feature's, which go through a `Scope`.
    try await measure(
      "a child's action", pairs: pairs, sends: sends, action: BenchParentFeature.childIncrement,
      initialState: { BenchParentFeature.State() }, reducer: { BenchParentFeature.Feature() }
    )
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("RealTCABench: \(error)\n".utf8))
    exit(1)
  }
}
RunLoop.main.run()
