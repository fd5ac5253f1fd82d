import FlyingSocks
import Foundation
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
import TCATraceFile
import TestSupport
import Testing

/// Issue #74's live connection: `tcatrace serve --live DIR` takes an app (`tcatrace-fixture`,
/// a process of its own, told the way by `TCATRACE_DEBUGGER`) whose session is written into a
/// file in DIR as it records, alike with the app's own file; apps without the secret, and
/// connections that are not the protocol's, are refused with a reason and leave no file.
@Suite(.hangGuard)
struct LiveServeTests {
  /// A server taking apps into `live`, in a folder of its own, on `host`; `body` gets the
  /// folder, the `TCATRACE_DEBUGGER` line's value, the page's URL and the server's error output.
  static func servingLive(
    arguments: [String] = [], host: String = "127.0.0.1",
    _ body: (
      _ directory: TemporaryDirectory, _ debugger: String, _ url: URL, _ errors: Pipe
    ) async throws -> Void
  ) async throws {
    let directory = try TemporaryDirectory()
    let server = Product.tcatrace.process(
      ["serve", "--live", directory.path("live"), "--live-host", host] + arguments,
      in: directory.url)
    let errors = Pipe()
    server.standardError = errors
    let lines = try server.runReadingLines()
    defer {
      if server.isRunning { kill(server.processIdentifier, SIGKILL) }
      server.waitUntilExit()
    }
    let first = try #require(try await lines.next(within: 60))
    #expect(first.hasPrefix("Serving 0 files at http://127.0.0.1:"))
    let url = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
    #expect(
      try await lines.next(within: 10)
        == "Taking apps' sessions into \(directory.path("live")): start an app with")
    let line = try #require(try await lines.next(within: 10))
    let prefix = "TCATRACE_DEBUGGER=\(host):"
    #expect(line.hasPrefix(prefix), "\(line)")
    let value = String(line.dropFirst("TCATRACE_DEBUGGER=".count))
    #expect(value.split(separator: ":").last?.count == 64)
    try await body(directory, value, url, errors)
  }

  /// The files the server wrote apps' sessions into.
  static func liveFiles(in directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path("live"))
      .filter { $0.hasSuffix(".db") }.sorted()
  }

  @Test func anAppStreamsItsSessionIntoAFileOfItsOwn() async throws {
    try await Self.servingLive { directory, debugger, url, _ in
      let app = try await Product("tcatrace-fixture").run(
        ["append", directory.path("app.db"), "5"], in: directory.url,
        environment: ["TCATRACE_DEBUGGER": debugger])
      #expect(app.status == 0)
      #expect(
        !app.stdout.contains("issue") && !app.stderr.contains("issue"), "\(app.stdout)\(app.stderr)"
      )
      // NB: The recorder closed its file as the last connection to it: nothing beside it.
      #expect(!FileManager.default.fileExists(atPath: directory.path("app.db-wal")))
      #expect(try Self.liveFiles(in: directory) == ["tcatrace-fixture-1.db"])
      let live = directory.path("live/tcatrace-fixture-1.db")
      // NB: The server, another process, may still be writing the last rows.
      try await Self.waitUntilEnded(live)
      let diff = try await Product.tcatrace.run(["diff", directory.path("app.db"), live])
      #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
      #expect(diff.stdout.contains("5 actions) are alike"), "\(diff.stdout)")
      let sessions = try TraceReader(path: live).sessions()
      #expect(sessions.map(\.actionCount) == [5])
      #expect(sessions.first?.endedAt != nil)

      // The page's list of files names it, and says its app has left.
      let token = try #require(
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value)
      var request = URLRequest(
        url: url.deletingLastPathComponent().appendingPathComponent("api/files"))
      request.setValue(token, forHTTPHeaderField: "X-TCATrace-Token")
      var files: [[String: Any]] = []
      let deadline = ContinuousClock.now + .seconds(30)
      repeat {
        let (data, _) = try await URLSession.shared.data(for: request)
        files = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        if (files.first?["live"] as? [String: Any])?["connected"] as? Bool == false { break }
        try await Task.sleep(for: .milliseconds(50))
      } while ContinuousClock.now < deadline
      #expect(files.map { $0["name"] as? String } == ["tcatrace-fixture-1.db"])
      let status = try #require(files.first?["live"] as? [String: Any])
      #expect(status["connected"] as? Bool == false)
      #expect((status["left_at"] as? String)?.hasSuffix("Z") == true)
    }
  }

  /// A `Store` the app built itself, recorded through `recording(to:)`, streams too: its
  /// session begins at its first action.
  @Test func aStoreRecordedThroughTheModifierStreams() async throws {
    try await Self.servingLive { directory, debugger, _, _ in
      let app = try await Product("tcatrace-fixture").run(
        ["append-through-modifier", directory.path("app.db"), "4"], in: directory.url,
        environment: ["TCATRACE_DEBUGGER": debugger])
      #expect(app.status == 0)
      #expect(app.stdout == "closed\n", "\(app.stdout)\(app.stderr)")
      let live = directory.path("live/tcatrace-fixture-1.db")
      try await Self.waitUntilEnded(live)
      let diff = try await Product.tcatrace.run(["diff", directory.path("app.db"), live])
      #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
      #expect(diff.stdout.contains("4 actions) are alike"), "\(diff.stdout)")
    }
  }

  /// A store that names its debugger in code streams there, whatever the environment says.
  @Test func aStoreThatNamesItsDebuggerStreamsThere() async throws {
    try await Self.servingLive { directory, debugger, _, _ in
      let app = try await Product("tcatrace-fixture").run(
        ["append-to", directory.path("app.db"), "4", debugger], in: directory.url,
        environment: ["TCATRACE_DEBUGGER": "127.0.0.1:1:elsewhere"])
      #expect(app.status == 0)
      #expect(app.stdout == "closed\n", "\(app.stdout)\(app.stderr)")
      let live = directory.path("live/tcatrace-fixture-1.db")
      try await Self.waitUntilEnded(live)
      let diff = try await Product.tcatrace.run(["diff", directory.path("app.db"), live])
      #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
      #expect(diff.stdout.contains("4 actions) are alike"), "\(diff.stdout)")
    }
  }

  /// The server goes away while an app records, and comes back on the same directory and
  /// port with the secret it kept there: the app says once that it lost the server, and sends
  /// its session again, from its start, to the one that came back.
  @Test func anAppFindsItsServerAgainWhenItComesBack() async throws {
    let directory = try TemporaryDirectory()
    let live = directory.path("live")
    func start(_ arguments: [String]) async throws -> (Process, String) {
      let server = Product.tcatrace.process(
        ["serve", "--live", live] + arguments, in: directory.url)
      server.standardError = FileHandle.nullDevice
      let lines = try server.runReadingLines()
      while let line = try await lines.next(within: 60) {
        if line.hasPrefix("TCATRACE_DEBUGGER=") {
          return (server, String(line.dropFirst("TCATRACE_DEBUGGER=".count)))
        }
      }
      struct NoLine: Error {}
      throw NoLine()
    }
    var (server, debugger) = try await start([])
    defer {
      if server.isRunning { kill(server.processIdentifier, SIGKILL) }
      server.waitUntilExit()
    }
    let app = Product("tcatrace-fixture").process(
      ["append", directory.path("app.db"), "20", "10"], in: directory.url,
      environment: ["TCATRACE_DEBUGGER": debugger])
    let input = Pipe()
    app.standardInput = input
    let errors = Pipe()
    app.standardError = errors
    let lines = try app.runReadingLines()
    defer {
      if app.isRunning { kill(app.processIdentifier, SIGKILL) }
      app.waitUntilExit()
    }
    while try #require(try await lines.next(within: 60)) != "paused" {}
    // NB: The first ten actions reach the first server before it goes.
    let first = directory.path("live/tcatrace-fixture-1.db")
    let deadline = ContinuousClock.now + .seconds(60)
    while (try? TraceReader(path: first).sessions().first?.actionCount) != 10,
      ContinuousClock.now < deadline
    {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(try TraceReader(path: first).sessions().map(\.actionCount) == [10])
    kill(server.processIdentifier, SIGTERM)
    #expect(try await server.end(within: 30))
    let port = try #require(debugger.split(separator: ":").dropFirst().first.map(String.init))
    let again: String
    (server, again) = try await start(["--live-port", port])
    #expect(again == debugger)

    input.fileHandleForWriting.write(Data("go\n".utf8))
    try input.fileHandleForWriting.close()
    #expect(try await app.end(within: 60))
    #expect(app.terminationStatus == 0)
    let second = directory.path("live/tcatrace-fixture-2.db")
    try await Self.waitUntilEnded(second)
    let diff = try await Product.tcatrace.run(["diff", directory.path("app.db"), second])
    #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
    #expect(diff.stdout.contains("20 actions) are alike"), "\(diff.stdout)")
    var output = ""
    while let line = try await lines.next(within: 10) { output += line + "\n" }
    output += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(output.components(separatedBy: "cannot stream to").count == 2, "\(output)")
  }

  /// An app with a wrong secret is refused: it says so once and goes on recording to its own
  /// file; the server prints the reason, and writes nothing.
  @Test func anAppWithAWrongSecretIsRefusedAndGoesOn() async throws {
    try await Self.servingLive { directory, debugger, _, errors in
      let wrong = String(debugger.dropLast()) + (debugger.hasSuffix("0") ? "1" : "0")
      let app = try await Product("tcatrace-fixture").run(
        ["append", directory.path("app.db"), "3"], in: directory.url,
        environment: ["TCATRACE_DEBUGGER": wrong])
      #expect(app.status == 0)
      let output = app.stdout + app.stderr
      #expect(
        output.components(separatedBy: "refused this app: the secret is wrong").count == 2,
        "\(output)")
      #expect(try TraceReader(path: directory.path("app.db")).sessions().map(\.actionCount) == [3])
      #expect(try Self.liveFiles(in: directory).isEmpty)
      let printed = try await Self.text(of: errors, whenItHolds: "Refused")
      #expect(printed.contains("Refused an app: the secret is wrong"), "\(printed)")
    }
  }

  /// Connections that are not the protocol's, each answered `refused` with its reason, and
  /// leaving no file.
  @Test func connectionsThatAreNotTheProtocolsAreRefused() async throws {
    try await Self.servingLive(arguments: ["--live-session-bytes", "4096"]) {
      directory, debugger, _, _ in
      let parts = debugger.split(separator: ":")
      let port = try #require(UInt16(parts[1]))
      let secret = String(parts[2])
      let hello = LiveMessage.hello(version: LiveProtocol.version, secret: secret, app: "raw").frame
      let session = LiveMessage.session(
        LiveSession(
          name: "s", rootFeature: "AppFeature", startedAt: "2026-12-04T00:00:00.000Z",
          recorderVersion: "0.1.0")
      ).frame
      let cases: [(String, [UInt8], String)] = [
        (
          "no secret",
          LiveMessage.hello(version: LiveProtocol.version, secret: "", app: "raw").frame,
          "the secret is missing"
        ),
        (
          "another version", LiveMessage.hello(version: 9, secret: secret, app: "raw").frame,
          "the app speaks version 9"
        ),
        ("no hello", session, "a message before the hello"),
        ("oversized", [0xFF, 0xFF, 0xFF, 0xFF], "a message of 4294967295 bytes"),
        // NB: After the hello, a message may be 48 MiB; one byte more is refused as its length
        // comes, before it is read.
        (
          "oversized after the hello", hello + [0x03, 0x00, 0x00, 0x01],
          "a message of 50331649 bytes"
        ),
        ("malformed", hello + [0, 0, 0, 4] + Array("nope".utf8), "a message that is not JSON"),
        ("not rows", hello + LiveMessage.welcome.frame, "a greeting after the greetings"),
        (
          "a flood",
          hello + session
            + (0..<64).flatMap { _ in
              LiveMessage.state(seq: 0, tree: String(repeating: "x", count: 100), json: nil).frame
            },
          "more than the 4096 bytes a live session may send"
        ),
      ]
      for (name, bytes, reason) in cases {
        let answers = try await Self.exchange(port: port, sending: bytes)
        let refusal = answers.compactMap { answer -> String? in
          if case let .refused(reason) = answer { return reason }
          return nil
        }
        #expect(refusal.count == 1 && refusal[0].hasPrefix(reason), "\(name): \(answers)")
        #expect(!refusal.joined().contains("\n"))
      }
      // NB: The flood's session may have been written before the bound was reached, with no
      // action; nothing else was.
      for file in try Self.liveFiles(in: directory) {
        #expect(file.hasPrefix("raw-"))
        #expect(try TraceReader(path: directory.path("live/\(file)")).actions().isEmpty)
      }
    }
  }

  /// The page in Chromium, driven by Playwright (Python/live_browser_check.py): an app's
  /// session appears while the app records, marked live, grows, and is marked left once the app
  /// has ended.
  @Test(
    .enabled("needs Chromium (apt-get install chromium) and Playwright (pip install playwright)") {
      await ServeCommandTests.hasBrowser()
    })
  func thePageShowsAnAppsSessionAsItArrives() async throws {
    let directory = try TemporaryDirectory()
    let check = Process()
    check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    check.arguments = [
      "python3",
      ServeCommandTests.root.appendingPathComponent(
        "Tests/tcatraceTests/Python/live_browser_check.py"
      )
      .path,
      Product.tcatrace.executableURL.path, Product("tcatrace-fixture").executableURL.path,
      directory.url.path,
    ]
    let result = try await check.runToEnd(timeLimit: 300)
    #expect(result.status == 0, "\(result.stderr)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
      "\(result.stdout) \(result.stderr)")
    #expect(report["failures"] as? [String] == [], "\(report)")
    #expect(report.count == 7, "\(report.keys.sorted())")
  }

  /// All apps' sessions together are bounded, in one run of the server: an app that crosses
  /// the bound is refused with the reason, and goes on recording to its own file; the next app
  /// is refused as it says hello, and no file is made for it.
  @Test func theAppsSessionsTogetherAreBounded() async throws {
    try await Self.servingLive(arguments: ["--live-total-bytes", "4096"]) {
      directory, debugger, _, errors in
      let reason = "the apps' sessions have sent the 4096 bytes this server takes in one run"
      for index in [1, 2] {
        // NB: The first app waits after its first action until the server has made its file:
        // a busy machine may otherwise send it more than the bound in one read.
        let app = Product("tcatrace-fixture").process(
          ["append", directory.path("app\(index).db"), "60", index == 1 ? "1" : "0"],
          in: directory.url, environment: ["TCATRACE_DEBUGGER": debugger])
        let input = Pipe()
        app.standardInput = input
        let appErrors = Pipe()
        app.standardError = appErrors
        let lines = try app.runReadingLines()
        defer {
          if app.isRunning { kill(app.processIdentifier, SIGKILL) }
          app.waitUntilExit()
        }
        var output = ""
        if index == 1 {
          while let line = try await lines.next(within: 60), line != "paused" {
            output += line + "\n"
          }
          let deadline = ContinuousClock.now + .seconds(60)
          while try Self.liveFiles(in: directory).isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
          }
          input.fileHandleForWriting.write(Data("go\n".utf8))
        }
        try input.fileHandleForWriting.close()
        #expect(try await app.end(within: 60))
        #expect(app.terminationStatus == 0)
        while let line = try await lines.next(within: 10) { output += line + "\n" }
        output += String(
          decoding: appErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
          output.components(separatedBy: "refused this app: \(reason)").count == 2, "\(output)")
        #expect(
          try TraceReader(path: directory.path("app\(index).db")).sessions().map(\.actionCount)
            == [60])
        #expect(try Self.liveFiles(in: directory) == ["tcatrace-fixture-1.db"])
      }
      let printed = try await Self.text(of: errors, whenItHolds: "Refused an app: the apps'")
      #expect(printed.contains("Refused an app writing '"), "\(printed)")
      #expect(printed.contains("Refused an app: \(reason)"), "\(printed)")
    }
  }

  /// `--live-host` names the address apps connect to; the page stays on loopback's
  /// 127.0.0.1 only.
  ///
  /// NB: 127.0.0.2 is an address of the machine on Linux; macOS's loopback has 127.0.0.1 only,
  /// unless it is given another.
  @Test(.enabled(if: Self.isAnAddressOfThisMachine("127.0.0.2")))
  func appsConnectToTheAddressGivenAndThePageStaysOnItsOwn() async throws {
    try await Self.servingLive(host: "127.0.0.2") { directory, debugger, url, _ in
      let app = try await Product("tcatrace-fixture").run(
        ["append", directory.path("app.db"), "3"], in: directory.url,
        environment: ["TCATRACE_DEBUGGER": debugger])
      #expect(app.status == 0)
      let live = directory.path("live/tcatrace-fixture-1.db")
      try await Self.waitUntilEnded(live)
      #expect(try TraceReader(path: live).sessions().map(\.actionCount) == [3])
      // NB: The page's port takes no connection on the apps' address. (The apps' port on
      // 127.0.0.1 is not tried: another test's server may have that port there.)
      let pagePort = try #require(url.port.map(UInt16.init))
      await #expect(throws: (any Error).self) {
        let socket = try await AsyncSocket.connected(
          to: try sockaddr_in.inet(ip4: "127.0.0.2", port: pagePort), timeout: 60)
        try? socket.close()
      }
    }
  }

  /// Whether a socket can listen on `address`.
  static func isAnAddressOfThisMachine(_ address: String) -> Bool {
    guard let socket = try? Socket(domain: AF_INET, type: .stream) else { return false }
    defer { try? socket.close() }
    return (try? socket.bind(to: try sockaddr_in.inet(ip4: address, port: 0))) != nil
  }

  /// A connection that says nothing is closed once its time to say hello is up; at most 32
  /// apps that presented the secret are connected at once, and the next one is refused.
  @Test func aSilentConnectionIsRefusedWhenItsTimeIsUp() async throws {
    try await Self.servingLive(arguments: ["--live-hello-seconds", "1"]) {
      directory, debugger, _, _ in
      let port = try #require(UInt16(debugger.split(separator: ":")[1]))
      let silent = try await Self.exchange(port: port, sending: [])
      #expect(silent == [.refused("no hello within 1 s: an app says hello first")])
      #expect(try Self.liveFiles(in: directory).isEmpty)
    }
  }

  /// At most 64 connections are saying hello at once, and at most 32 apps that presented the
  /// secret are connected: one more of either is refused at once.
  @Test func oneConnectionTooManyIsRefused() async throws {
    try await Self.servingLive { directory, debugger, _, _ in
      let parts = debugger.split(separator: ":")
      let port = try #require(UInt16(parts[1]))
      var silent: [AsyncSocket] = []
      for _ in 0..<64 {
        silent.append(
          try await Self.connect(port: port))
      }
      // NB: The server counts a connection once it has taken it: the 65th is refused once the
      // 64 are all being served.
      var greeting: [LiveMessage] = []
      let deadline = ContinuousClock.now + .seconds(30)
      repeat {
        greeting = try await Self.exchange(port: port, sending: [], within: .seconds(1))
      } while greeting.isEmpty && ContinuousClock.now < deadline
      #expect(
        greeting == [.busy("64 connections are saying hello already: try again later")])
      for socket in silent { try? socket.close() }

      let hello = LiveMessage.hello(
        version: LiveProtocol.version, secret: String(parts[2]), app: "many"
      ).frame
      var apps: [AsyncSocket] = []
      defer { for app in apps { try? app.close() } }
      // NB: The server learns that the silent connections closed as it reads them: until it
      // has, an app may still be told it is busy, and tries again.
      let deadline2 = ContinuousClock.now + .seconds(30)
      while apps.count < 32, ContinuousClock.now < deadline2 {
        let app = try await Self.connect(port: port)
        try await app.write(Data(hello))
        var reader = LiveMessageReader()
        var answer: LiveMessage?
        while answer == nil {
          reader.append(try await app.read(atMost: 4096))
          answer = try reader.next()
        }
        if answer == .welcome {
          apps.append(app)
        } else {
          #expect(answer == .busy("64 connections are saying hello already: try again later"))
          try? app.close()
          try await Task.sleep(for: .milliseconds(50))
        }
      }
      #expect(apps.count == 32)
      let refused = try await Self.exchange(port: port, sending: hello)
      #expect(refused == [.busy("32 apps are connected already: try again when one has left")])
      #expect(try Self.liveFiles(in: directory).isEmpty)
    }
  }

  /// A connection to the server's port for apps on loopback.
  ///
  /// NB: FlyingSocks gives a connection 5 s by default, which a busy machine running the whole
  /// suite has been seen to take: a test waits up to a minute instead.
  private static func connect(port: UInt16) async throws -> AsyncSocket {
    try await AsyncSocket.connected(
      to: try sockaddr_in.inet(ip4: "127.0.0.1", port: port), timeout: 60)
  }

  /// Sends `bytes` to the server's port for apps, and reads what it answers until it closes
  /// the connection, or for `timeout` at most.
  private static func exchange(
    port: UInt16, sending bytes: [UInt8], within timeout: Duration = .seconds(30)
  ) async throws -> [LiveMessage] {
    let socket = try await Self.connect(port: port)
    defer { try? socket.close() }
    try await socket.write(Data(bytes))
    // NB: Each read within the time left: a server that neither answers nor closes fails the
    // test instead of holding it.
    var reader = LiveMessageReader()
    var messages: [LiveMessage] = []
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      let chunk = try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
        group.addTask { try? await socket.read(atMost: 4096) }
        group.addTask {
          try? await Task.sleep(until: deadline)
          return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
      }
      guard let chunk else { break }
      reader.append(chunk)
      while let message = try reader.next() { messages.append(message) }
    }
    return messages
  }

  /// Waits, up to 60 s, until the session in the trace at `path` has ended.
  static func waitUntilEnded(_ path: String) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while (try? TraceReader(path: path).sessions().first?.endedAt) == nil,
      ContinuousClock.now < deadline
    {
      try await Task.sleep(for: .milliseconds(50))
    }
  }

  /// What `pipe` holds once it holds `text`, or after 10 s: read without blocking.
  private static func text(of pipe: Pipe, whenItHolds text: String) async throws -> String {
    let file = pipe.fileHandleForReading.fileDescriptor
    _ = fcntl(file, F_SETFL, fcntl(file, F_GETFL) | O_NONBLOCK)
    var collected: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
      let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
      if count > 0 {
        collected += buffer.prefix(count)
        if String(decoding: collected, as: UTF8.self).contains(text) { break }
      } else {
        try await Task.sleep(for: .milliseconds(20))
      }
    }
    return String(decoding: collected, as: UTF8.self)
  }
}
