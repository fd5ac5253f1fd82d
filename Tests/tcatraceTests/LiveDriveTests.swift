import Foundation
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
import TCATraceFile
import TestSupport
import Testing

/// Issue #74's driving: the page has a live app (`tcatrace-fixture drive`, a process of its own
/// recording with a `RecordingStore`) jump to a recorded state, send an action, lock, unlock and
/// go back, through `POST /api/files/F/live/C`; the app's own state, which it prints when asked
/// on its input, shows each.
@Suite(.hangGuard)
struct LiveDriveTests {
  /// The fixture app, driven through its input.
  private struct App {
    let process: Process
    let input: Pipe
    let lines: LineReader

    init(_ arguments: [String], in directory: TemporaryDirectory, debugger: String) throws {
      self.process = Product("tcatrace-fixture").process(
        arguments, in: directory.url, environment: ["TCATRACE_DEBUGGER": debugger])
      self.input = Pipe()
      self.process.standardInput = self.input
      self.lines = try self.process.runReadingLines()
    }

    func tell(_ line: String) {
      self.input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The next line it prints that begins with `prefix`, without it.
    func line(_ prefix: String) async throws -> String {
      while let line = try await self.lines.next(within: 60) {
        if line.hasPrefix(prefix) { return String(line.dropFirst(prefix.count)) }
        Issue.record("the app printed: \(line)")
      }
      throw AppEnded(expected: prefix)
    }

    struct AppEnded: Error { var expected: String }

    /// The store's state, as the app itself has it, as JSON.
    func state() async throws -> NSDictionary {
      self.tell("state")
      return try LiveDriveTests.object(try await self.line("state "))
    }

    func type(_ number: Int) async throws {
      self.tell("type \(number)")
      #expect(try await self.line("typed ") == "\(number)")
    }

    func quit() async throws {
      self.tell("quit")
      #expect(try await self.line("closed") == "")
      self.process.waitUntilExit()
    }

    func kill() {
      if self.process.isRunning { Foundation.kill(self.process.processIdentifier, SIGKILL) }
      self.process.waitUntilExit()
    }
  }

  static func object(_ json: String) throws -> NSDictionary {
    try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary, "\(json)")
  }

  /// `POST /api/files/0/live/COMMAND`: the status, and the answer's `done` or `error`.
  private static func post(
    _ url: URL, _ command: String, query: String = "", body: String? = nil
  ) async throws -> (status: Int, text: String) {
    let token = try #require(
      URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value)
    var components = try #require(
      URLComponents(
        url: url.deletingLastPathComponent().appendingPathComponent("api/files/0/live/\(command)"),
        resolvingAgainstBaseURL: false))
    if !query.isEmpty { components.query = query }
    var request = URLRequest(url: try #require(components.url))
    request.httpMethod = "POST"
    request.setValue(token, forHTTPHeaderField: "X-TCATrace-Token")
    if let body { request.httpBody = Data(body.utf8) }
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = try #require(response as? HTTPURLResponse).statusCode
    let answer = try #require(
      try JSONSerialization.jsonObject(with: data) as? [String: String], "\(data)")
    return (status, answer["done"] ?? answer["error"] ?? "")
  }

  /// Waits, up to 60 s, until the live file's session holds `count` actions.
  private static func waitUntil(_ path: String, holds count: Int) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while (try? TraceReader(path: path).sessions().first?.actionCount) ?? 0 < count,
      ContinuousClock.now < deadline
    {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(try TraceReader(path: path).sessions().first?.actionCount == count)
  }

  /// The state's JSON after action `seq` in the trace at `path`.
  private static func traceState(_ path: String, after seq: Int) throws -> NSDictionary {
    try Self.object(try #require(try TraceReader(path: path).stateJSON(session: 1, after: seq)))
  }

  /// The JSON the trace at `path` records of session 1's action `seq`.
  private static func payloadJSON(_ path: String, of seq: Int) throws -> String {
    let payload = try TraceReader(path: path).query(
      "SELECT payload_json FROM actions WHERE seq = \(seq)")
    guard case let .text(json)? = payload.rows.first?.first else {
      throw TraceMissing(description: "no JSON for action \(seq): \(payload)")
    }
    return json
  }

  private struct TraceMissing: Error, CustomStringConvertible { var description: String }

  @Test func thePageJumpsSendsLocksAndGoesBack() async throws {
    try await LiveServeTests.servingLive { directory, debugger, url, _ in
      // NB: More actions than the app keeps states of (256): an early one comes from the
      // trace's JSON.
      let app = try App(
        ["drive", directory.path("app.db"), "300"], in: directory, debugger: debugger)
      defer { app.kill() }
      #expect(try await app.line("ready") == "")
      let live = directory.path("live/tcatrace-fixture-1.db")
      try await Self.waitUntil(live, holds: 300)
      let now = try await app.state()

      // Jump to a state in the app's memory, and to one only the trace has.
      var answer = try await Self.post(url, "jump", query: "seq=299")
      #expect(answer == (200, "took the state after #299, from the app's memory"))
      #expect(try await app.state() == Self.traceState(live, after: 299))
      answer = try await Self.post(url, "jump", query: "seq=2")
      #expect(answer == (200, "took the state after #2, from the trace's JSON"))
      #expect(try await app.state() == Self.traceState(live, after: 2))
      #expect(try await app.state() != now)

      // The app goes on from there: the next action's change is from the state jumped to, and
      // the trace rebuilds the state after it as the app has it.
      try await app.type(1)
      let typed = try await app.state()
      #expect((typed["login"] as? NSDictionary)?["email"] as? String == "typed1@example.com")
      try await Self.waitUntil(live, holds: 301)
      #expect(try Self.traceState(live, after: 301) == typed)
      let changes = try TraceReader(path: live).query(
        """
        SELECT c.old_value FROM state_changes c JOIN actions a ON a.id = c.action_id
        WHERE a.seq = 301
        """)
      #expect(changes.rows == [[.text(#""live2@example.com""#)]], "\(changes)")

      // Send an action as the trace records it.
      answer = try await Self.post(url, "send", body: try Self.payloadJSON(live, of: 3))
      #expect(answer == (200, "sent the action"))
      #expect(
        (try await app.state()["login"] as? NSDictionary)?["email"] as? String
          == "live3@example.com")
      try await Self.waitUntil(live, holds: 302)

      // Locked, the app's own actions are ignored, and counted; the debugger's are not.
      answer = try await Self.post(url, "lock")
      #expect(answer.status == 200)
      let locked = try await app.state()
      try await app.type(2)
      try await app.type(3)
      #expect(try await app.state() == locked)
      answer = try await Self.post(url, "send", body: try Self.payloadJSON(live, of: 301))
      #expect(answer == (200, "sent the action"))
      #expect(
        (try await app.state()["login"] as? NSDictionary)?["email"] as? String
          == "typed1@example.com")
      answer = try await Self.post(url, "unlock")
      #expect(answer == (200, "unlocked; 2 actions were ignored while locked"))
      try await app.type(4)
      #expect(
        (try await app.state()["login"] as? NSDictionary)?["email"] as? String
          == "typed4@example.com")

      // Back to the state before the first jump; once.
      answer = try await Self.post(url, "back")
      #expect(answer == (200, "took the state it had before the first jump"))
      #expect(try await app.state() == now)
      answer = try await Self.post(url, "back")
      #expect(answer == (409, "the app has not jumped since it last came back"))

      // What cannot be done is refused with the reason. (The server reads the last action from
      // its file, which the app's last rows may not have reached yet.)
      try await Self.waitUntil(live, holds: 304)
      answer = try await Self.post(url, "jump", query: "seq=999")
      #expect(answer.status == 404)
      #expect(answer.text.hasPrefix("the session's last action so far is #304"), "\(answer)")
      answer = try await Self.post(url, "send", body: #"{"noSuchCase":{}}"#)
      #expect(answer.status == 409)
      #expect(answer.text.hasPrefix("the action was not sent: its JSON does not decode"))
      answer = try await Self.post(url, "send", body: "")
      #expect(answer.status == 400)
      answer = try await Self.post(url, "rewind")
      #expect(answer.status == 404)
      // The token only in the query, as a form elsewhere could send it, is not enough.
      var forged = URLRequest(
        url: try #require(
          URL(
            string: url.deletingLastPathComponent().appendingPathComponent("api/files/0/live/lock")
              .absoluteString + "?" + (url.query ?? ""))))
      forged.httpMethod = "POST"
      let (_, refusal) = try await URLSession.shared.data(for: forged)
      #expect((refusal as? HTTPURLResponse)?.statusCode == 401)

      // A feature's internal action sent from the page, as its effect would send it.
      answer = try await Self.post(
        url, "send",
        body:
          #"{"_internal":{"_0":{"login":{"_internal":{"_0":{"loginResponse":{"success":{"twoFactorRequired":{"token":"from-the-page"}}}}}}}}}"#
      )
      #expect(answer == (200, "sent the action"))
      try await Self.waitUntil(live, holds: 305)

      // Every action the app recorded is in the server's file, alike.
      try await app.quit()
      try await LiveServeTests.waitUntilEnded(live)
      let diff = try await Product.tcatrace.run(["diff", directory.path("app.db"), live])
      #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
      #expect(diff.stdout.contains("305 actions) are alike"), "\(diff.stdout)")
      // The trace records what the debugger did, and the action it sent; so does the server's
      // file.
      for path in [directory.path("app.db"), live] {
        let reader = try TraceReader(path: path)
        let events = try reader.debuggerEvents(session: 1)
        #expect(
          events.map {
            "\($0.kind) after #\($0.afterSeq) to \($0.toSeq ?? -1) \($0.ignoredActions ?? -1)"
          }
            == [
              "jump after #300 to 299 -1", "jump after #300 to 2 -1", "lock after #302 to -1 -1",
              "unlock after #303 to -1 2", "back after #304 to -1 -1",
            ], "\(path)")
        let origins = try reader.actions(matching: TraceFilter(session: 1)).map(\.origin)
        #expect(origins[301] == .debugger)
        #expect(origins[302] == .debugger)
        #expect(origins[304] == .debugger)
        #expect(origins.filter { $0 == .debugger }.count == 3)
        // What the person at the page sends crosses no boundary of the app's code: an internal
        // action sent from outside, which the recorder calls a leak when the app sends it
        // (view-sends-private-action), is none from the page.
        let leaks = try reader.query(
          "SELECT count(*) FROM leaks l JOIN actions a ON a.id = l.action_id WHERE a.seq = 305")
        #expect(leaks.rows == [[.integer(0)]], "\(leaks)")
      }
      let replay = try await Product.tcatrace.run(["replay", live, "--no-diff"])
      #expect(replay.status == 0)
      let lines = replay.stdout.split(separator: "\n").map(String.init)
      let jump = try #require(lines.firstIndex { $0.hasSuffix("the app took the state after #2") })
      #expect(lines[jump - 2].hasPrefix("#300 "), "\(lines[jump - 2])")
      #expect(lines[jump + 1].hasPrefix("#301 "), "\(lines[jump + 1])")
      #expect(lines[jump + 2].contains("(sent from the debugger's page)"), "\(lines[jump + 2])")
      let back = try #require(
        lines.firstIndex { $0.contains("the app took back the state it had before the jumps") })
      #expect(lines[back + 1].hasPrefix("#305 "), "\(lines[back + 1])")
      // Through #300, the jumps after it are not printed.
      let through = try await Product.tcatrace.run(["replay", live, "--no-diff", "--to", "300"])
      #expect(through.status == 0)
      #expect(!through.stdout.contains("debugger"), "\(through.stdout.suffix(400))")
      let test = try await Product.tcatrace.run(["test", live])
      #expect(test.status == 0, "\(test.stderr)")
      #expect(
        test.stderr.contains(
          "note: the test ends at action #300, where the debugger of tcatrace serve --live jumped the app (the app took the state after #299); the 5 actions after it are left out"
        ), "\(test.stderr)")

      // The app has left: nothing more can be asked of it.
      answer = try await Self.post(url, "lock")
      #expect(answer.status == 409)
      #expect(answer.text == "the app of this session has left: start it again to drive it")
    }
  }

  /// A state neither in the app's memory nor in the trace as the app's value (redacted there)
  /// is refused with the reason; so is driving a store the app built itself.
  @Test func whatTheAppCannotDoIsRefusedWithTheReason() async throws {
    try await LiveServeTests.servingLive { directory, debugger, url, _ in
      let app = try App(
        ["drive", directory.path("app.db"), "260", "redacted"], in: directory, debugger: debugger)
      defer { app.kill() }
      #expect(try await app.line("ready") == "")
      try await Self.waitUntil(directory.path("live/tcatrace-fixture-1.db"), holds: 260)
      let before = try await app.state()
      let answer = try await Self.post(url, "jump", query: "seq=1")
      #expect(answer.status == 409)
      #expect(
        answer.text
          == "the state after #1 is no longer in the app's memory (it keeps the last 256), and its JSON in the trace has redacted values"
      )
      #expect(try await app.state() == before)
      try await app.quit()
    }
    try await LiveServeTests.servingLive { directory, debugger, url, _ in
      let app = try App(
        ["drive", directory.path("app.db"), "3", "modifier"], in: directory, debugger: debugger)
      defer { app.kill() }
      #expect(try await app.line("ready") == "")
      try await Self.waitUntil(directory.path("live/tcatrace-fixture-1.db"), holds: 3)
      let answer = try await Self.post(url, "jump", query: "seq=1")
      #expect(answer.status == 409)
      #expect(answer.text.contains("recording(to:)"), "\(answer)")
      try await app.quit()
    }
  }

  @Test(
    .enabled("needs Chromium (apt-get install chromium) and Playwright (pip install playwright)") {
      await ServeCommandTests.hasBrowser()
    })
  func thePageDrivesTheAppInABrowser() async throws {
    let directory = try TemporaryDirectory()
    let check = Process()
    check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    check.arguments = [
      "python3",
      ServeCommandTests.root.appendingPathComponent(
        "Tests/tcatraceTests/Python/drive_browser_check.py"
      )
      .path,
      Product.tcatrace.executableURL.path,
      "\(Product("tcatrace-fixture").executableURL.path) drive", directory.url.path,
    ]
    let result = try await check.runToEnd(timeLimit: 300)
    #expect(result.status == 0, "\(result.stderr)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
      "\(result.stdout) \(result.stderr)")
    #expect(report["failures"] as? [String] == [], "\(report)")
    #expect(report.count == 17, "\(report.keys.sorted())")
    // NB: The README's screenshot of a jump is this run's, copied when asked.
    if let destination = ProcessInfo.processInfo.environment["TCATRACE_JUMP_SCREENSHOT"] {
      _ = try? FileManager.default.removeItem(atPath: destination)
      try FileManager.default.copyItem(atPath: directory.path("jump.png"), toPath: destination)
    }
  }
}
