import FlyingSocks
import Foundation
import RuntimeSupport
import TCATraceFile
import ToolSupport

/// `tcatrace serve --live DIR`'s side for apps: it listens for apps that connect out to it
/// (`TCATRACE_DEBUGGER`), takes those that present the secret made at start, and writes each
/// one's session, as it arrives, into a trace file of its own in `DIR`, which the page serves
/// beside the files given.
///
/// The transport is FlyingSocks (the socket layer of FlyingFox, whose HTTP server `serve`
/// already runs): non-blocking sockets, on Linux and Apple's platforms alike, with no Foundation
/// networking, so that the code tested here is the code an app on a device runs.
///
/// An app's bytes are untrusted: a message is at most ``LiveProtocol/maximumMessageBytes``, a
/// session at most ``maximumSessionBytes`` (512 MiB), all the sessions of one run of the server
/// at most ``maximumTotalBytes`` (4 GiB: an app that knows the secret and connects again and
/// again does not fill the disk), at most ``maximumApps`` apps are connected at once, and the
/// hello must come within ``helloTimeout``. A connection that breaks the protocol is
/// answered `refused` with the reason, which is also printed, and closed; what it wrote before
/// stays.
final class LiveServer: Sendable {
  /// The most bytes one app's session may send, unless told another (for tests).
  static let maximumSessionBytes = 512 << 20
  /// The most bytes all apps' sessions may send in one run of the server, unless told another
  /// (for tests).
  static let maximumTotalBytes = 4 << 30
  /// The most apps connected at once.
  static let maximumApps = 32
  /// The most connections saying hello at once.
  static let maximumGreetings = 64
  /// How long an app has to say hello once connected, unless told another (for tests).
  static let helloTimeout: Duration = .seconds(10)

  let directory: String
  let secret: String
  let maximumSessionBytes: Int
  let maximumTotalBytes: Int
  let helloTimeout: Duration
  let files: ServedFiles
  private let listener: AsyncSocket
  /// The address and port apps connect to.
  let host: String
  let port: UInt16
  private let state = Locked(State())

  private struct State {
    /// Apps that presented the secret, connected.
    var connected = 0
    /// Connections that have not said hello yet.
    var greeting = 0
    /// The bytes admitted apps have sent, in all.
    var received = 0
    var fileNumbers: [String: Int] = [:]
  }

  /// Listens on `host` (an IPv4 address) and `port` (0: one the system picks).
  init(
    directory: String, host: String, port: UInt16, secret: String, files: ServedFiles,
    maximumSessionBytes: Int = LiveServer.maximumSessionBytes,
    maximumTotalBytes: Int = LiveServer.maximumTotalBytes,
    helloTimeout: Duration = LiveServer.helloTimeout
  ) async throws {
    self.directory = directory
    self.maximumSessionBytes = maximumSessionBytes
    self.maximumTotalBytes = maximumTotalBytes
    self.helloTimeout = helloTimeout
    self.secret = secret
    self.files = files
    let address = try sockaddr_in.inet(ip4: host, port: port)
    let socket = try Socket(domain: AF_INET, type: .stream)
    try socket.setValue(true, for: .localAddressReuse)
    #if canImport(Darwin)
      // NB: Else a write to an app that has gone raises SIGPIPE, which ends the server; the
      // sockets it accepts inherit it. As FlyingFox's server does; on Linux, FlyingSocks sends
      // with MSG_NOSIGNAL.
      try socket.setValue(true, for: .noSIGPIPE)
    #endif
    try socket.bind(to: address)
    try socket.listen()
    guard case let .ip4(boundHost, boundPort) = try socket.sockname() else {
      throw CLIError(message: "cannot listen for apps on \(host):\(port).")
    }
    self.host = boundHost
    self.port = boundPort
    self.listener = try AsyncSocket(socket: socket, pool: try await .client)
  }

  /// What an app's environment needs to connect: `TCATRACE_DEBUGGER=HOST:PORT:SECRET`.
  var environmentLine: String {
    "TCATRACE_DEBUGGER=\(self.host):\(self.port):\(self.secret)"
  }

  /// Takes apps until cancelled, each in a task of its own; returns once each has ended.
  func run() async {
    await withDiscardingTaskGroup { group in
      while !Task.isCancelled {
        do {
          let connection = try await self.listener.accept()
          group.addTask { await self.serve(connection) }
        } catch {
          // NB: Out of file descriptors, say: not again at once. Once cancelled, or the listener
          // closed, no more.
          if Task.isCancelled { break }
          try? await Task.sleep(for: .milliseconds(100))
        }
      }
      group.cancelAll()
    }
  }

  func stop() {
    try? self.listener.close()
  }

  private func serve(_ socket: AsyncSocket) async {
    // NB: Closed once, here: a descriptor closed twice may by then be another connection's,
    // or a trace file's.
    defer { try? socket.close() }
    let greeting = self.state.withLock { state in
      guard state.greeting < Self.maximumGreetings else { return false }
      state.greeting += 1
      return true
    }
    guard greeting else {
      await self.refuse(
        socket, "\(Self.maximumGreetings) connections are saying hello already: try again later",
        file: nil, busy: true)
      return
    }
    var reader: LiveMessageReader
    let hello: LiveMessage?
    do {
      defer { self.state.withLock { $0.greeting -= 1 } }
      (hello, reader) =
        try await Self.firstMessage(from: socket, within: self.helloTimeout)
        ?? (nil, LiveMessageReader())
    } catch let error as LiveProtocolError {
      await self.refuse(socket, error.reason, file: nil)
      return
    } catch {
      return
    }
    guard case let .hello(version, secret, app)? = hello else {
      await self.refuse(
        socket,
        hello == nil
          ? "no hello within \(self.helloTimeout.components.seconds) s: an app says hello first"
          : "a message before the hello: an app says hello first",
        file: nil)
      return
    }
    guard Self.isEqual(secret, self.secret) else {
      await self.refuse(
        socket,
        "the secret is \(secret.isEmpty ? "missing" : "wrong"): use the TCATRACE_DEBUGGER line this server printed",
        file: nil)
      return
    }
    guard version == LiveProtocol.version else {
      await self.refuse(
        socket,
        "the app speaks version \(version) of the live protocol, this server \(LiveProtocol.version): use the same TCATrace in both",
        file: nil)
      return
    }
    // NB: Only apps that presented the secret count toward the bounds.
    enum Admission { case admitted, full, tooMany }
    let admission = self.state.withLock { state -> Admission in
      guard state.received < self.maximumTotalBytes else { return .full }
      guard state.connected < Self.maximumApps else { return .tooMany }
      state.connected += 1
      return .admitted
    }
    switch admission {
    case .admitted:
      break
    case .full:
      await self.refuse(socket, self.fullReason, file: nil)
      return
    case .tooMany:
      await self.refuse(
        socket, "\(Self.maximumApps) apps are connected already: try again when one has left",
        file: nil, busy: true)
      return
    }
    defer { self.state.withLock { $0.connected -= 1 } }
    reader.maximumMessageBytes = LiveProtocol.maximumMessageBytes
    // NB: The file is made with the first rows: a connection that sends none, or whose first
    // are refused, leaves no file.
    var receiver: LiveSessionReceiver?
    var path: String?
    var isServed = false
    // NB: The page's commands are written to the app as it streams: each message is written
    // whole, holding the app's lock, refusals too.
    let liveApp = LiveApp(socket: socket)
    do {
      try await socket.write(Data(LiveMessage.welcome.frame))
      // NB: Counted from the bytes that came with the hello.
      var received = reader.pendingBytes
      var counted = 0
      while true {
        guard received <= self.maximumSessionBytes else {
          throw LiveProtocolError(
            "more than the \(self.maximumSessionBytes) bytes a live session may send")
        }
        let isFull = self.state.withLock { state in
          state.received += received - counted
          return state.received > self.maximumTotalBytes
        }
        counted = received
        guard !isFull else { throw LiveProtocolError(self.fullReason) }
        var messages: [LiveMessage] = []
        while let message = try reader.next() {
          if case let .answer(id, refusal, detail) = message {
            liveApp.answered(id: id, refusal: refusal, detail: detail)
          } else {
            messages.append(message)
          }
        }
        if !messages.isEmpty {
          let into: LiveSessionReceiver
          if let receiver {
            into = receiver
          } else {
            into = try self.receiver(for: app, path: &path)
            receiver = into
          }
          try into.receive(messages)
          if !isServed, into.sessionID != nil, let path {
            self.files.add(path, app: liveApp)
            isServed = true
          }
          if into.hasReceivedEnd { break }
        }
        let bytes = try await socket.read(atMost: 65_536)
        received += bytes.count
        reader.append(bytes)
      }
    } catch let error as LiveProtocolError {
      liveApp.leave()
      await self.refuse(
        socket, error.reason, file: receiver?.sessionID == nil ? nil : path,
        writes: liveApp.writes)
    } catch let error as TraceFileError {
      liveApp.leave()
      await self.refuse(
        socket, "the server cannot write '\(path ?? self.directory)': \(error.message)", file: nil,
        writes: liveApp.writes)
    } catch {
      // NB: The app closed the connection, or it broke: the app has left.
    }
    if let path {
      if receiver?.sessionID == nil {
        receiver = nil
        for suffix in ["", "-wal", "-shm"] {
          try? FileManager.default.removeItem(atPath: path + suffix)
        }
      } else {
        self.files.left(path)
      }
    }
    // NB: No command is written to the socket once it is closed (its descriptor may by then be
    // another connection's, or a file's).
    await liveApp.end()
  }

  /// Why an app is refused once the apps' sessions have sent ``maximumTotalBytes`` in all.
  private var fullReason: String {
    "the apps' sessions have sent the \(self.maximumTotalBytes) bytes this server takes in one run: stop it, make room in \(self.directory), start it again, and launch the app again"
  }

  /// A receiver writing into a new file for `app`, whose path it sets in `path`.
  private func receiver(
    for app: String, path: inout String?
  ) throws(TraceFileError) -> LiveSessionReceiver {
    let file = self.newFile(for: app)
    path = file
    return try LiveSessionReceiver(path: file)
  }

  /// The first message and the reader that read it (which takes no message longer than a
  /// hello), `nil` when none came within `timeout`.
  private static func firstMessage(
    from socket: AsyncSocket, within timeout: Duration
  ) async throws -> (LiveMessage, LiveMessageReader)? {
    try await withThrowingTaskGroup(of: (LiveMessage, LiveMessageReader)?.self) { group in
      group.addTask {
        var reader = LiveMessageReader()
        reader.maximumMessageBytes = LiveProtocol.maximumHelloBytes
        while true {
          if let message = try reader.next() { return (message, reader) }
          reader.append(try await socket.read(atMost: 4096))
        }
      }
      group.addTask {
        // NB: Cancelled, the read waiting in the other task ends (FlyingSocks' pool resumes it
        // with `CancellationError`).
        try? await Task.sleep(for: timeout)
        return nil
      }
      defer { group.cancelAll() }
      return try await group.next() ?? nil
    }
  }

  /// Answers `refused` with `reason`, and prints it. What the app still sends is read, for up
  /// to a second, and dropped: a socket closed with bytes unread is reset, and the reset may
  /// reach the app before the answer does.
  /// `busy`: the app may try again later (the server has no room for it now).
  /// `writes`: the lock an admitted app's messages are written holding.
  private func refuse(
    _ socket: AsyncSocket, _ reason: String, file: String?, busy: Bool = false,
    writes: AsyncLock? = nil
  ) async {
    let line = reason.singleLine
    printError(
      "Refused an app\(file.map { " writing '\($0)'" } ?? ""): \(line)")
    let answer = busy ? LiveMessage.busy(line) : LiveMessage.refused(line)
    if let writes {
      await writes.withLock { try? await socket.write(Data(answer.frame)) }
    } else {
      try? await socket.write(Data(answer.frame))
    }
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        var drained = 0
        while drained < 1 << 20, let bytes = try? await socket.read(atMost: 65_536) {
          drained += bytes.count
        }
      }
      group.addTask { try? await Task.sleep(for: .seconds(1)) }
      await group.next()
      group.cancelAll()
    }
  }

  /// A new file in the directory for the app named `app`: `APP-N.db`, with the app's name
  /// kept to letters, digits, `.`, `-` and `_`.
  private func newFile(for app: String) -> String {
    let allowed = app.unicodeScalars.prefix(64).map { scalar -> Character in
      let isAllowed =
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" || scalar == "."
      return isAllowed ? Character(scalar) : "_"
    }
    let name = String(allowed).trimmingCharacters(in: CharacterSet(charactersIn: "."))
    let stem = name.isEmpty ? "app" : name
    // NB: Numbered by the name in lower case: on a disk that ignores case, `App-1.db` and
    // `app-1.db` are one file. A number is taken under the lock, the disk asked outside it.
    let key = stem.lowercased()
    while true {
      let number = self.state.withLock { state -> Int in
        let number = state.fileNumbers[key, default: 0] + 1
        state.fileNumbers[key] = number
        return number
      }
      let path = self.directory + "/" + "\(stem)-\(number).db"
      if !FileManager.default.fileExists(atPath: path) { return path }
    }
  }

  /// Compares two secrets in time that does not depend on where they differ.
  private static func isEqual(_ given: String, _ expected: String) -> Bool {
    let (a, b) = (Array(given.utf8), Array(expected.utf8))
    guard a.count == b.count else { return false }
    return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
  }
}

/// The files `serve` serves: those given, and those that apps' sessions are written to as they
/// connect, each with whether its app is still connected.
final class ServedFiles: Sendable {
  struct File: Sendable {
    var path: String
    /// `nil` for a file given; for a live one, whether its app is connected, and when it left.
    var live: Live?
  }

  struct Live: Sendable {
    var isConnected: Bool
    var leftAt: Date?
    /// The app, while it is connected: the page's commands go to it.
    var app: LiveApp?
  }

  private let files: Locked<[File]>

  init(_ paths: [String]) {
    self.files = Locked(paths.map { File(path: $0, live: nil) })
  }

  var all: [File] { self.files.withLock { $0 } }

  /// Adds the file `app`'s session is written to.
  func add(_ path: String, app: LiveApp) {
    self.files.withLock {
      $0.append(File(path: path, live: Live(isConnected: true, leftAt: nil, app: app)))
    }
  }

  func left(_ path: String) {
    self.files.withLock { files in
      for index in files.indices where files[index].path == path {
        files[index].live = Live(isConnected: false, leftAt: Date(), app: nil)
      }
    }
  }
}

/// An app connected to the server, to which the page's commands go: each is answered by the
/// app, or, when the app does not answer within ``answerTimeout`` or leaves, by the server.
final class LiveApp: Sendable {
  /// How long the page waits for the app to answer: the app does a command on its main thread.
  static let answerTimeout: Duration = .seconds(5)

  private let socket: AsyncSocket
  /// Held while a message to the app is written.
  let writes = AsyncLock()
  private let state = Locked(State())

  private struct State {
    var nextID = 1
    /// The commands sent and not answered yet: the page waiting for each, once it waits, and the
    /// answer of one answered before.
    var commands: [Int: Command] = [:]
    var hasLeft = false
  }

  private struct Command {
    var waiting: CheckedContinuation<LiveCommandResult, Never>?
    var result: LiveCommandResult?
  }

  init(socket: AsyncSocket) {
    self.socket = socket
  }

  /// Sends `command` to the app, and returns its answer.
  func perform(_ command: LiveCommand) async -> LiveCommandResult {
    let id: Int? = self.state.withLock { state in
      guard !state.hasLeft else { return nil }
      defer { state.nextID += 1 }
      state.commands[state.nextID] = Command()
      return state.nextID
    }
    guard let id else { return .refused("the app has left") }
    // NB: Written in a task of its own, which the page does not wait for: a write that waits
    // for an app that reads nothing (stopped at a breakpoint, its socket's buffer full) holds
    // the app's lock, and the page is answered when the time is up all the same. Nothing is
    // written once the app has left: its socket is closed then.
    Task {
      do {
        try await self.writes.withLock {
          guard !self.state.withLock({ $0.hasLeft }) else { throw CancellationError() }
          try await self.socket.write(Data(LiveMessage.command(id: id, command).frame))
        }
      } catch {
        self.answered(id: id, result: .refused("the app has left"))
      }
    }
    return await withTaskGroup(of: LiveCommandResult?.self) { group in
      group.addTask {
        await withCheckedContinuation { continuation in
          let result = self.state.withLock { state -> LiveCommandResult? in
            guard let result = state.commands[id]?.result else {
              state.commands[id]?.waiting = continuation
              return nil
            }
            state.commands[id] = nil
            return result
          }
          if let result { continuation.resume(returning: result) }
        }
      }
      group.addTask {
        // NB: Counted from the request: the app does a command it gets later than this no more.
        try? await Task.sleep(for: Self.answerTimeout)
        self.answered(
          id: id,
          result: .refused(
            "the app did not answer within \(Self.answerTimeout.components.seconds) s: its main thread may be busy, or stopped in a debugger"
          ))
        return nil
      }
      var result: LiveCommandResult = .refused("the app has left")
      while let next = await group.next() {
        if let next {
          result = next
          group.cancelAll()
        }
      }
      return result
    }
  }

  /// The app answered command `id`.
  func answered(id: Int, refusal: String?, detail: String) {
    self.answered(id: id, result: refusal.map(LiveCommandResult.refused) ?? .done(detail))
  }

  /// Hands `result` to the page waiting for command `id`; the first result of a command is its
  /// answer, and one for a command not sent, or answered already, is dropped.
  private func answered(id: Int, result: LiveCommandResult) {
    let waiting = self.state.withLock { state -> CheckedContinuation<LiveCommandResult, Never>? in
      guard let command = state.commands[id], command.result == nil else { return nil }
      guard let waiting = command.waiting else {
        state.commands[id]?.result = result
        return nil
      }
      state.commands[id] = nil
      return waiting
    }
    waiting?.resume(returning: result)
  }

  /// The app has left: once a command being written is, nothing more is written to it, and
  /// the commands waiting for it are answered so.
  func end() async {
    await self.writes.withLock { self.leave() }
  }

  /// The app has left, or is being refused: commands waiting for it are answered so.
  func leave() {
    let ids = self.state.withLock { state in
      state.hasLeft = true
      return Array(state.commands.keys)
    }
    for id in ids { self.answered(id: id, result: .refused("the app has left")) }
  }
}

/// What came of a command to an app.
enum LiveCommandResult: Sendable, Equatable {
  /// Done: what the app did.
  case done(String)
  /// Not done: why.
  case refused(String)
}
