import Foundation
import TCATrace

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension Scenarios {
  /// Issue #74: what streaming to `tcatrace serve --live` costs the app, and how soon a jump
  /// from the page is done. A tap every 16 ms (`appPatterns`' tap) to a `RecordingStore`, with
  /// and without a live connection, taking turns, three runs each: the main thread's CPU time an
  /// action (the store's thread; the stream runs in a task of its own), as a ratio. Then, with
  /// the app connected, `POST …/live/jump` as the page sends it, answered once the app's store
  /// has taken the state, on this machine's loopback; beside a `GET /api/files`, the server's
  /// cheapest answer, taking turns. With `executable` (this bench) and valgrind installed, the
  /// tap's instructions on the store's thread too, streaming and not (see
  /// ``InstructionCount/measureStreaming(executable:debugger:)``): the figure a busy machine
  /// does not move, where the CPU time moves by a fifth between runs.
  @MainActor
  public static func live(
    _ size: BenchmarkSize, tools: BenchTools, instructionsOf executable: String? = nil
  ) async throws -> ScenarioResult {
    guard let tcatrace = tools.tcatrace else {
      return ScenarioResult(name: "tcatrace serve --live", figures: [], ratios: [])
    }
    let scratch = try Scratch()
    let server = try LiveServerProcess(tcatrace: tcatrace, directory: scratch.path("live"))
    defer { server.stop() }

    var cpu: [Bool: [Double]] = [false: [], true: []]
    for run in 0..<3 {
      for live in [false, true] {
        let (nanoseconds, sent, _) = try await Self.sendAtRate(
          .tap, every: 16, frames: size.patternFrames,
          recordingTo: scratch.path("tap-\(run)-\(live).db"),
          debugger: live ? server.debugger : nil)
        if let nanoseconds { cpu[live, default: []].append(Double(nanoseconds) / Double(sent)) }
      }
    }
    var figures: [Figure] = []
    var ratios: [Ratio] = []
    var counted: (alone: Double, streaming: Double)?
    if let executable {
      do {
        counted = try InstructionCount.measureStreaming(
          executable: executable, debugger: server.debuggerValue)
      } catch {
        // NB: The other figures are still given.
        FileHandle.standardError.write(
          Data("note: the live scenario's instruction counts failed: \(error)\n".utf8))
      }
    }
    if let counted {
      figures += [
        Figure(
          name: "a tap, recording: the store's thread's instructions",
          unit: "instructions/action", samples: [counted.alone]),
        Figure(
          name: "a tap, recording and streaming live: the store's thread's instructions",
          unit: "instructions/action", samples: [counted.streaming]),
      ]
      ratios.append(
        Ratio(
          name: "a tap, the store's thread's instructions: streaming live / not",
          value: counted.streaming / counted.alone, target: .atMost(1.1)))
    }
    if let plain = cpu[false], let live = cpu[true], !plain.isEmpty, !live.isEmpty {
      figures += [
        Figure(
          name: "a tap every 16 ms, recording: the main thread's CPU time", unit: "ns/action",
          samples: plain),
        Figure(
          name: "a tap every 16 ms, recording and streaming live: the main thread's CPU time",
          unit: "ns/action", samples: live),
      ]
      ratios.append(
        Ratio(
          name:
            "a tap every 16 ms, the main thread's CPU time: streaming live / not, median of 3 runs",
          value: median(live) / median(plain),
          // NB: The instructions carry the target when they are counted: the time moves by a
          // fifth between runs on a busy machine.
          target: counted == nil ? .atMost(1.1) : nil))
    }

    // A jump, as the page asks for it, with the app connected.
    let recorder = try TraceRecorder(path: scratch.path("jumps.db"), policy: .recordOnly)
    let progress = FrameProgress()
    let (ticks, tick) = AsyncStream.makeStream(of: Void.self)
    defer { tick.finish() }
    let store = RecordingStore(
      initialState: PatternFeature.State(rows: 0), recorder: recorder, debugger: server.debugger
    ) {
      PatternFeature.Feature(ticks: ticks, progress: progress)
    }
    for _ in 0..<10 { store.send(.view(.refreshTapped)) }
    await store.finish()
    let actions = 10 * InstructionCount.Pattern.tap.actionsPerFrame
    let file = try await server.connectedFile(holding: actions)
    var jumps: [Double] = []
    var files: [Double] = []
    for index in 0..<max(size.launches, 5) {
      let seq = index % 2 == 0 ? 4 : actions
      jumps.append(
        try await Self.elapsedMilliseconds {
          let answer = try await server.post("files/\(file)/live/jump?seq=\(seq)")
          guard answer.hasPrefix("took the state after #\(seq)") else {
            throw BenchError("the jump was answered: \(answer)")
          }
        })
      files.append(try await Self.elapsedMilliseconds { _ = try await server.get("files") })
    }
    try await recorder.close()
    figures += [
      Figure(name: "a jump, from the request to the answer", unit: "ms", samples: jumps),
      Figure(name: "GET /api/files, from the request to the answer", unit: "ms", samples: files),
    ]
    ratios += [
      Ratio(
        name: "a jump answered, median / 100 ms", value: median(jumps) / 100, target: .atMost(1)),
      Ratio(name: "a jump answered, slowest / 100 ms", value: jumps.max()! / 100),
      Ratio(name: "a jump / GET /api/files, median", value: median(jumps) / median(files)),
    ]
    return ScenarioResult(name: "tcatrace serve --live", figures: figures, ratios: ratios)
  }

  @MainActor
  private static func elapsedMilliseconds(_ body: () async throws -> Void) async rethrows -> Double
  {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }
}

/// `tcatrace serve --live DIR`, a process of its own, for the benchmark's app to connect to.
@MainActor
private final class LiveServerProcess {
  let process = Process()
  let base: String
  let token: String
  let debugger: TraceDebugger
  /// `debugger` as `TCATRACE_DEBUGGER` takes it: `HOST:PORT:SECRET`.
  let debuggerValue: String
  let session = URLSession(configuration: .ephemeral)

  init(tcatrace: String, directory: String) throws {
    self.process.executableURL = URL(fileURLWithPath: tcatrace)
    self.process.arguments = ["serve", "--live", directory]
    let output = Pipe()
    self.process.standardInput = FileHandle.nullDevice
    self.process.standardOutput = output
    self.process.standardError = FileHandle.nullDevice
    try self.process.run()
    // NB: "Serving 0 files at http://127.0.0.1:PORT/?token=TOKEN", then two lines, the second
    // "TCATRACE_DEBUGGER=HOST:PORT:SECRET".
    var printed = ""
    while !printed.contains("TCATRACE_DEBUGGER=") || !printed.hasSuffix("\n") {
      let data = output.fileHandleForReading.availableData
      guard !data.isEmpty else { throw BenchError("tcatrace serve --live printed: \(printed)") }
      printed += String(decoding: data, as: UTF8.self)
    }
    let lines = printed.split(separator: "\n").map(String.init)
    guard let url = lines.first?.components(separatedBy: " at ").last,
      let components = URLComponents(string: url),
      let token = components.queryItems?.first(where: { $0.name == "token" })?.value,
      let port = components.port,
      let line = lines.first(where: { $0.hasPrefix("TCATRACE_DEBUGGER=") }),
      let debugger = TraceDebugger(String(line.dropFirst("TCATRACE_DEBUGGER=".count)))
    else {
      throw BenchError("tcatrace serve --live printed: \(printed)")
    }
    self.base = "http://127.0.0.1:\(port)/api/"
    self.token = token
    self.debugger = debugger
    self.debuggerValue = String(line.dropFirst("TCATRACE_DEBUGGER=".count))
  }

  func stop() {
    if self.process.isRunning { self.process.terminate() }
    self.process.waitUntilExit()
  }

  private func request(_ path: String, method: String) async throws -> Data {
    guard let url = URL(string: self.base + path) else { throw BenchError("bad path \(path)") }
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.setValue(self.token, forHTTPHeaderField: "X-TCATrace-Token")
    let (data, response) = try await self.session.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
      throw BenchError("\(method) \(path): \(String(decoding: data.prefix(300), as: UTF8.self))")
    }
    return data
  }

  func get(_ path: String) async throws -> Any {
    try JSONSerialization.jsonObject(with: try await self.request(path, method: "GET"))
  }

  /// What the app did, as the server answers a command.
  func post(_ path: String) async throws -> String {
    let answer = try JSONSerialization.jsonObject(
      with: try await self.request(path, method: "POST"))
    return (answer as? [String: Any])?["done"] as? String ?? "\(answer)"
  }

  /// The index of the file of the app connected now, once its session holds `actions`; within
  /// a minute.
  func connectedFile(holding actions: Int) async throws -> Int {
    let deadline = Date(timeIntervalSinceNow: 60)
    while Date() < deadline {
      let files = try await self.get("files") as? [[String: Any]] ?? []
      for file in files {
        guard (file["live"] as? [String: Any])?["connected"] as? Bool == true,
          let index = file["index"] as? Int
        else { continue }
        let sessions = file["sessions"] as? [[String: Any]] ?? []
        if let count = sessions.first?["actions"] as? Int, count >= actions { return index }
      }
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    throw BenchError("no connected app's file held \(actions) actions within a minute")
  }
}
