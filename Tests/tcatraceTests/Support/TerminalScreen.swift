import Foundation
import Testing
import TestSupport

/// A program run in a real pseudo-terminal, as a user runs it: a tmux server of its own (its
/// socket in a temporary directory), keys typed with `send-keys`, the screen read with
/// `capture-pane`.
///
/// After the program ends, the shell prints `exit N` and the terminal's settings (`stty -a`),
/// so that a test can see that the program gave the terminal back.
final class TerminalScreen {
  static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  private let directory: TemporaryDirectory
  private let socket: String

  /// Starts `arguments` (a program and its arguments) on a screen of `rows` × `columns`.
  init(_ arguments: [String], in directory: URL? = nil, rows: Int = 30, columns: Int = 110) throws {
    self.directory = try TemporaryDirectory()
    self.socket = self.directory.path("tmux")
    let command = arguments.map(Self.quoted).joined(separator: " ")
    let cd = directory.map { "cd \(Self.quoted($0.path)) && " } ?? ""
    try self.tmux(
      [
        "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)",
        "\(cd)NO_COLOR=1 \(command); echo \"exit $?\"; stty -a; sleep 60",
      ]
    )
  }

  deinit {
    _ = try? self.tmux(["kill-server"])
  }

  /// Types `keys`, each a key name tmux knows (`j`, `Up`, `Enter`, `Escape`, `C-c`).
  func send(_ keys: String...) throws {
    try self.tmux(["send-keys", "-t", "0"] + keys)
  }

  /// Types `text` as it is.
  func type(_ text: String) throws {
    try self.tmux(["send-keys", "-t", "0", "-l", text])
  }

  /// Clears what the terminal shows, as another program writing to it might, without telling
  /// the program.
  func clearTerminal() throws {
    try self.tmux(["clear-history", "-t", "0"])
    try self.tmux(["send-keys", "-t", "0", "-R"])
  }

  func resize(rows: Int, columns: Int) throws {
    try self.tmux(["resize-window", "-t", "0", "-x", "\(columns)", "-y", "\(rows)"])
  }

  /// Sends `signal` to the program (the child of the pane's shell), as `kill` would.
  func signalProgram(_ signal: Int32) throws {
    let output = try self.tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"])
    let shell = output.trimmingCharacters(in: .whitespacesAndNewlines)
    // NB: Linux lists a process's children in /proc.
    let children = try String(
      contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
    guard let child = children.split(separator: " ").first.flatMap({ pid_t($0) }) else {
      throw NoProgram(shell: shell)
    }
    guard kill(child, signal) == 0 else { throw NoProgram(shell: shell) }
  }

  /// The screen's lines, trailing spaces left out.
  func lines() throws -> [String] {
    let screen = try self.tmux(["capture-pane", "-p", "-t", "0"])
    var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.reversed().drop(while: { $0 == " " }).reversed())
    }
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Waits until the screen satisfies `condition` (30 s at most: a loaded machine starts a
  /// program slowly), and returns its lines; records an issue with the screen when it never
  /// does.
  @discardableResult
  func waitUntil(
    _ description: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: ([String]) -> Bool
  ) async throws -> [String] {
    let deadline = ContinuousClock.now + .seconds(30)
    var lines = try self.lines()
    while !condition(lines) {
      guard ContinuousClock.now < deadline else {
        Issue.record(
          "the screen never showed \(description):\n\(lines.joined(separator: "\n"))",
          sourceLocation: sourceLocation)
        return lines
      }
      try await Task.sleep(for: .milliseconds(30))
      lines = try self.lines()
    }
    return lines
  }

  /// Waits until the last line, the status line, holds `text`; returns the screen's lines.
  @discardableResult
  func waitForStatus(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
    -> [String]
  {
    try await self.waitUntil("'\(text)' on the status line", sourceLocation: sourceLocation) {
      $0.last?.contains(text) == true
    }
  }

  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
    guard let tmux = Self.tmux else { throw NoTmux() }
    let outputPath = self.directory.path("output")
    let status = try Self.spawn(
      [tmux, "-S", self.socket] + arguments,
      environment: [
        "PATH=/usr/bin:/bin:/usr/local/bin", "TERM=xterm-256color",
        "HOME=\(self.directory.url.path)",
      ],
      output: outputPath
    )
    let text = try String(contentsOfFile: outputPath, encoding: .utf8)
    guard status == 0 else { throw TmuxFailed(arguments: arguments, output: text) }
    return text
  }

  /// Runs `arguments` with its output into the file at `output`, and waits for it to end.
  ///
  /// NB: Not `Process`: on Linux it learns that a program ended when a descriptor the program
  /// inherited closes, and the server `tmux new-session` leaves behind keeps it open, so the
  /// wait never ended. Here the program inherits nothing but its three standard descriptors
  /// (the pipes of tests running alongside would otherwise stay open in the server too), and
  /// the wait is `waitpid`'s.
  private static func spawn(_ arguments: [String], environment: [String], output: String) throws
    -> Int32
  {
    // NB: Each a struct in glibc, and a `typedef void *` in Darwin's `<spawn.h>`, which its
    // `_init` makes.
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
      var attributes: posix_spawnattr_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The program starts with no signal blocked and every signal's default action, as from a
    // shell: the thread that spawns it may block some (Dispatch's do), and tmux, its panes and
    // the program under test would inherit that.
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    #if os(Linux)
      // NB: Glibc declares it only for _GNU_SOURCE, which Swift's Glibc module is not built with.
      typealias AddCloseFrom =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
      else { throw SpawnFailed(arguments: arguments, code: ENOSYS) }
      _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    #else
      flags |= Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif
    posix_spawnattr_setflags(&attributes, flags)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw SpawnFailed(arguments: arguments, code: spawned) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
      guard errno == EINTR else { throw SpawnFailed(arguments: arguments, code: errno) }
    }
    // The exit status, as WEXITSTATUS reads it; a program ended by a signal counts as failed.
    return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  private static func quoted(_ argument: String) -> String {
    "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  struct NoTmux: Error {}
  struct NoProgram: Error {
    var shell: String
  }
  struct SpawnFailed: Error {
    var arguments: [String]
    var code: Int32
  }
  struct TmuxFailed: Error {
    var arguments: [String]
    var output: String
  }
}
