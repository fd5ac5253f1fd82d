import FlyingSocks
import Foundation
import TCATraceFile
import TestSupport
import Testing

/// Issue #74, the app's side of the live connection, against a listener the test runs in place
/// of `tcatrace serve --live`, so that it sees every byte the app sends: an app without
/// `TCATRACE_DEBUGGER` has no socket at all; what an app sends holds no value it redacts; a
/// server that stops reading holds neither the store nor the recorder's `close()`.
@Suite(.hangGuard)
struct LiveAppSideTests {
  /// The fixture app, `tcatrace-fixture ARGUMENTS`, told its debugger by `debugger` (`nil`: the
  /// variable is not in its environment at all).
  private struct App {
    let process: Process
    let input: Pipe
    let lines: LineReader

    init(_ arguments: [String], in directory: TemporaryDirectory, debugger: String?) throws {
      self.process = Product("tcatrace-fixture").process(arguments, in: directory.url)
      self.process.environment?["TCATRACE_DEBUGGER"] = debugger
      self.input = Pipe()
      self.process.standardInput = self.input
      self.lines = try self.process.runReadingLines()
    }

    func tell(_ line: String) {
      self.input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for the line `expected`, recording the lines before it; `false` if none came.
    func waitFor(_ expected: String) async throws -> Bool {
      while let line = try await self.lines.next(within: 60) {
        if line == expected { return true }
        if !line.hasPrefix("sent ") { Issue.record("the app printed: \(line)") }
      }
      return false
    }

    /// The sockets the paused app has opened itself, as it answers `sockets`.
    func sockets() async throws -> Int? {
      self.tell("sockets")
      while let line = try await self.lines.next(within: 60) {
        if line.hasPrefix("sockets ") { return Int(line.dropFirst("sockets ".count)) }
        if !line.hasPrefix("sent ") { Issue.record("the app printed: \(line)") }
      }
      return nil
    }

    func end() async throws {
      #expect(try await self.process.end(within: 60))
      #expect(self.process.terminationStatus == 0)
    }
  }

  /// Without `TCATRACE_DEBUGGER`, a recording app opens no socket: it connects nowhere, listens
  /// nowhere and sends nothing. With it, the same app opens its connection. (The app counts the
  /// sockets it has open, less those it inherited from the test's process.)
  @Test(.enabled("reads /proc") { FileManager.default.fileExists(atPath: "/proc/self/fd") })
  func withoutTheVariableAnAppHasNoSocket() async throws {
    let directory = try TemporaryDirectory()
    let alone = try App(
      ["append", directory.path("alone.db"), "3", "2", "sockets"], in: directory, debugger: nil)
    #expect(try await alone.waitFor("paused"))
    #expect(try await alone.sockets() == 0)
    alone.tell("go")
    #expect(try await alone.waitFor("closed"))
    try await alone.end()

    let listener = try await Listener()
    defer { listener.close() }
    let connected = try App(
      ["append", directory.path("connected.db"), "3", "2", "sockets"], in: directory,
      debugger: listener.debugger)
    let app = try await listener.takeApp()
    defer { try? app.close() }
    #expect(try await connected.waitFor("paused"))
    #expect(try await connected.sockets() == 1)
    connected.tell("go")
    #expect(try await connected.waitFor("closed"))
    try await connected.end()
  }

  /// Every byte an app sends holds what its own file holds, redacted as it is: the login's
  /// email, redacted, is in neither.
  @Test func whatAnAppSendsHoldsNoValueItRedacts() async throws {
    let directory = try TemporaryDirectory()
    let listener = try await Listener()
    defer { listener.close() }
    let app = try App(
      ["drive", directory.path("app.db"), "5", "redacted"], in: directory,
      debugger: listener.debugger)
    let connection = try await listener.takeApp()
    defer { try? connection.close() }
    let received = Task { await Listener.bytes(from: connection) }
    #expect(try await app.waitFor("ready"))
    app.tell("type 6")
    #expect(try await app.waitFor("typed 6"))
    app.tell("quit")
    #expect(try await app.waitFor("closed"))
    try await app.end()
    let sent = String(decoding: await received.value, as: UTF8.self)
    // NB: The app sent its session whole: its end, and its six actions.
    var reader = LiveMessageReader()
    reader.append(Array(sent.utf8))
    var messages: [LiveMessage] = []
    while let message = try reader.next() { messages.append(message) }
    #expect(messages.filter { if case .action = $0 { true } else { false } }.count == 6)
    #expect(messages.contains { if case .end = $0 { true } else { false } })
    #expect(sent.contains("emailChanged"))
    #expect(!sent.contains("example.com"), "\(sent)")
    let file = try #require(FileManager.default.contents(atPath: directory.path("app.db")))
    #expect(!String(decoding: file, as: UTF8.self).contains("example.com"))
  }

  /// A server that takes the app and then reads nothing more holds neither the app's store,
  /// which goes on answering, nor the recorder's `close()`; the app's own file holds every
  /// action, and the server was sent less than the session's end.
  @Test func aServerThatStopsReadingHoldsNeitherTheStoreNorTheClose() async throws {
    let directory = try TemporaryDirectory()
    let listener = try await Listener(receiveBufferBytes: 4096)
    defer { listener.close() }
    let app = try App(
      ["drive", directory.path("app.db"), "15000"], in: directory, debugger: listener.debugger)
    let connection = try await listener.takeApp()
    defer { try? connection.close() }
    #expect(try await app.waitFor("ready"))
    app.tell("type 1")
    #expect(try await app.waitFor("typed 1"))
    app.tell("quit")
    #expect(try await app.waitFor("closed"))
    try await app.end()
    #expect(
      try TraceReader(path: directory.path("app.db")).sessions().map(\.actionCount) == [15001])
    // NB: What the app managed to send before it closed: the session's rows are several times
    // what the connection's buffers hold, so not its end.
    var reader = LiveMessageReader()
    reader.append(await Listener.bytes(from: connection))
    var messages: [LiveMessage] = []
    while let message = try? reader.next() { messages.append(message) }
    #expect(!messages.isEmpty)
    #expect(!messages.contains { if case .end = $0 { true } else { false } })
  }

  /// A listener on loopback for one app: it answers the app's hello with a welcome, and then
  /// reads what the app sends, or nothing more.
  private struct Listener {
    let port: UInt16
    private let socket: AsyncSocket

    /// `receiveBufferBytes`: the connection's receive buffer (the system doubles it), small for
    /// a server whose buffers fill.
    init(receiveBufferBytes: Int32? = nil) async throws {
      let socket = try Socket(domain: AF_INET, type: .stream)
      try socket.setValue(true, for: .localAddressReuse)
      if let receiveBufferBytes {
        try socket.setValue(receiveBufferBytes, for: .receiveBufferSize)
      }
      try socket.bind(to: try sockaddr_in.inet(ip4: "127.0.0.1", port: 0))
      try socket.listen()
      guard case let .ip4(_, port) = try socket.sockname() else {
        throw Failure(description: "the listener has no IPv4 address")
      }
      self.port = port
      self.socket = try AsyncSocket(socket: socket, pool: try await .client)
    }

    /// What an app's `TCATRACE_DEBUGGER` names to connect here.
    var debugger: String { "127.0.0.1:\(self.port):\(String(repeating: "5", count: 64))" }

    /// Takes the app that connects within a minute, reads its hello and welcomes it.
    func takeApp() async throws -> AsyncSocket {
      let app = try #require(try await Self.within(.seconds(60)) { try await self.socket.accept() })
      let hello = try await Self.within(.seconds(60)) {
        var reader = LiveMessageReader()
        while true {
          if let message = try reader.next() { return message }
          reader.append(try await app.read(atMost: 4096))
        }
      }
      guard case .hello? = hello else {
        try? app.close()
        throw Failure(description: "the app began with \(String(describing: hello))")
      }
      try await app.write(Data(LiveMessage.welcome.frame))
      return app
    }

    /// Every byte `app` sends until it closes the connection, or for a minute at most.
    static func bytes(from app: AsyncSocket) async -> [UInt8] {
      var bytes: [UInt8] = []
      let deadline = ContinuousClock.now + .seconds(60)
      while ContinuousClock.now < deadline {
        // NB: `nil` once the time is up, or the app has closed the connection (a read throws).
        guard
          let chunk = try? await Self.within(
            deadline - .now, { try await app.read(atMost: 65_536) }),
          !chunk.isEmpty
        else { break }
        bytes += chunk
      }
      return bytes
    }

    func close() {
      try? self.socket.close()
    }

    /// What `operation` returns, `nil` if it has not returned within `timeout`.
    static func within<Result: Sendable>(
      _ timeout: Duration, _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result? {
      try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
          try? await Task.sleep(for: timeout)
          return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
      }
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }
}
