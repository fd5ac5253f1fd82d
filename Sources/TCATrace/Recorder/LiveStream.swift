import FlyingSocks
import Foundation
import RuntimeSupport
import TCATraceFile

/// Where `tcatrace serve --live` takes apps' sessions: the line it prints,
/// `TCATRACE_DEBUGGER=HOST:PORT:SECRET`, which an app's environment carries.
struct DebuggerAddress: Equatable, Sendable {
  /// The environment variable a recorder reads.
  static let environmentVariable = "TCATRACE_DEBUGGER"

  var host: String
  var port: UInt16
  var secret: String

  /// `HOST:PORT:SECRET`, as `tcatrace serve --live` prints it; `nil` for anything else.
  init?(_ value: String) {
    let parts = value.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, let port = UInt16(parts[1]), port > 0,
      !parts[2].isEmpty
    else { return nil }
    self.host = String(parts[0])
    self.port = port
    self.secret = String(parts[2])
  }

  /// The address in this process's environment: `.none` when the variable is not set, `.some(nil)`
  /// when it is set to something that is not an address.
  static var fromEnvironment: DebuggerAddress?? {
    guard let value = ProcessInfo.processInfo.environment[Self.environmentVariable] else {
      return .none
    }
    return .some(DebuggerAddress(value))
  }
}

/// Streams a recorder's session to `tcatrace serve --live` as the recorder writes it: what the
/// writer has committed to the trace file, read from the file (``LiveSessionFeed``), so that
/// what is sent is what is written, redacted as it is.
///
/// It runs in a task of its own: the store's thread never waits for it, nor for the network.
/// A connection refused, or lost, is reported once, and the app goes on.
final class LiveStream: Sendable {
  /// How often the file is read for what the writer committed since.
  static let interval: Duration = .milliseconds(50)

  private let address: DebuggerAddress
  private let tracePath: String
  private let app: String
  private let sessionID: @Sendable () -> Int64?
  private let report: @Sendable (String) -> Void
  private let state = Locked(State())
  private let task = Locked<Task<Void, Never>?>(nil)

  private struct State {
    /// Whether the file may be read: not while its recorder closes it.
    var isPaused = false
    /// Whether a read of the file is under way.
    var isReading = false
    /// Whether the session has been sent whole, or the stream has given up.
    var isDone = false
  }

  init(
    address: DebuggerAddress, tracePath: String, app: String,
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

  private func run() async {
    defer { self.state.withLock { $0.isDone = true } }
    let socket: AsyncSocket
    do {
      socket = try await AsyncSocket.connected(
        to: try sockaddr_in.inet(ip4: self.address.host, port: self.address.port), timeout: 5)
    } catch {
      self.report(
        "TCATrace could not connect to \(self.where_) (\(error)); the app goes on, recording to its own file."
      )
      return
    }
    defer { try? socket.close() }
    do {
      try await socket.write(
        Data(
          LiveMessage.hello(
            version: LiveProtocol.version, secret: self.address.secret, app: self.app
          ).frame))
      var reader = LiveMessageReader()
      var answer: LiveMessage?
      while answer == nil {
        reader.append(try await socket.read(atMost: 4096))
        answer = try reader.next()
      }
      if case let .refused(reason)? = answer {
        self.report(
          "\(self.where_) refused this app: \(reason). The app goes on, recording to its own file."
        )
        return
      }
      guard answer == .welcome else {
        throw LiveProtocolError("the server answered the hello with another message")
      }
      var feed: LiveSessionFeed?
      while !Task.isCancelled {
        if feed == nil, let session = self.sessionID() {
          feed = LiveSessionFeed(path: self.tracePath, session: session)
        }
        if let feed, let messages = try self.read(feed) {
          if !messages.isEmpty {
            try await socket.write(Data(messages.flatMap(\.frame)))
          }
          if feed.isComplete { return }
        }
        try await Task.sleep(for: Self.interval)
      }
    } catch is CancellationError {
      return
    } catch {
      self.report(
        "TCATrace lost its connection to \(self.where_) (\(error)); the app goes on, recording to its own file."
      )
    }
  }

  /// What the writer committed since the last read; `nil` while the file may not be read.
  private func read(_ feed: LiveSessionFeed) throws -> [LiveMessage]? {
    let mayRead = self.state.withLock { state in
      guard !state.isPaused else { return false }
      state.isReading = true
      return true
    }
    guard mayRead else { return nil }
    defer { self.state.withLock { $0.isReading = false } }
    return try feed.next()
  }

  /// Stops reading the file, once the read under way (if one is) has ended: its recorder is
  /// about to close it, and must be its last connection to leave no `-wal` beside it.
  func pause() async {
    self.state.withLock { $0.isPaused = true }
    let deadline = ContinuousClock.now + .seconds(2)
    while self.state.withLock({ $0.isReading }), ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(2))
    }
  }

  /// Stops streaming at once.
  func cancel() {
    self.state.withLock { $0.isPaused = true }
    self.task.withLock { $0?.cancel() }
  }

  /// Reads the file again, until the session's end is sent, waiting up to `timeout` for it;
  /// then stops.
  func finish(within timeout: Duration) async {
    self.state.withLock { $0.isPaused = false }
    let deadline = ContinuousClock.now + timeout
    while !self.state.withLock({ $0.isDone }), ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    self.task.withLock { $0?.cancel() }
  }
}
