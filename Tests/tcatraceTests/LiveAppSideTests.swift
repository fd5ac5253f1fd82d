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

    let listener = try Listener()
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
    let listener = try Listener()
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
    for suffix in ["", "-wal"] {
      let file = FileManager.default.contents(atPath: directory.path("app.db" + suffix)) ?? Data()
      #expect(suffix == "-wal" || !file.isEmpty)
      #expect(!String(decoding: file, as: UTF8.self).contains("example.com"))
    }
  }

  /// A server that takes the app and then reads nothing more holds neither the app's store,
  /// which goes on answering, nor the recorder's `close()`; the app's own file holds every
  /// action, and the server was sent less than the session's end.
  @Test func aServerThatStopsReadingHoldsNeitherTheStoreNorTheClose() async throws {
    let directory = try TemporaryDirectory()
    let listener = try Listener(receiveBufferBytes: 4096)
    defer { listener.close() }
    let app = try App(
      ["drive", directory.path("app.db"), "15000"], in: directory, debugger: listener.debugger)
    let connection = try await listener.takeApp()
    defer { try? connection.close() }
    #expect(try await app.waitFor("ready"))
    // NB: Bounds far above what either takes, below what a store or a close held by the
    // connection would: the store answers at once, and the close waits 2 s at most for the
    // session's end to be sent.
    var start = ContinuousClock.now
    app.tell("type 1")
    #expect(try await app.waitFor("typed 1"))
    var took = ContinuousClock.now - start
    #expect(took < .seconds(15), "\(took)")
    start = ContinuousClock.now
    app.tell("quit")
    #expect(try await app.waitFor("closed"))
    took = ContinuousClock.now - start
    #expect(took < .seconds(20), "\(took)")
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
  ///
  /// NB: Blocking sockets, on threads of their own: an app waits 5 s for the answer to its
  /// hello, which a test process running the whole suite on two cores might not give it from
  /// the tasks its tests share.
  private struct Listener {
    let port: UInt16
    private let socket: Socket

    /// `receiveBufferBytes`: the connection's receive buffer (the system doubles it), small for
    /// a server whose buffers fill.
    init(receiveBufferBytes: Int32? = nil) throws {
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
      self.socket = socket
    }

    /// What an app's `TCATRACE_DEBUGGER` names to connect here.
    var debugger: String { "127.0.0.1:\(self.port):\(String(repeating: "5", count: 64))" }

    /// Takes the app that connects within a minute, reads its hello and welcomes it.
    func takeApp() async throws -> Socket {
      try await onThreadOfItsOwn { [socket] in
        let deadline = Date(timeIntervalSinceNow: 60)
        guard Self.waitUntilReadable(socket, before: deadline) else {
          throw Failure(description: "no app connected within a minute")
        }
        let app = Socket(file: try socket.accept().file)
        #if canImport(Darwin)
          // NB: Else a write to an app that has gone raises SIGPIPE, which ends the tests
          // (`SO_NOSIGPIPE`, <sys/socket.h>, Darwin only; on Linux, FlyingSocks sends with
          // `MSG_NOSIGNAL`), as LiveServer does.
          try app.setValue(true, for: .noSIGPIPE)
        #endif
        var reader = LiveMessageReader()
        while true {
          if let message = try reader.next() {
            guard case .hello = message else {
              try? app.close()
              throw Failure(description: "the app began with \(message)")
            }
            break
          }
          guard Self.waitUntilReadable(app, before: deadline) else {
            try? app.close()
            throw Failure(description: "no hello within a minute")
          }
          reader.append(try app.read(atMost: 4096))
        }
        let welcome = Data(LiveMessage.welcome.frame)
        var written = welcome.startIndex
        while written < welcome.endIndex { written = try app.write(welcome, from: written) }
        return app
      }
    }

    /// Every byte `app` sends until it closes the connection, or for a minute at most.
    static func bytes(from app: Socket) async -> [UInt8] {
      (try? await onThreadOfItsOwn {
        var bytes: [UInt8] = []
        let deadline = Date(timeIntervalSinceNow: 60)
        // NB: A read of a connection the app has closed throws.
        while Self.waitUntilReadable(app, before: deadline),
          let chunk = try? app.read(atMost: 65_536), !chunk.isEmpty
        {
          bytes += chunk
        }
        return bytes
      }) ?? []
    }

    /// Whether `socket` has something to read (a connection, bytes, or its end) before
    /// `deadline`.
    private static func waitUntilReadable(_ socket: Socket, before deadline: Date) -> Bool {
      var entry = pollfd(fd: socket.file.rawValue, events: Int16(POLLIN), revents: 0)
      while true {
        let milliseconds = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
        let ready = poll(&entry, 1, milliseconds)
        if ready > 0 { return true }
        if ready == 0 || errno != EINTR { return false }
      }
    }

    func close() {
      try? self.socket.close()
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }
}
