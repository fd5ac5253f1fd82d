import Foundation
import TestSupport
import Testing

/// Issue #45: `tcatrace export FILE --format perfetto` writes Trace Event JSON that Perfetto
/// and chrome://tracing open.
@Suite(.hangGuard)
struct ExportCommandTests {
  let trace: RecordedTrace

  init() async throws {
    self.trace = try await RecordedTrace()
  }

  /// The events of an export, checked for the shape the format needs: every slice's `B` has
  /// its `E` on the same track, with nothing between them there; a track's slices and instants
  /// never go back in time; each flow has one start and one finish, in that order; each async
  /// slice one begin and one end, in that order.
  struct Events {
    let all: [[String: Any]]

    init(json: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
        sourceLocation: sourceLocation
      )
      self.all = try #require(
        document["traceEvents"] as? [[String: Any]], sourceLocation: sourceLocation)
      var open: [String: Double] = [:]
      var last: [String: Double] = [:]
      var flows: [Int: [(String, Double)]] = [:]
      var asyncSlices: [String: [(String, Double)]] = [:]
      for event in self.all {
        let phase = try #require(event["ph"] as? String, sourceLocation: sourceLocation)
        let track = "\(event["pid"] ?? "")/\(event["tid"] ?? "")"
        guard phase != "M" else { continue }
        let time = try #require(event["ts"] as? Double, sourceLocation: sourceLocation)
        switch phase {
        case "B", "E", "i":
          #expect(
            time >= last[track, default: 0], "\(track) went back in time",
            sourceLocation: sourceLocation)
          last[track] = time
          if phase == "B" {
            #expect(
              open[track] == nil, "a slice began in another on \(track)",
              sourceLocation: sourceLocation)
            open[track] = time
          } else if phase == "E" {
            #expect(
              open.removeValue(forKey: track) != nil, "an E without its B on \(track)",
              sourceLocation: sourceLocation)
          }
        case "s", "f":
          flows[try #require(event["id"] as? Int, sourceLocation: sourceLocation), default: []]
            .append((phase, time))
        case "b", "e":
          asyncSlices[
            try #require(event["id"] as? String, sourceLocation: sourceLocation), default: []
          ].append((phase, time))
        default:
          Issue.record("an event of phase \(phase)", sourceLocation: sourceLocation)
        }
      }
      #expect(open.isEmpty, "slices never ended: \(open)", sourceLocation: sourceLocation)
      for (id, events) in flows {
        #expect(
          events.map(\.0) == ["s", "f"] && events[0].1 <= events[1].1, "flow \(id): \(events)",
          sourceLocation: sourceLocation)
      }
      for (id, events) in asyncSlices {
        #expect(
          events.map(\.0) == ["b", "e"] && events[0].1 <= events[1].1, "effect \(id): \(events)",
          sourceLocation: sourceLocation)
      }
    }

    func phase(_ phase: String) -> [[String: Any]] {
      self.all.filter { $0["ph"] as? String == phase }
    }

    func metadata(_ name: String) -> [String] {
      self.phase("M").filter { $0["name"] as? String == name }
        .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
    }
  }

  @Test func theDemosSessionsAreATimeline() async throws {
    let result = try await self.trace.run(["export", "FILE", "--format", "perfetto"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let events = try Events(json: result.stdout)
    let sessions = try await self.trace.run(["sessions", "FILE", "--format", "json"])
    let summaries = try #require(
      try JSONSerialization.jsonObject(with: Data(sessions.stdout.utf8)) as? [[String: Any]])
    // One process per session, named with the session; one slice per action; one instant
    // per leak.
    #expect(events.metadata("process_name").count == summaries.count)
    for summary in summaries {
      let name = try #require(summary["name"] as? String)
      let id = try #require(summary["id"] as? Int)
      #expect(
        events.metadata("process_name").contains {
          $0.hasPrefix("\(name) — ") && $0.contains("(session \(id),")
        })
      let slices = events.phase("B").filter { $0["pid"] as? Int == id }
      #expect(slices.count == summary["actions"] as? Int)
      #expect(
        events.phase("i").filter { $0["pid"] as? Int == id }.count == summary["leaks"] as? Int)
    }
    // An action's slice: named by its category and case, on its feature's track.
    let login = try #require(
      events.phase("B").first {
        ($0["args"] as? [String: Any])?["path"] as? String == "_internal.login.view.passwordChanged"
      })
    #expect(login["name"] as? String == "view passwordChanged")
    #expect(login["cat"] as? String == "view")
    let tracks = events.phase("M").filter {
      $0["name"] as? String == "thread_name" && $0["pid"] as? Int == login["pid"] as? Int
    }
    #expect(
      tracks.first { $0["tid"] as? Int == login["tid"] as? Int }.flatMap {
        ($0["args"] as? [String: Any])?["name"] as? String
      } == "login")
    // Redacted when recorded, redacted here.
    #expect((login["args"] as? [String: Any])?["payload"] as? String == "<redacted>")
    #expect(!result.stdout.contains("hunter2"))
    // Each action an effect sent has an arrow from its cause, and its cause an effect slice.
    let sentByEffects = events.phase("B").filter {
      ($0["args"] as? [String: Any])?["origin"] as? String == "effect"
    }
    #expect(!sentByEffects.isEmpty)
    #expect(events.phase("f").count == sentByEffects.count)
    #expect(!events.phase("b").isEmpty)
    // A leak is named by its rule, on the track of the feature that leaked.
    let leak = try #require(events.phase("i").first)
    let rule = try #require((leak["args"] as? [String: Any])?["rule"] as? String)
    #expect(leak["name"] as? String == rule)
  }

  @Test func oneSessionToAFile() async throws {
    let result = try await Product.tcatrace.run(
      [
        "export", self.trace.path, "--format", "perfetto", "--session", "2", "--out",
        "timeline.json",
      ],
      in: self.trace.directory.url
    )
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.isEmpty)
    let json = try String(
      contentsOfFile: self.trace.directory.path("timeline.json"), encoding: .utf8)
    let events = try Events(json: json)
    #expect(Set(events.all.compactMap { $0["pid"] as? Int }) == [2])
    // Only the file: nothing else was left beside it.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: self.trace.directory.url.path).sorted()
        == ["demo.db", "timeline.json"])
  }

  @Test func whereTheOutputCannotGoIsSaidOnOneLine() async throws {
    let cases: [([String], String)] = [
      (["--out", "demo.db"], "Error: --out 'demo.db' is the trace itself: give another file\n"),
      (["--out", "."], "Error: --out '.' is a folder: give a file's path\n"),
      (
        ["--out", "missing/timeline.json"],
        "Error: cannot write 'missing/timeline.json' (No such file or directory): check that its folder exists and can be written\n"
      ),
    ]
    for (arguments, message) in cases {
      let result = try await self.trace.run(
        ["export", "demo.db", "--format", "perfetto"] + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout.isEmpty, "\(arguments)")
      #expect(result.stderr == message)
    }
    let format = try await self.trace.run(["export", "demo.db", "--format", "svg"])
    #expect(format.status == 2)
    #expect(format.stderr.contains("perfetto"))
  }

  @Test func aFailedExportLeavesAnEarlierOneAsItWas() async throws {
    let kept = self.trace.directory.path("timeline.json")
    try Data("earlier".utf8).write(to: URL(fileURLWithPath: kept))
    let damaged = try self.trace.copy(
      named: "damaged.db",
      changedBy: "UPDATE actions SET seq = seq + 1000 WHERE seq = 2 AND session_id = 1")
    let result = try await Product.tcatrace.run(
      ["export", damaged, "--format", "perfetto", "--out", "timeline.json"],
      in: self.trace.directory.url
    )
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("Error: ") && result.stderr.filter { $0 == "\n" }.count == 1)
    #expect(try String(contentsOfFile: kept, encoding: .utf8) == "earlier")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: self.trace.directory.url.path).sorted()
        == ["damaged.db", "demo.db", "timeline.json"]
    )
  }

  @Test func timesThatGoBackStillMakeAWellFormedTimeline() async throws {
    let reversed = try self.trace.copy(
      named: "reversed.db",
      changedBy: "UPDATE actions SET time_ns = 1000000000 - time_ns, duration_ns = -duration_ns"
    )
    let result = try await Product.tcatrace.run(["export", reversed, "--format", "perfetto"])
    #expect(result.status == 0)
    _ = try Events(json: result.stdout)
  }

  // MARK: - OTLP

  /// The lines of an OTLP export, read as JSON: every span of every request.
  static func spans(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (
    lines: Int, spans: [[String: Any]]
  ) {
    var spans: [[String: Any]] = []
    let lines = output.split(separator: "\n")
    for line in lines {
      let request = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        sourceLocation: sourceLocation)
      for resourceSpans in try #require(
        request["resourceSpans"] as? [[String: Any]], sourceLocation: sourceLocation)
      {
        for scopeSpans in try #require(
          resourceSpans["scopeSpans"] as? [[String: Any]], sourceLocation: sourceLocation)
        {
          spans += try #require(
            scopeSpans["spans"] as? [[String: Any]], sourceLocation: sourceLocation)
        }
      }
    }
    return (lines.count, spans)
  }

  @Test func otlpIsATracePerSessionAndASpanPerAction() async throws {
    let result = try await self.trace.run(["export", "FILE", "--format", "otlp"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let (lines, spans) = try Self.spans(result.stdout)
    let counts = try await self.counts()
    #expect(lines == 2)
    #expect(spans.count == counts.actions)
    let isHex = { (text: String, count: Int) in
      text.count == count && text.allSatisfy(\.isHexDigit) && text == text.lowercased()
    }
    #expect(
      spans.allSatisfy {
        isHex($0["traceId"] as? String ?? "", 32) && isHex($0["spanId"] as? String ?? "", 16)
      })
    #expect(Set(spans.compactMap { $0["traceId"] as? String }).count == 2)
    #expect(Set(spans.compactMap { $0["spanId"] as? String }).count == counts.actions)
    // A span's parent is the span of the action whose effect sent it.
    let ids = Set(spans.compactMap { $0["spanId"] as? String })
    let children = spans.filter { $0["parentSpanId"] != nil }
    #expect(children.count == counts.sentByEffects)
    #expect(children.allSatisfy { ids.contains($0["parentSpanId"] as? String ?? "") })
    // Redacted when recorded, redacted here.
    #expect(
      result.stdout.contains(
        #"{"key":"tcatrace.action.payload","value":{"stringValue":"<redacted>"}}"#))
    #expect(!result.stdout.contains("hunter2"))
    // The session's start and the action's time: the first action of the fixed-time demo.
    let first = try #require(spans.first)
    #expect(first["name"] as? String == "view emailChanged")
    #expect(first["startTimeUnixNano"] as? String == "1767225600000000000")
  }

  @Test func exportingASessionAgainGivesTheSameIds() async throws {
    let first = try await self.trace.run(["export", "FILE", "--format", "otlp", "--session", "2"])
    let copy = self.trace.directory.path("copy.db")
    try FileManager.default.copyItem(atPath: self.trace.path, toPath: copy)
    let second = try await Product.tcatrace.run([
      "export", copy, "--format", "otlp", "--session", "2",
    ])
    #expect(first.status == 0 && second.status == 0)
    #expect(!first.stdout.isEmpty)
    #expect(first.stdout == second.stdout)
  }

  @Test func aLongSessionIsARequestPerThousandSpans() async throws {
    let burst = try await RecordedTrace(
      fixture: "record-burst-until-full", ["100000000", "2500"], name: "burst.db")
    let result = try await burst.run(["export", "FILE", "--format", "otlp"])
    #expect(result.status == 0)
    let (lines, spans) = try Self.spans(result.stdout)
    #expect(lines == 3)
    #expect(spans.count == 2500)
  }

  /// Read with the official protobuf definitions: PyPI's opentelemetry-proto, which `.ci/run`
  /// installs.
  @Test(
    .enabled("needs Python's opentelemetry-proto (pip install opentelemetry-proto)") {
      await Self.hasOpenTelemetryProto()
    })
  func otlpIsAnExportTraceServiceRequestPerLine() async throws {
    let result = try await Product.tcatrace.run(
      ["export", self.trace.path, "--format", "otlp", "--out", "demo.otlp.jsonl"],
      in: self.trace.directory.url
    )
    #expect(result.status == 0)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Python/otlp_check.py").path
    let check = Process()
    check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    check.arguments = ["python3", script, self.trace.directory.path("demo.otlp.jsonl")]
    let read = try await check.runToEnd(timeLimit: 120)
    #expect(read.status == 0, "\(read.stderr)")
    let counts = try await self.counts()
    #expect(
      read.stdout == """
        {"distinct_span_ids": true, "leak_events": \(counts.leaks), "parents": \(counts.sentByEffects), "parents_found": true, "requests": 2, "services": ["AppFeature", "LeakyParentFeature"], "spans": \(counts.actions), "traces": 2}

        """
    )
  }

  /// The demo trace's actions, actions sent by effects and leaks, as `tcatrace sql` counts them.
  private func counts() async throws -> (actions: Int, sentByEffects: Int, leaks: Int) {
    let result = try await self.trace.run([
      "sql", "FILE", "--format", "csv",
      "SELECT (SELECT count(*) FROM actions), (SELECT count(*) FROM actions WHERE origin = 'effect'), (SELECT count(*) FROM leaks)",
    ])
    let row = try #require(
      result.stdout.split(separator: "\n").last?.split(separator: ",").compactMap { Int($0) })
    try #require(row.count == 3)
    return (row[0], row[1], row[2])
  }

  static func hasOpenTelemetryProto() async -> Bool {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = [
      "python3", "-c", "import opentelemetry.proto.collector.trace.v1.trace_service_pb2",
    ]
    return (try? await probe.runToEnd(timeLimit: 60))?.status == 0
  }

  // MARK: - --endpoint

  /// An OTLP/HTTP receiver on the loopback address (`Python/otlp_receiver.py`), answering as
  /// `mode` says; killed at the end of `body`.
  private func withReceiver(
    _ mode: String, _ body: (_ port: Int, _ received: TemporaryDirectory) async throws -> Void
  ) async throws {
    let received = try TemporaryDirectory()
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Python/otlp_receiver.py").path
    let receiver = Process()
    receiver.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    receiver.arguments = ["python3", script, received.url.path, mode]
    let output = Pipe()
    receiver.standardOutput = output
    // NB: The receiver ends when its input does: when this process closes the pipe, or dies
    // midway through the test, however it dies.
    let lifeline = Pipe()
    receiver.standardInput = lifeline
    try receiver.start()
    defer {
      // NB: Killed, so that the wait for it is bounded.
      kill(receiver.processIdentifier, SIGKILL)
      receiver.waitUntilExit()
      try? lifeline.fileHandleForWriting.close()
    }
    let port = try #require(
      try await LineReader(output.fileHandleForReading).next(within: 60).flatMap { Int($0) })
    try await body(port, received)
  }

  @Test func otlpGoesToAReceiverARequestPerLine() async throws {
    try await self.withReceiver("ok") { port, received in
      let sent = try await self.trace.run([
        "export", "FILE", "--format", "otlp", "--endpoint", "http://127.0.0.1:\(port)",
      ])
      #expect(sent.status == 0)
      #expect(sent.stderr.isEmpty)
      #expect(sent.stdout == "Sent 2 requests to http://127.0.0.1:\(port)/v1/traces.\n")
      let written = try await self.trace.run(["export", "FILE", "--format", "otlp"])
      let lines = written.stdout.split(separator: "\n").map(String.init)
      #expect(lines.count == 2)
      for (index, line) in lines.enumerated() {
        #expect(
          try String(contentsOfFile: received.path("request-\(index + 1).json"), encoding: .utf8)
            == line)
        #expect(
          try String(contentsOfFile: received.path("request-\(index + 1).path"), encoding: .utf8)
            == "/v1/traces application/json")
      }
    }
  }

  @Test func aReceiverThatFailsOrIsNotThereIsSaidOnOneLine() async throws {
    try await self.withReceiver("fail") { port, _ in
      let result = try await self.trace.run([
        "export", "FILE", "--format", "otlp", "--endpoint", "http://127.0.0.1:\(port)/v1/traces",
      ])
      #expect(result.status == 2)
      #expect(result.stdout.isEmpty)
      #expect(
        result.stderr
          == "Error: cannot send to 'http://127.0.0.1:\(port)/v1/traces': it answered 503 Unavailable; an OTLP/HTTP receiver takes POST /v1/traces\n"
      )
    }
    try await self.withReceiver("silent") { port, _ in
      let result = try await self.trace.run([
        "export", "FILE", "--format", "otlp", "--endpoint", "http://127.0.0.1:\(port)", "--timeout",
        "1",
      ])
      #expect(result.status == 2)
      #expect(
        result.stderr
          == "Error: cannot send to 'http://127.0.0.1:\(port)/v1/traces': it did not answer in time; give it longer with --timeout\n"
      )
    }
    // NB: Port 1: nothing listens there.
    let refused = try await self.trace.run([
      "export", "FILE", "--format", "otlp", "--endpoint", "http://127.0.0.1:1",
    ])
    #expect(refused.status == 2)
    #expect(
      refused.stderr
        == "Error: cannot send to 'http://127.0.0.1:1/v1/traces': cannot connect (Connection refused); check that a receiver listens there\n"
    )
    for (arguments, message) in [
      (
        ["--format", "otlp", "--endpoint", "https://collector:4318"],
        "tcatrace sends over http:// only"
      ),
      (
        ["--format", "perfetto", "--endpoint", "http://127.0.0.1:4318"],
        "--endpoint sends OTLP: use it with --format otlp"
      ),
      (["--format", "otlp", "--endpoint", "http://127.0.0.1:4318", "--out", "x.json"], "give one"),
      (
        ["--format", "otlp", "--endpoint", "http://host:port"],
        "is not an http://host:port/path address"
      ),
    ] {
      let result = try await self.trace.run(["export", "FILE"] + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(
        result.stderr.hasPrefix("Error: ") && result.stderr.contains(message),
        "\(arguments): \(result.stderr)")
    }
  }
}
