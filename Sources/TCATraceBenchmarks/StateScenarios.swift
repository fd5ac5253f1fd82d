import Foundation
import TCATrace

extension Scenarios {
  /// Scenario 6, issue #18: what keeping whole states costs and buys. Recording one scalar
  /// change per action with keyframes and without, at each state size (the send loop, by the
  /// median and the least of its repetitions, and the whole recording until the file is
  /// closed), for a state that is not `Encodable` and one
  /// that is (whose JSON the writer follows too); the file's bytes per action either way; and
  /// `tcatrace state` early and late in a long session, against `sqlite3` reading one keyframe.
  @MainActor
  public static func keyframes(_ size: BenchmarkSize, tools: BenchTools) async throws
    -> ScenarioResult
  {
    let scratch = try Scratch()
    var figures: [Figure] = []
    var ratios: [Ratio] = []
    var sendBySize: [Int: Figure] = [:]
    for rows in size.stateSizes {
      let (count, pairs) = size.keyframeRecordings(rows: rows)
      let (withSend, measured) = try await Self.recordingCost(
        label: "\(rows) rows, one scalar changed", name: "\(rows) rows",
        path: { scratch.path("keyframes-\(rows)-\($0)-\($1).db") },
        count: count, repetitions: pairs, fileCount: size.sends,
        makeSendLoop: Self.scalarSendLoop(rows: rows)
      )
      figures += measured.figures
      ratios += measured.ratios
      sendBySize[rows] = withSend
      // A `Codable` state: the writer also follows its JSON from each action to the next.
      let (_, codable) = try await Self.recordingCost(
        label: "Codable state of \(rows) rows, one scalar changed", name: "Codable, \(rows) rows",
        path: { scratch.path("keyframes-codable-\(rows)-\($0)-\($1).db") },
        count: count, repetitions: pairs, fileCount: size.sends
      ) { recorder, count in
        let store = RecordingStore(
          initialState: CodableBenchFeature.State(rows: rows), recorder: recorder
        ) {
          CodableBenchFeature.Feature()
        }
        return { for _ in 0..<count { store.send(.incrementTapped) } }
      }
      figures += codable.figures
      ratios += codable.ratios
    }
    if let smallest = size.stateSizes.first, let largest = size.stateSizes.last,
      let small = sendBySize[smallest], let large = sendBySize[largest]
    {
      // NB: By the least of each: the sizes' recordings differ in length (see
      // `BenchmarkSize.keyframeSendsOfLargeStates`): with keyframes, the median of the 2,000-action
      // recordings at 10 rows was 2.0–2.5× their least, of the 20,000-action ones at 100,000
      // rows 1.1–1.7× (five runs).
      ratios.append(
        Ratio(
          name: "recording with keyframes: \(largest) rows / \(smallest) rows, the least of each",
          value: large.min / small.min,
          target: .atMost(2)
        )
      )
    }

    // The store and the writer on one core, as on a device whose other cores are busy.
    if let affinity = CoreAffinity(),
      let rows = size.stateSizes.dropFirst().first ?? size.stateSizes.first
    {
      let shared = try await Self.sharingOneCore(
        rows: rows, count: size.sends, repetitions: size.keyframeRepetitions, affinity: affinity,
        path: { scratch.path("one-core-\($0)-\($1).db") }
      )
      figures += shared.figures
      ratios += shared.ratios
    }

    // A long session over a large state, written as the recorder writes it, then read early
    // and late.
    let path = scratch.path("long.db")
    try await Self.writeLongSession(path: path, actions: size.stateActions, rows: size.stateRows)
    if let tcatrace = tools.tcatrace {
      var launches: [(name: String, executable: String, arguments: [String])] = [
        ("tcatrace state --at 10", tcatrace, ["state", path, "--at", "10"]),
        (
          "tcatrace state --at \(size.stateActions - 1)", tcatrace,
          ["state", path, "--at", "\(size.stateActions - 1)"]
        ),
      ]
      if let shell = tools.sqlite3 {
        launches.append(
          (
            "sqlite3 SELECT one keyframe", shell,
            [
              "-list", "-readonly", path,
              "SELECT tree FROM states WHERE session_id = 1 ORDER BY seq DESC LIMIT 1;",
            ]
          )
        )
      }
      var milliseconds = Array(repeating: [Double](), count: launches.count)
      for _ in 0..<size.launches {
        for (index, launch) in launches.enumerated() {
          let start = DispatchTime.now().uptimeNanoseconds
          try ChildProcess.run(launch.executable, launch.arguments)
          milliseconds[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
      }
      let timed = zip(launches, milliseconds).map { Figure(name: $0.name, unit: "ms", samples: $1) }
      figures += timed
      // NB: Judged by the median of the ratios within each turn, as recording is: on this host
      // a launch took one of two times about 1.3× apart (15 launches of each, by hand), and in
      // two runs of twelve every launch of the late state was slow (the least 18.7 and 17.0 ms,
      // 12.3–13.5 in the others): a turn's launches share the host's state of the moment.
      let lateEarly = PairedRatios(milliseconds[1], milliseconds[0])
      ratios += [
        Ratio(
          name: "state late / early in the session, paired, median", value: lateEarly.median,
          target: .atMost(2)),
        Ratio(
          name: "state late / early in the session, paired, 95% interval to", value: lateEarly.upper
        ),
        Ratio(
          name: "state late / early in the session, the least of each",
          value: timed[1].min / timed[0].min),
      ]
      if timed.count > 2 {
        let lateShell = PairedRatios(milliseconds[1], milliseconds[2])
        ratios += [
          Ratio(
            name: "state late / sqlite3 reading one keyframe, paired, median",
            value: lateShell.median, target: .atMost(3)),
          Ratio(
            name: "state late / sqlite3 reading one keyframe, paired, 95% interval to",
            value: lateShell.upper),
          Ratio(
            name: "state late / sqlite3 reading one keyframe, the least of each",
            value: timed[1].min / timed[2].min),
        ]
      }
    }
    return ScenarioResult(name: "keyframes", figures: figures, ratios: ratios)
  }

  /// Recording `count` actions with keyframes and without, `repetitions` times each, taking
  /// turns: the send loop `makeSendLoop` returns for a store it makes with a recorder and a
  /// count, and the whole recording until the file is closed; and the file's bytes per action
  /// either way, for a recording of `fileCount` actions.
  @MainActor
  private static func recordingCost(
    label: String, name: String, path: (Bool, Int) -> String, count: Int, repetitions: Int,
    fileCount: Int, makeSendLoop: (TraceRecorder, Int) -> () -> Void
  ) async throws -> (withSend: Figure, result: (figures: [Figure], ratios: [Ratio])) {
    // NB: With and without take turns, so that a busy host weighs on each alike, and go
    // first by turns. With keyframes always first, at 100,000 rows, the paired median read
    // 0.78–0.97 while the store's CPU time read 1.05–1.16 (five runs): the recordings
    // without spent a third of their send loop off their core.
    let timed = try await Self.takingTurns(pairs: repetitions) { keepsStates, repetition in
      try await Self.timedRecording(
        path: path(keepsStates, repetition), keepsStates: keepsStates, count: count,
        makeSendLoop: makeSendLoop)
    }
    let sends = timed.mapValues { $0.map(\.send) }
    let sendCPU = timed.mapValues { $0.map(\.sendCPU) }
    let totals = timed.mapValues { $0.map(\.untilClosed) }
    // NB: The file's size is measured on a recording of `fileCount` actions: a recording's
    // first keyframe, its initial state, weighs on a short one's bytes per action. The last
    // pair's files serve where they are that long; otherwise one more pair is recorded, untimed.
    var bytes: [Bool: Double] = [:]
    let reusesLastPair = count == fileCount && repetitions > 0
    for keepsStates in [true, false] {
      let file = path(keepsStates, reusesLastPair ? repetitions - 1 : repetitions)
      if !reusesLastPair {
        _ = try await Self.timedRecording(
          path: file, keepsStates: keepsStates, count: fileCount, makeSendLoop: makeSendLoop)
      }
      let fileSize = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
      bytes[keepsStates] = Double(fileSize) / Double(fileCount)
    }
    let withSend = Figure(
      name: "\(label): recording with keyframes", unit: "ns/action", samples: sends[true]!)
    let withoutSend = Figure(
      name: "\(label): recording without", unit: "ns/action", samples: sends[false]!)
    let withCPU = Figure(
      name: "\(label): recording with keyframes, store's CPU time", unit: "ns/action",
      samples: sendCPU[true]!)
    let withoutCPU = Figure(
      name: "\(label): recording without, store's CPU time", unit: "ns/action",
      samples: sendCPU[false]!)
    let withTotal = Figure(
      name: "\(label): with keyframes, until closed", unit: "ns/action", samples: totals[true]!)
    let withoutTotal = Figure(
      name: "\(label): without, until closed", unit: "ns/action", samples: totals[false]!)
    let figures = [
      withSend, withoutSend, withCPU, withoutCPU, withTotal, withoutTotal,
      Figure(
        name: "\(label): file, with keyframes", unit: "bytes/action", samples: [bytes[true] ?? 0]),
      Figure(name: "\(label): file, without", unit: "bytes/action", samples: [bytes[false] ?? 0]),
    ]
    let paired = PairedRatios(sends[true]!, sends[false]!)
    let pairedCPU = PairedRatios(sendCPU[true]!, sendCPU[false]!)
    let ratios = [
      Ratio(
        name: "\(name): recording with / without keyframes",
        value: withSend.median / withoutSend.median),
      Ratio(
        name: "\(name): recording with / without keyframes, the least of each",
        value: withSend.min / withoutSend.min),
      // NB: The target is on the median of the pairs' ratios, which neither a slow stretch of
      // the host (it slows both sides of a pair) nor a few slow pairs move. Its interval says
      // how sure one run is: 41 pairs of 20,000 actions put its upper end 0.02 to 0.33 above
      // the median (five runs); 201 pairs of 2,000, 0.00 to 0.03 at 10 and 1,000 rows (five).
      Ratio(
        name: "\(name): recording with / without keyframes, paired, median", value: paired.median,
        target: .atMost(1.1)),
      Ratio(
        name: "\(name): recording with / without keyframes, paired, 95% interval from",
        value: paired.lower),
      Ratio(
        name: "\(name): recording with / without keyframes, paired, 95% interval to",
        value: paired.upper),
      // NB: The store thread's CPU time leaves out the time it spent off its core, which the
      // host decides.
      Ratio(
        name: "\(name): store's CPU time with / without keyframes, paired, median",
        value: pairedCPU.median),
      Ratio(
        name: "\(name): store's CPU time with / without keyframes, paired, 95% interval to",
        value: pairedCPU.upper),
      Ratio(
        name: "\(name): until closed, with / without keyframes",
        value: withTotal.median / withoutTotal.median),
    ]
    return (withSend, (figures, ratios))
  }

  /// A send loop of `count` actions, each changing one scalar, to a store of a `rows`-row state
  /// that `recorder` records.
  @MainActor
  static func scalarSendLoop(rows: Int) -> (TraceRecorder, Int) -> () -> Void {
    { recorder, count in
      let store = RecordingStore(initialState: BenchFeature.State(rows: rows), recorder: recorder) {
        BenchFeature.Feature()
      }
      return { for _ in 0..<count { store.send(.view(.incrementTapped)) } }
    }
  }

  /// One recording of `count` actions to `path`, within `sizeLimit` bytes when given, its
  /// writer's batches waiting up to `writerDelay` seconds to fill: the send
  /// loop `makeSendLoop` returns for a store it makes with the recorder and `count`, in wall
  /// time and in the store thread's CPU time, and the whole recording until the file is
  /// closed, each in nanoseconds an action.
  @MainActor
  static func timedRecording(
    path: String, keepsStates: Bool, sizeLimit: Int? = nil,
    writerDelay: Double = TraceWriter.maxDelay, flightJournal: Bool = true, count: Int,
    makeSendLoop: (TraceRecorder, Int) -> () -> Void
  ) async throws -> (send: Double, sendCPU: Double, untilClosed: Double) {
    let recorder = try TraceRecorder(
      path: path, sizeLimit: sizeLimit, policy: .recordOnly, timing: .measured,
      keepsStates: keepsStates, writerDelay: writerDelay, flightJournal: flightJournal)
    let sendLoop = makeSendLoop(recorder, count)
    let start = DispatchTime.now().uptimeNanoseconds
    let startCPU = threadCPUNanoseconds()
    sendLoop()
    let sentCPU = threadCPUNanoseconds()
    let sent = DispatchTime.now().uptimeNanoseconds
    try await recorder.close()
    let closed = DispatchTime.now().uptimeNanoseconds
    return (
      Double(sent - start) / Double(count), Double(sentCPU - startCPU) / Double(count),
      Double(closed - start) / Double(count)
    )
  }

  /// The send loop with keyframes, its store and the recorder's writer on one core, against the
  /// same on every core the process may use, taking turns: what the writer, busy behind a
  /// store that sends fast, takes from the store when they share a core.
  @MainActor
  private static func sharingOneCore(
    rows: Int, count: Int, repetitions: Int, affinity: CoreAffinity, path: (Bool, Int) -> String
  ) async throws -> (figures: [Figure], ratios: [Ratio]) {
    let sends = try await Self.takingTurns(pairs: repetitions) { oneCore, repetition in
      // NB: The writer's thread starts with the recorder, on the cores its creator may use.
      let file = path(oneCore, repetition)
      let send = {
        try await Self.timedRecording(
          path: file, keepsStates: true, count: count,
          makeSendLoop: Self.scalarSendLoop(rows: rows)
        )
      }
      return oneCore ? try await affinity.onOneCore(send).send : try await send().send
    }
    let shared = Figure(
      name: "\(rows) rows, store and writer on one core: recording", unit: "ns/action",
      samples: sends[true]!)
    let own = Figure(
      name: "\(rows) rows, on every core: recording", unit: "ns/action", samples: sends[false]!)
    let ratio = Ratio(
      name:
        "\(rows) rows: recording on a core shared with the writer / on every core, the least of each",
      value: shared.min / own.min)
    return ([shared, own], [ratio])
  }

  /// A session of `actions` actions, each changing one scalar of a state of `rows` rows, with
  /// the keyframes the recorder keeps, written by the recorder's writer.
  ///
  /// NB: At an app's pace: after an action that keeps a state, the next waits until the
  /// writer has built it, as it would have in an app whose actions come slower than the writer
  /// writes them. Made as fast as a loop makes them, the records ran 131,072 actions ahead of
  /// the writer, and no keyframe is asked for while one is being built: keyframes fell that
  /// far apart, whatever the state's size.
  static func writeLongSession(path: String, actions: Int, rows: Int) async throws {
    let writer = try TraceWriter(path: path)
    writer.submit(
      session: SessionRecord(name: "long", rootFeature: "Bench", startedAt: "", recorderVersion: "")
    )
    let clock = KeyframeClock()
    var state = BenchFeature.State(rows: rows)
    for seq in 1...actions {
      let before = state
      state.counter += 1
      var record = Self.record(seq - 1)
      record.changes = [
        StateChange(
          path: "counter", kind: .changed, old: String(before.counter), new: String(state.counter))
      ]
      record.leaks = []
      let after = state
      let snapshots = clock.snapshots(
        seq: seq, changes: 1, before: { before }, after: { after }, redact: { _, _ in })
      record.keep(snapshots)
      while !writer.submit(record) { await Task.yield() }
      if !snapshots.isEmpty {
        while clock.isBuilding { try await Task.sleep(for: .milliseconds(1)) }
      }
    }
    await writer.close(endedAt: "")
  }
}
