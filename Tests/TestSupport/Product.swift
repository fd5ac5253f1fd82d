import Foundation

/// An executable product of this package, built beside the test bundle, run as a user would.
public struct Product: Sendable {
  public struct Result: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Whether a signal ended the program (then `status` is the signal's number).
    public var wasSignalled = false
    /// From the program's launch to its end: what it took, without the wait for a thread and
    /// for the launch that come before it when many tests run programs at once.
    public var duration: Duration = .zero
  }

  /// The product's name: `tcatrace`, `tcatrace-lint`.
  public var name: String

  public init(_ name: String) {
    self.name = name
  }

  /// The `tcatrace` command.
  public static let tcatrace = Product("tcatrace")

  /// The recorder of the example app that `tcatrace demo` runs.
  public static let tcatraceDemo = Product("tcatrace-demo")

  /// The linter that `tcatrace lint` runs.
  public static let tcatraceLint = Product("tcatrace-lint")

  /// The binary, in the build's products directory.
  public var executableURL: URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // NB: On Linux the test runner is the bundle itself; on macOS it is `xctest`, and the
    // bundle is in the products directory.
    if !FileManager.default.fileExists(atPath: directory.appendingPathComponent(self.name).path) {
      directory = Bundle.main.bundleURL.deletingLastPathComponent()
    }
    return directory.appendingPathComponent(self.name)
  }

  /// A copy of the binary in `directory`, alone there (a hard link where the file system
  /// allows it): to run it where none of the programs built beside it are.
  public func copy(into directory: URL) throws -> URL {
    let copy = directory.appendingPathComponent(self.name)
    do {
      try FileManager.default.linkItem(at: self.executableURL, to: copy)
    } catch {
      try FileManager.default.copyItem(at: self.executableURL, to: copy)
    }
    return copy
  }

  /// A process for the product with `arguments`, colour off and no standard input;
  /// `environment` is added to this process's.
  public func process(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
  ) -> Process {
    _ = interruptsEndPrograms
    let process = Process()
    process.executableURL = self.executableURL
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var inherited = ProcessInfo.processInfo.environment
    inherited["NO_COLOR"] = "1"
    process.environment = inherited.merging(environment) { $1 }
    process.standardInput = FileHandle.nullDevice
    return process
  }

  /// Runs the product with `arguments` to the end; `executableURL`, if given, is a copy of the
  /// product elsewhere.
  ///
  /// NB: The process is run and waited for on a thread of its own (see ``onThreadOfItsOwn(_:)``),
  /// and killed past ``runTimeLimit``.
  public func run(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
    executableURL: URL? = nil
  ) async throws -> Result {
    let process = self.process(arguments, in: directory, environment: environment)
    if let executableURL { process.executableURL = executableURL }
    return try await process.runToEnd()
  }

  /// How long ``run(_:in:environment:executableURL:)`` lets a program run before it kills it.
  public static let runTimeLimit: Double = 180
}

extension Process {
  /// Runs the process to its end, on a thread of its own (see ``onThreadOfItsOwn(_:)``): what
  /// it printed, and how it ended. A process still running after `timeLimit` seconds is
  /// killed.
  public func runToEnd(timeLimit: Double = Product.runTimeLimit) async throws -> Product.Result {
    try await onThreadOfItsOwn { [self] in try self.runToEndBlocking(timeLimit: timeLimit) }
  }

  private func runToEndBlocking(timeLimit: Double) throws -> Product.Result {
    let stdout = Pipe()
    let stderr = Pipe()
    self.standardOutput = stdout
    self.standardError = stderr
    try self.start()
    let launched = ContinuousClock.now
    // NB: A program that never ends (a regression that follows a file it should refuse, say)
    // is killed, so that it fails its test rather than holding the suite until CI's limit.
    let pid = self.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog)
    // NB: Both pipes are drained before waiting, so that a full pipe cannot block the child.
    let errors = ReadToEnd(stderr.fileHandleForReading)
    let out = readToEnd(stdout.fileHandleForReading)
    self.waitUntilExit()
    watchdog.cancel()
    return Product.Result(
      status: self.terminationStatus,
      stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: errors.wait(), as: UTF8.self),
      wasSignalled: self.terminationReason == .uncaughtSignal,
      duration: ContinuousClock.now - launched
    )
  }
}

/// Reads a file handle to its end on a thread of its own.
private final class ReadToEnd: @unchecked Sendable {
  // NB: `data` is written by the reading thread before `done` is signalled, and read after.
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      self.data = readToEnd(handle)
      self.done.signal()
    }
  }

  func wait() -> Data {
    self.done.wait()
    return self.data
  }
}

/// Reads `handle` to its end.
///
/// NB: With `read(2)`, retried when a signal interrupts it: `FileHandle.readDataToEndOfFile()`
/// traps on `EINTR`, which the end of another child process (`SIGCHLD`) can cause while many
/// tests run programs at once.
func readToEnd(_ handle: FileHandle) -> Data {
  var data = Data()
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = buffer.withUnsafeMutableBytes {
      read(handle.fileDescriptor, $0.baseAddress, $0.count)
    }
    if count > 0 {
      data.append(contentsOf: buffer[..<count])
    } else if count == 0 || errno != EINTR {
      return data
    }
  }
}

/// Held while a process is launched.
///
/// NB: Foundation's `Process.run()` on Linux is not safe to call from many threads at once (it
/// crashed copying memory with hundreds of tests launching together); launching is quick, so
/// one at a time costs nothing, and the programs still run at the same time.
private let launchLock = NSLock()

/// Gives the programs the tests start the default response to an interrupt (`SIGINT`) and a
/// quit (`SIGQUIT`): they end, as a user who presses Control-C expects.
///
/// NB: A shell without job control starts a command run in the background (`swift test &`,
/// a CI step, a script) with both signals ignored, and a child inherits what its parent
/// ignores: a `tcatrace replay --follow` interrupted by a test then ran on, and the test
/// waiting for it held one of the few threads every test's tasks share, for good.
private let interruptsEndPrograms: Void = {
  signal(SIGINT, SIG_DFL)
  signal(SIGQUIT, SIG_DFL)
}()

extension Process {
  /// Waits for the process to end, on a thread of its own (see ``onThreadOfItsOwn(_:)``), for
  /// up to `seconds`; then kills it. Returns whether it ended by itself.
  public func end(within seconds: Double = 30) async throws -> Bool {
    let pid = self.processIdentifier
    return try await onThreadOfItsOwn { [self] in
      let deadline = Date(timeIntervalSinceNow: seconds)
      while self.isRunning, Date() < deadline { usleep(10_000) }
      guard self.isRunning else { return true }
      kill(pid, SIGKILL)
      self.waitUntilExit()
      return false
    }
  }
}

extension Process {
  /// Starts the process, one launch at a time (see `launchLock`).
  public func start() throws {
    try launchLock.withLock { try self.run() }
  }

  /// Starts the process with its standard output on a pipe, and returns a reader of its lines.
  public func runReadingLines() throws -> LineReader {
    let output = Pipe()
    self.standardOutput = output
    try self.start()
    return LineReader(output.fileHandleForReading)
  }
}
