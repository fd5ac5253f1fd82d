import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension Scenarios {
  /// Issue #61: `tcatrace serve` on a long session (the one `tcatrace state` is timed on). Its
  /// answer for the log's first page (200 actions, as the page asks) against `tcatrace replay
  /// FILE --format jsonl | head -100`, and for the state late in the session against `tcatrace
  /// state --at N --format json`, the same rebuild printed as the same JSON, taking turns; then
  /// a client pages through the whole session, 500 actions a request, while the server's
  /// resident memory is sampled.
  @MainActor
  public static func serve(_ size: BenchmarkSize, tools: BenchTools) async throws -> ScenarioResult
  {
    guard let tcatrace = tools.tcatrace else {
      return ScenarioResult(name: "tcatrace serve", figures: [], ratios: [])
    }
    let scratch = try Scratch()
    let path = scratch.path("serve.db")
    try await Self.writeLongSession(path: path, actions: size.stateActions, rows: size.stateRows)
    let late = size.stateActions / 10 * 9

    let server = try ServedTrace(tcatrace: tcatrace, path: path)
    defer { server.stop() }
    let firstPage = "files/0/sessions/1/actions?from=1&limit=200"
    let lateState = "files/0/sessions/1/state?at=\(late)"
    // NB: Each answer is checked, so that a refusal, which is fast, is not timed as an answer.
    _ = try await server.json(firstPage)
    _ = try await server.json(lateState)

    let head = ["-c", "\"$0\" replay \"$1\" --format jsonl | head -100 >/dev/null", tcatrace, path]
    var milliseconds = Array(repeating: [Double](), count: 4)
    for _ in 0..<size.launches {
      milliseconds[0].append(
        try await Self.milliseconds {
          let page = try await server.json(firstPage)
          guard (page["actions"] as? [Any])?.count == min(200, size.stateActions) else {
            throw BenchError("the first page is not 200 actions")
          }
        })
      milliseconds[1].append(try Self.milliseconds { try ChildProcess.run("/bin/sh", head) })
      milliseconds[2].append(
        try await Self.milliseconds {
          let state = try await server.json(lateState)
          guard state["after"] as? Int == late else {
            throw BenchError("the state is not the one after #\(late)")
          }
        })
      milliseconds[3].append(
        try Self.milliseconds {
          try ChildProcess.run(tcatrace, ["state", path, "--at", "\(late)", "--format", "json"])
        })
    }
    let names = [
      "serve: the log's first page (200 actions)",
      "tcatrace replay --format jsonl | head -100",
      "serve: the state after #\(late)",
      "tcatrace state --at \(late) --format json",
    ]
    var figures = zip(names, milliseconds).map { Figure(name: $0, unit: "ms", samples: $1) }
    let page = PairedRatios(milliseconds[0], milliseconds[1])
    let state = PairedRatios(milliseconds[2], milliseconds[3])
    var ratios =
      page.ratios("serve's first page / replay | head -100", target: .atMost(3))
      + state.ratios("serve's state at #\(late) / tcatrace state", target: .atMost(2))

    // The whole session, page by page, as a client scrolling to its end asks for it.
    var from: Int? = 1
    var pages = 0
    var read = 0
    var resident: [Double] = []
    let start = DispatchTime.now().uptimeNanoseconds
    while let seq = from {
      let page = try await server.json("files/0/sessions/1/actions?from=\(seq)&limit=500")
      read += (page["actions"] as? [Any])?.count ?? 0
      from = page["next"] as? Int
      pages += 1
      if pages == 10 || pages % 100 == 0, let megabytes = server.residentMegabytes() {
        resident.append(megabytes)
      }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    guard read == size.stateActions else {
      throw BenchError("paging read \(read) of \(size.stateActions) actions")
    }
    figures.append(
      Figure(
        name: "serve: paging the whole session, 500 a page", unit: "actions/s",
        samples: [Double(read) / seconds]))
    if let megabytes = server.residentMegabytes() { resident.append(megabytes) }
    if let first = resident.first, let last = resident.last, let most = resident.max() {
      figures += [
        Figure(name: "serve's resident memory after 10 pages", unit: "MB", samples: [first]),
        Figure(name: "serve's resident memory, the most while paging", unit: "MB", samples: [most]),
        Figure(name: "serve's resident memory after every page", unit: "MB", samples: [last]),
      ]
      ratios.append(
        Ratio(
          name: "serve's memory: the most while paging / after 10 pages", value: most / first,
          target: .atMost(1.25)))
    }

    // The features picture's data: every action's feature counted, and the leaks, against the
    // shell counting the features alone.
    var features: [Double] = []
    var shell: [Double] = []
    for _ in 0..<min(size.launches, 5) {
      features.append(
        try await Self.milliseconds {
          let answer = try await server.json("files/0/sessions/1/features")
          guard (answer["features"] as? [Any])?.isEmpty == false else {
            throw BenchError("the features answer has no features")
          }
        })
      if let sqlite3 = tools.sqlite3 {
        shell.append(
          try Self.milliseconds {
            try ChildProcess.run(
              sqlite3,
              [
                "-list", "-readonly", path,
                "SELECT feature, COUNT(*) FROM actions WHERE session_id = 1 GROUP BY feature;",
              ])
          })
      }
    }
    figures.append(
      Figure(name: "serve: the features and their leaks", unit: "ms", samples: features))
    if !shell.isEmpty {
      figures.append(
        Figure(name: "sqlite3 counting each feature's actions", unit: "ms", samples: shell))
      ratios += PairedRatios(features, shell).ratios(
        "serve's features / sqlite3 counting them", target: nil)
    }
    return ScenarioResult(name: "tcatrace serve", figures: figures, ratios: ratios)
  }

  private static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
  }

  @MainActor
  private static func milliseconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
  }
}

/// `tcatrace serve FILE`, running: the URL and token it printed, and its process.
@MainActor
private final class ServedTrace {
  let process = Process()
  let base: String
  let token: String
  let session = URLSession(configuration: .ephemeral)

  init(tcatrace: String, path: String) throws {
    self.process.executableURL = URL(fileURLWithPath: tcatrace)
    self.process.arguments = ["serve", path]
    let output = Pipe()
    self.process.standardInput = FileHandle.nullDevice
    self.process.standardOutput = output
    self.process.standardError = FileHandle.nullDevice
    try self.process.run()
    // NB: The first line: "Serving 1 file at http://127.0.0.1:PORT/?token=TOKEN".
    var printed = Data()
    while !printed.contains(UInt8(ascii: "\n")) {
      let data = output.fileHandleForReading.availableData
      guard !data.isEmpty else { throw BenchError("tcatrace serve printed no URL") }
      printed += data
    }
    let line = String(decoding: printed, as: UTF8.self)
    guard let url = line.components(separatedBy: " at ").last?.split(separator: "\n").first,
      let components = URLComponents(string: String(url)),
      let token = components.queryItems?.first(where: { $0.name == "token" })?.value,
      let port = components.port
    else {
      throw BenchError("tcatrace serve printed no URL: \(line)")
    }
    self.base = "http://127.0.0.1:\(port)/api/"
    self.token = token
  }

  /// The JSON object the server answers `path` (under `/api/`) with; a refusal is an error.
  func json(_ path: String) async throws -> [String: Any] {
    guard let url = URL(string: self.base + path) else { throw BenchError("bad path \(path)") }
    var request = URLRequest(url: url)
    request.setValue(self.token, forHTTPHeaderField: "X-TCATrace-Token")
    let (data, response) = try await self.session.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200,
      let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
      throw BenchError("GET \(path): \(String(decoding: data.prefix(200), as: UTF8.self))")
    }
    return object
  }

  /// The server's resident memory (Linux); nil elsewhere.
  func residentMegabytes() -> Double? {
    ResidentMemory.current(of: self.process.processIdentifier).map { Double($0) / 1_048_576 }
  }

  func stop() {
    if self.process.isRunning { self.process.interrupt() }
    self.process.waitUntilExit()
  }
}
