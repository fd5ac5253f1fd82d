import ArgumentParser
import FlyingFox
import Foundation
import TCATraceFile
import ToolSupport

/// `tcatrace serve FILE [FILE…]`: the traces in a browser.
///
/// A program of its own, `tcatrace-serve`, which `tcatrace serve` runs: see `tcatrace`'s `Serve`.
@main
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tcatrace serve",
    abstract: "See traces in a browser: the action log, the state after each action, the leaks.",
    discussion: """
      Serves a page, and the read-only JSON API it reads the files through, on the loopback \
      address only, until interrupted (Ctrl-C). It prints the page's URL, which holds a \
      token made at start: every request needs it, and requests to another host name are \
      refused. A file that cannot be read is named in the page with the one line the other \
      commands give, and the others are served; when none can be read, that line is printed \
      for the first, and the exit code is 2. Files are never changed.

      With --live DIR, it also takes apps: it prints a line TCATRACE_DEBUGGER=HOST:PORT:SECRET, \
      and an app whose TraceRecorder finds that in its environment streams its session here as \
      it records, into a trace file of its own in DIR, which the page shows as it grows. An \
      app must present the secret, made at start; one that does not, or that sends what is not \
      a trace's rows, is refused with a one-line reason, printed here too.
      """,
    version: TCATraceVersion.current
  )

  /// Runs the server, with `tcatrace`'s exit codes: 0 when stopped, 2 for usage or bad input.
  static func main() async {
    await runAsTool()
  }

  @Argument(help: "The trace files (SQLite files written by a TraceRecorder).")
  var files: [String] = []

  @Option(help: "The port to listen on. Default: one the system picks.")
  var port: Int = 0

  @Flag(help: "Open the page in the default browser.")
  var open = false

  @Option(
    help: ArgumentHelp(
      "Take apps' sessions live, each into a trace file of its own in this directory (made if missing).",
      valueName: "directory"))
  var live: String?

  @Option(
    help: ArgumentHelp(
      "The IPv4 address apps connect to, with --live. Default: 127.0.0.1 (this machine only).",
      valueName: "address"))
  var liveHost = "127.0.0.1"

  @Option(
    help: ArgumentHelp(
      "The port apps connect to, with --live. Default: one the system picks.", valueName: "port"))
  var livePort: Int = 0

  /// The bytes one app's session may send: for tests of the bound.
  @Option(help: .hidden)
  var liveSessionBytes: Int = LiveServer.maximumSessionBytes

  /// The bytes all apps' sessions may send in one run: for tests of the bound.
  @Option(help: .hidden)
  var liveTotalBytes: Int = LiveServer.maximumTotalBytes

  /// The seconds an app has to say hello: for tests of the bound.
  @Option(help: .hidden)
  var liveHelloSeconds: Int = 10

  func validate() throws {
    guard !self.files.isEmpty || self.live != nil else {
      throw ValidationError("give at least one trace file, or --live DIR")
    }
    guard (0...65_535).contains(self.port) else {
      throw ValidationError("--port is a port number, from 0 (any) to 65535")
    }
    guard (0...65_535).contains(self.livePort) else {
      throw ValidationError("--live-port is a port number, from 0 (any) to 65535")
    }
  }

  func run() async throws {
    for file in self.files where !FileManager.default.fileExists(atPath: file) {
      throw CLIError(message: "'\(file)' does not exist: give the path of a trace file.")
    }
    // NB: A file that cannot be read beside others that can is named in the page. When none
    // can, a page would show nothing: the first file's line, as the other commands give it.
    // The files are opened only until one can be.
    if self.live == nil, let first = Self.refusal(of: self.files[0]),
      self.files.dropFirst().allSatisfy({ Self.refusal(of: $0) != nil })
    {
      throw CLIError(message: first)
    }
    let files = ServedFiles(self.files)
    var liveServer: LiveServer?
    if let directory = self.live {
      liveServer = try await self.liveServer(in: directory, files: files)
    }
    let token = Self.makeToken()
    let address: sockaddr_in
    do {
      address = try .inet(ip4: "127.0.0.1", port: UInt16(self.port))
    } catch {
      throw CLIError(message: "cannot listen on 127.0.0.1:\(self.port).")
    }
    // NB: Built with the port once it is known: the handler checks `Host` against it.
    let handler = ServerHandler()
    let server = HTTPServer(address: address, logger: .disabled, handler: handler)
    let running = Task { try await server.run() }
    do {
      try await server.waitUntilListening(timeout: 10)
    } catch {
      running.cancel()
      throw CLIError(
        message:
          "cannot listen on 127.0.0.1:\(self.port): \(Self.firstLine(of: error)); choose another --port."
      )
    }
    guard case let .ip4(_, port)? = await server.listeningAddress else {
      running.cancel()
      throw CLIError(message: "cannot listen on 127.0.0.1:\(self.port).")
    }
    await handler.serve(
      TraceServer(
        files: files, token: token, isLive: liveServer != nil,
        hosts: ["127.0.0.1:\(port)", "localhost:\(port)"]))
    let url = "http://127.0.0.1:\(port)/?token=\(token)"
    print("Serving \(self.files.count) file\(self.files.count == 1 ? "" : "s") at \(url)")
    let takingApps = liveServer.map { live in Task { await live.run() } }
    if let liveServer, let directory = self.live {
      print("Taking apps' sessions into \(directory): start an app with")
      print(liveServer.environmentLine)
    }
    print("Press Ctrl-C to stop.")
    fflush(nil)
    if self.open { Self.openInBrowser(url) }
    await Self.waitForInterrupt()
    // NB: Each app's file is closed before the server ends: none is left with its `-wal`.
    liveServer?.stop()
    takingApps?.cancel()
    await takingApps?.value
    await server.stop(timeout: 1)
    running.cancel()
    print("Stopped.")
  }

  /// Makes `directory` if it is missing, and listens for apps.
  private func liveServer(in directory: String, files: ServedFiles) async throws -> LiveServer {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw CLIError(message: "'\(directory)' is not a directory: give --live a directory.")
      }
    } else {
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
      } catch {
        throw CLIError(
          message:
            "cannot make '\(directory)': \(Self.firstLine(of: error)); give --live a directory you can write."
        )
      }
    }
    let secret = try Self.liveSecret(in: directory)
    do {
      return try await LiveServer(
        directory: directory, host: self.liveHost, port: UInt16(self.livePort),
        secret: secret, files: files, maximumSessionBytes: self.liveSessionBytes,
        maximumTotalBytes: self.liveTotalBytes,
        helloTimeout: .seconds(max(1, self.liveHelloSeconds)))
    } catch {
      throw CLIError(
        message:
          "cannot listen for apps on \(self.liveHost):\(self.livePort): \(Self.firstLine(of: error)); choose another --live-host or --live-port."
      )
    }
  }

  /// The secret apps present, kept in `directory/.tcatrace-live-secret` (readable by its owner
  /// only): a server started again on the same directory takes the same apps, so that the line
  /// in an Xcode scheme stays good, and an app whose server went away finds it again.
  private static func liveSecret(in directory: String) throws -> String {
    let path = (directory as NSString).appendingPathComponent(".tcatrace-live-secret")
    if let data = FileManager.default.contents(atPath: path) {
      let kept = String(decoding: data, as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines)
      if kept.count == 64, kept.allSatisfy(\.isHexDigit) { return kept.lowercased() }
    }
    let secret = Self.makeToken()
    try? FileManager.default.removeItem(atPath: path)
    guard
      FileManager.default.createFile(
        atPath: path, contents: Data((secret + "\n").utf8),
        attributes: [.posixPermissions: 0o600])
    else {
      throw CLIError(
        message: "cannot write '\(path)': give --live a directory you can write.")
    }
    return secret
  }

  /// Why `file` cannot be opened as a trace, in the commands' one line; `nil` when it can.
  /// Only its header and schema are read: its pages are checked as the page reads them.
  private static func refusal(of file: String) -> String? {
    do throws(TraceFileError) {
      _ = try TraceReader(path: file)
      return nil
    } catch {
      return error.cliDescription
    }
  }

  /// 32 random bytes, in hexadecimal.
  static func makeToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in
      String(cFormat: "%02x", UInt8.random(in: .min ... .max, using: &generator))
    }
    .joined()
  }

  private static func firstLine(of error: any Error) -> String {
    "\(error)".split(separator: "\n").first.map(String.init) ?? "unknown"
  }

  /// Returns at the first SIGINT or SIGTERM.
  private static func waitForInterrupt() async {
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let once = Once(continuation)
      let sources = [SIGINT, SIGTERM].map {
        DispatchSource.makeSignalSource(signal: $0, queue: .global())
      }
      for source in sources {
        source.setEventHandler {
          for source in sources { source.cancel() }
          once.resume()
        }
        source.resume()
      }
      Interrupts.keep(sources)
    }
  }

  private static func openInBrowser(_ url: String) {
    let process = Process()
    #if os(macOS)
      process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
      process.arguments = [url]
    #else
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["xdg-open", url]
    #endif
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      printError("Could not open a browser: open \(url) yourself.")
    }
  }
}

/// The server's handler, given the trace server once the port it listens on is known; until
/// then, every request is refused.
actor ServerHandler: HTTPHandler {
  private var server: TraceServer?

  func serve(_ server: TraceServer) {
    self.server = server
  }

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard let server = self.server else {
      return TraceServer.error(.serviceUnavailable, "starting: try again")
    }
    return try await server.handleRequest(request)
  }
}

/// Resumes a continuation once, from whichever signal comes first.
private final class Once: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Void, Never>?

  init(_ continuation: CheckedContinuation<Void, Never>) {
    self.continuation = continuation
  }

  func resume() {
    self.lock.lock()
    let continuation = self.continuation
    self.continuation = nil
    self.lock.unlock()
    continuation?.resume()
  }
}

/// The signal sources, kept for the process's life.
private enum Interrupts {
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
  static func keep(_ sources: [any DispatchSourceSignal]) {
    Self.sources = sources
  }
}
