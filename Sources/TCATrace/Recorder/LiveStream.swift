import FlyingSocks
import Foundation
import RuntimeSupport
import TCATraceFile

/// Where a recorder streams its session as it records: a `tcatrace serve --live` server, which
/// prints what an app needs as `TCATRACE_DEBUGGER=HOST:PORT:SECRET`.
///
/// A recorder whose process has `TCATRACE_DEBUGGER` in its environment streams there with no
/// change to the app's code; `RecordingStore(initialState:recorder:debugger:reducer:…)` names
/// one in code, which is used instead (an address on the local network, for a device):
///
/// ```swift
/// let store = RecordingStore(
///   initialState: AppFeature.State(), recorder: recorder,
///   debugger: TraceDebugger(host: "192.168.1.20", port: 40211, secret: "9b1e…")
/// ) {
///   AppFeature()
/// }
/// ```
public struct TraceDebugger: Equatable, Sendable, CustomStringConvertible {
  /// The environment variable a recorder reads.
  public static let environmentVariable = "TCATRACE_DEBUGGER"

  /// The server's IPv4 address.
  public var host: String
  /// The port it takes apps on.
  public var port: UInt16
  /// The secret it made, which an app presents.
  public var secret: String

  public init(host: String, port: UInt16, secret: String) {
    self.host = host
    self.port = port
    self.secret = secret
  }

  /// `HOST:PORT`, without the secret.
  public var description: String { "\(self.host):\(self.port)" }

  /// `HOST:PORT:SECRET`, as `tcatrace serve --live` prints it after `TCATRACE_DEBUGGER=`; `nil`
  /// for anything else.
  public init?(_ value: String) {
    let parts = value.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, let port = UInt16(parts[1]), port > 0,
      !parts[2].isEmpty
    else { return nil }
    self.init(host: String(parts[0]), port: port, secret: String(parts[2]))
  }

  /// The debugger in this process's environment: `.none` when the variable is not set,
  /// `.some(nil)` when it is set to something that is not one.
  static var fromEnvironment: TraceDebugger?? {
    guard let value = ProcessInfo.processInfo.environment[Self.environmentVariable] else {
      return .none
    }
    return .some(TraceDebugger(value))
  }
}

/// Streams a recorder's session to `tcatrace serve --live` as the recorder writes it: what the
/// writer has committed to the trace file, read from the file (``LiveSessionFeed``), so that
/// what is sent is what is written, redacted as it is.
///
/// It runs in a task of its own: the store's thread never waits for it, nor for the network.
/// A connection refused, or lost, is reported once, and the app goes on; a lost one is tried
/// again.
final class LiveStream: Sendable {
  /// How often the file is read for what the writer committed since.
  static let interval: Duration = .milliseconds(50)

  private let address: TraceDebugger
  private let tracePath: String
  private let app: String
  private let sessionID: @Sendable () -> Int64?
  private let report: @Sendable (String) -> Void
  private let state = Locked(State())
  private let task = Locked<Task<Void, Never>?>(nil)
  /// Does what the page asks of the app; `nil` for a store that cannot be driven.
  private let driver = Locked<LiveDriver?>(nil)

  /// Does what the page asks of the app, read at the instant given: the store a
  /// ``RecordingStore`` drives.
  typealias LiveDriver =
    @Sendable (LiveCommand, ContinuousClock.Instant) async -> (refusal: String?, detail: String)

  /// How long after it was read a command may still be done: the server answers the page for
  /// the app after this long, and one done later would surprise whoever asked.
  static let commandTimeout: Duration = .seconds(5)

  /// Sets what does the page's commands: a ``RecordingStore`` sets its own.
  func drive(with driver: @escaping LiveDriver) {
    self.driver.withLock { $0 = driver }
  }

  private struct State {
    /// Whether the file may be read: not while its recorder closes it, or lets go of it as the
    /// app leaves the foreground.
    var isPaused = false
    /// Whether the recorder has closed the file for good: it is then read as a file nobody
    /// writes.
    var isClosed = false
    /// Whether a read of the file is under way.
    var isReading = false
    /// Whether the session has been sent whole, or the stream has given up.
    var isDone = false
    /// Whether a server has taken the app's hello since the stream began.
    var hasConnected = false
    /// Whether the recorder is closing the file for good: the app's return no longer resumes
    /// reading.
    var isClosing = false
  }

  init(
    address: TraceDebugger, tracePath: String, app: String,
    sessionID: @escaping @Sendable () -> Int64?, report: @escaping @Sendable (String) -> Void
  ) {
    self.address = address
    self.tracePath = tracePath
    self.app = app
    self.sessionID = sessionID
    self.report = report
    let task = Task.detached(priority: .utility) { [self] in await self.run() }
    self.task.withLock { $0 = task }
  }

  private var where_: String { "tcatrace serve at \(self.address.host):\(self.address.port)" }

  /// How a connection ended.
  private enum Ending {
    /// The session was sent whole, or the stream was cancelled.
    case done
    /// The server refused the app: trying again would not help.
    case refused(String)
    /// The app's own file cannot be read.
    case stopped(String)
    /// No server answered, or the connection broke.
    case lost(String)
  }

  /// Connects and streams until the session has been sent whole; when no server answers, or
  /// the connection breaks, it says so once, and tries again (after 250 ms, then twice as long
  /// each time, up to 4 s), sending the session from its start to the server that comes back.
  private func run() async {
    defer { self.state.withLock { $0.isDone = true } }
    var hasReportedLoss = false
    var retry: Duration = .milliseconds(250)
    while !Task.isCancelled {
      switch await self.stream() {
      case .done:
        return
      case let .refused(reason):
        self.report(
          "\(self.where_) refused this app: \(reason). The app goes on, recording to its own file."
        )
        return
      case let .stopped(reason):
        self.report(
          "TCATrace stops streaming to \(self.where_): \(reason). The app goes on, recording to its own file."
        )
        return
      case let .lost(reason):
        if !hasReportedLoss {
          hasReportedLoss = true
          self.report(
            """
            TCATrace cannot stream to \(self.where_) (\(reason)); the app goes on, recording to \
            its own file, and sends the session again, from its start, when the server is back.
            """)
        }
        // NB: Soon at first, for a server restarted; then every 4 s at most.
        try? await Task.sleep(for: retry)
        retry = min(retry * 2, .seconds(4))
      }
    }
  }

  /// One connection: the hello, then the session from its start.
  private func stream() async -> Ending {
    guard (try? sockaddr_in.inet(ip4: self.address.host, port: self.address.port)) != nil else {
      return .stopped("'\(self.address.host)' is not an IPv4 address")
    }
    let socket: AsyncSocket
    do {
      socket = try await self.connect()
    } catch {
      return Task.isCancelled ? .done : .lost("no server answered: \(error)")
    }
    defer { try? socket.close() }
    // NB: What came after the answer to the hello stays in the reader, for the commands' side.
    var reader = LiveMessageReader()
    do {
      try await socket.write(
        Data(
          LiveMessage.hello(
            version: LiveProtocol.version, secret: self.address.secret, app: self.app
          ).frame))
      let answered = try await Self.within(.seconds(5)) {
        var reading = LiveMessageReader()
        while true {
          if let message = try reading.next() { return (message, reading) }
          reading.append(try await socket.read(atMost: 4096))
        }
      }
      let answer = answered?.0
      if let answered { reader = answered.1 }
      switch answer {
      case .welcome?: self.state.withLock { $0.hasConnected = true }
      case let .refused(reason)?: return .refused(reason)
      case let .busy(reason)?: return .lost(reason)
      case nil: return .lost("no answer to its hello within 5 s")
      default: return .refused("the server answered the hello with another message")
      }
    } catch {
      return Task.isCancelled ? .done : .lost("the connection broke: \(error)")
    }
    // NB: From here the server may send commands, which a task of their own reads and answers
    // while this one sends the rows; each message is written whole, holding `writes`.
    let connection = Connection()
    let ending = await withTaskGroup(of: Void.self) { [reader] group in
      group.addTask {
        await self.takeCommands(from: socket, reader: reader, connection: connection)
      }
      let ending = await self.sendRows(to: socket, connection: connection)
      group.cancelAll()
      return ending
    }
    // NB: A lock lasts no longer than the connection of the page that set it: an app whose
    // server went away would otherwise ignore its user until it is started again.
    if let driver = self.driver.withLock({ $0 }) { _ = await driver(.unlock, .now) }
    return ending
  }

  /// What the two sides of one connection share.
  private final class Connection: Sendable {
    let writes = AsyncLock()
    /// The server's reason, once it refused what it was sent.
    let refusal = Locked<String?>(nil)
    /// Whether the server closed the connection, or it broke.
    let hasEnded = Locked(false)
  }

  /// Sends the session, from its start, as the recorder writes it, until it has been sent whole.
  private func sendRows(to socket: AsyncSocket, connection: Connection) async -> Ending {
    do {
      var feed: LiveSessionFeed?
      while !Task.isCancelled {
        if connection.hasEnded.withLock({ $0 }) {
          if let reason = connection.refusal.withLock({ $0 }) { return .refused(reason) }
          return .lost("the server closed the connection")
        }
        if feed == nil, let session = self.sessionID() {
          feed = LiveSessionFeed(path: self.tracePath, session: session)
        }
        if let feed, let messages = try self.read(feed) {
          if !messages.isEmpty {
            try await connection.writes.withLock {
              try await socket.write(Data(messages.flatMap(\.frame)))
            }
          }
          if feed.isComplete { return .done }
        }
        try await Task.sleep(for: Self.interval)
      }
      return .done
    } catch let error as TraceFileError {
      // NB: The app's own file cannot be read: the recorder reports its own failures.
      return .stopped("this app's trace file cannot be read (\(error.message))")
    } catch {
      if Task.isCancelled { return .done }
      // NB: A server that refused what it was sent answered why before it closed.
      let deadline = ContinuousClock.now + .milliseconds(500)
      while !connection.hasEnded.withLock({ $0 }), ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(5))
      }
      if let reason = connection.refusal.withLock({ $0 }) { return .refused(reason) }
      return .lost("the connection broke: \(error)")
    }
  }

  /// Reads what the server sends once it took the app: the page's commands, each done by the
  /// store's driver and answered; or the reason it refused what it was sent.
  private func takeCommands(
    from socket: AsyncSocket, reader: LiveMessageReader, connection: Connection
  ) async {
    defer { connection.hasEnded.withLock { $0 = true } }
    var reader = reader
    do {
      while !Task.isCancelled {
        while let message = try reader.next() {
          switch message {
          case let .command(id, command):
            let (refusal, detail) = await self.perform(command, read: .now)
            try await connection.writes.withLock {
              try await socket.write(
                Data(LiveMessage.answer(id: id, refusal: refusal, detail: detail).frame))
            }
          case let .refused(reason):
            connection.refusal.withLock { $0 = reason }
            return
          default:
            // NB: Nothing else comes from a server; what does is not acted on.
            break
          }
        }
        reader.append(try await socket.read(atMost: 65_536))
      }
    } catch {
      // NB: The connection broke, or the server sent what is not the protocol: the rows' side
      // finds out as it writes, and tries again.
    }
  }

  /// Does `command` with the store's driver: the reason it was not done, or what was done.
  private func perform(
    _ command: LiveCommand, read: ContinuousClock.Instant
  ) async -> (refusal: String?, detail: String) {
    guard let driver = self.driver.withLock({ $0 }) else {
      return (
        """
        this app's store cannot be driven: it was built by the app itself (recording(to:)); \
        make it a RecordingStore to drive it from the page
        """, ""
      )
    }
    return await driver(command, read)
  }

  /// What `operation` returns, `nil` when it has not returned within `timeout`: it is then
  /// cancelled (a socket's read or connect ends when cancelled).
  private static func within<Result: Sendable>(
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

  /// A connection to the server, within 5 s.
  private func connect() async throws -> AsyncSocket {
    let address = try sockaddr_in.inet(ip4: self.address.host, port: self.address.port)
    let socket = try Socket(domain: AF_INET, type: .stream)
    #if canImport(Darwin)
      // NB: Else a write to a connection the server has closed raises SIGPIPE, which ends the
      // app. FlyingFox's server sets the same on its sockets; on Linux, FlyingSocks sends with
      // MSG_NOSIGNAL.
      try socket.setValue(true, for: .noSIGPIPE)
    #endif
    let connection = try AsyncSocket(socket: socket, pool: try await .client)
    let isConnected = try await Self.within(.seconds(5)) {
      try await connection.connect(to: address)
      return true
    }
    guard isConnected == true else {
      try? connection.close()
      throw LiveProtocolError("no answer within 5 s")
    }
    return connection
  }

  /// What the writer committed since the last read; `nil` while the file may not be read.
  private func read(_ feed: LiveSessionFeed) throws -> [LiveMessage]? {
    let (mayRead, isClosed) = self.state.withLock { state in
      guard !state.isPaused else { return (false, false) }
      state.isReading = true
      return (true, state.isClosed)
    }
    guard mayRead else { return nil }
    defer { self.state.withLock { $0.isReading = false } }
    return try feed.next(live: !isClosed)
  }

  /// Stops reading the file, once the read under way (if one is) has ended: its recorder is
  /// about to close it, and must be its last connection to leave no `-wal` beside it.
  func pause() async {
    self.state.withLock {
      $0.isPaused = true
      $0.isClosing = true
    }
    let deadline = ContinuousClock.now + .seconds(2)
    while self.state.withLock({ $0.isReading }), ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(2))
    }
  }

  /// ``pause()``, blocking: for the app's thread as the app leaves the foreground, when the
  /// recorder lets go of its file. A read takes milliseconds; it waits 1 s at most.
  func pauseNow() {
    self.state.withLock { $0.isPaused = true }
    let deadline = ContinuousClock.now + .seconds(1)
    while self.state.withLock({ $0.isReading }), ContinuousClock.now < deadline {
      usleep(1_000)
    }
  }

  /// Reads the file again, as the app returns and its recorder opens it again.
  func resume() {
    self.state.withLock { state in
      if !state.isClosing { state.isPaused = false }
    }
  }

  /// Stops streaming, once the read under way (if one is) has ended: the recorder goes without
  /// being closed, and its writer closes the file behind it.
  func cancel() {
    self.pauseNow()
    self.state.withLock { $0.isClosing = true }
    self.task.withLock { $0?.cancel() }
  }

  /// Reads the file again, until the session's end is sent, waiting up to `timeout` for it;
  /// then stops.
  func finish(within timeout: Duration) async {
    // NB: Never connected, there is nobody to send the rest to: it stops at once, rather than
    // hold the app's `close()` for a server that is not there. One that has been may be back.
    let hasConnected = self.state.withLock {
      $0.isPaused = false
      $0.isClosed = true
      return $0.hasConnected
    }
    guard hasConnected else {
      self.task.withLock { $0?.cancel() }
      return
    }
    let deadline = ContinuousClock.now + timeout
    while !self.state.withLock({ $0.isDone }), ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    self.task.withLock { $0?.cancel() }
  }
}
