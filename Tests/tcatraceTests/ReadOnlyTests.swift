import CustomDump
import Foundation
import TestSupport
import Testing

/// Issue #20, items 7 and 8: reading a trace leaves nothing beside it, and a recorder that
/// starts appending to a trace while it is read does not make it look damaged.
@Suite(.hangGuard)
struct ReadOnlyTests {
  private func entries(_ directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
  }

  @Test func followingAFinishedTraceLeavesNothingBesideIt() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("finished.db")
    #expect(try await Product("tcatrace-fixture").run(["record-demo", path]).status == 0)
    #expect(try self.entries(directory) == ["finished.db"])

    let follow = Product.tcatrace.process(["replay", path, "--follow", "--no-diff"])
    let lines = try follow.runReadingLines()
    #expect(try await lines.next(39).count == 39)
    // A few polls, then interrupted, as a user stops it.
    try await Task.sleep(for: .milliseconds(500))
    #expect(try self.entries(directory) == ["finished.db"])
    kill(follow.processIdentifier, SIGINT)
    #expect(try await follow.end(), "an interrupt ends it")
    #expect(try self.entries(directory) == ["finished.db"])
  }

  @Test func followingAFileThatIsNotATraceLeavesNothingBesideIt() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("other.db")
    #expect(try await Product("tcatrace-fixture").run(["record-demo", path]).status == 0)
    // A SQLite database in WAL mode, as a trace is, without a trace's header.
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    bytes.replaceSubrange(68..<72, with: [0, 0, 0, 0])  // PRAGMA application_id
    try bytes.write(to: URL(fileURLWithPath: path))

    let result = try await Product.tcatrace.run(["replay", path, "--follow"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("is a SQLite database but not a TCATrace file"))
    #expect(try self.entries(directory) == ["other.db"])
  }

  @Test func aLeftoverEmptyWALIsLeftAsItIs() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.db")
    #expect(try await Product("tcatrace-fixture").run(["record-demo", path]).status == 0)
    let expected = try await Product.tcatrace.run(["replay", path])
    #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data()))

    for command in [
      ["replay", path], ["sessions", path], ["leaks", path], ["stats", path], ["state", path],
    ] {
      let result = try await Product.tcatrace.run(command)
      #expect(result.status == (command[0] == "leaks" ? 1 : 0), "\(command): \(result.stderr)")
      #expect(result.stderr == "", "\(command)")
      if command[0] == "replay" { expectNoDifference(result.stdout, expected.stdout) }
    }
    #expect(try self.entries(directory) == ["trace.db", "trace.db-wal"])
    let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")
    #expect(wal[.size] as? Int == 0)
  }

  /// A program and its arguments run as a user who cannot write a directory of mode 0555: this
  /// user, or `nobody` when the tests run as root (whom permissions do not stop).
  private func asAUserWhoCannotWrite(_ executable: URL, _ arguments: [String]) -> (URL, [String]) {
    guard getuid() == 0 else { return (executable, arguments) }
    return (
      URL(fileURLWithPath: "/usr/bin/setpriv"),
      ["--reuid=65534", "--regid=65534", "--clear-groups", executable.path] + arguments
    )
  }

  @Test func aTraceInADirectoryTheUserCannotWriteIsRead() async throws {
    let directory = try TemporaryDirectory()
    let locked = directory.path("locked")
    try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
    defer { chmod(locked, 0o755) }
    let path = locked + "/trace.db"
    #expect(try await Product("tcatrace-fixture").run(["record-demo", path]).status == 0)
    let expected = try await Product.tcatrace.run(["replay", path])
    #expect(expected.status == 0)

    for leftoverWAL in [false, true] {
      if leftoverWAL {
        chmod(locked, 0o755)
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data()))
      }
      chmod(locked, 0o555)
      let files = try FileManager.default.contentsOfDirectory(atPath: locked).sorted()
      // The user really cannot write there.
      let (sh, touch) = self.asAUserWhoCannotWrite(
        URL(fileURLWithPath: "/bin/sh"), ["-c", "touch \"$0\"", locked + "/x"])
      #expect(try await Product.tcatrace.run(touch, executableURL: sh).status != 0)

      for command in [
        ["replay", path], ["sessions", path], ["leaks", path], ["stats", path], ["state", path],
        ["sql", path, "SELECT count(*) FROM actions"],
      ] {
        let (executable, arguments) = self.asAUserWhoCannotWrite(
          Product.tcatrace.executableURL, command)
        let result = try await Product.tcatrace.run(arguments, executableURL: executable)
        #expect(
          result.status == (command[0] == "leaks" ? 1 : 0),
          "\(command), wal: \(leftoverWAL): \(result.stderr)")
        #expect(result.stderr == "", "\(command), wal: \(leftoverWAL)")
        if command[0] == "replay" { expectNoDifference(result.stdout, expected.stdout) }
      }

      let (executable, arguments) = self.asAUserWhoCannotWrite(
        Product.tcatrace.executableURL, ["replay", path, "--follow", "--no-diff"]
      )
      let follow = Product.tcatrace.process(arguments)
      follow.executableURL = executable
      let output = Pipe()
      follow.standardOutput = output
      try follow.start()
      #expect(
        try await LineReader(output.fileHandleForReading).next(39).count == 39,
        "wal: \(leftoverWAL)")
      kill(follow.processIdentifier, SIGINT)
      #expect(try await follow.end(), "an interrupt ends it")
      #expect(try FileManager.default.contentsOfDirectory(atPath: locked).sorted() == files)
    }
  }

  /// `tcatrace replay t.db | less` while the app starts recording to `t.db`: the recorder folds
  /// its WAL into the file as the reader, paused by the pipe, is in the middle of it.
  @Test func aTraceARecorderWritesWhileItIsReadIsNotCalledDamaged() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("busy.db")
    let recorded = try await Product("tcatrace-fixture").run([
      "record-until-full", path, "1000000000", "3000",
    ])
    #expect(recorded.status == 0)

    let replay = Product.tcatrace.process(["replay", path])
    let output = Pipe()
    let errors = Pipe()
    replay.standardOutput = output
    replay.standardError = errors
    try replay.start()
    // The replay has started, and stops once the pipe is full (its output is ~1 MB).
    let lines = LineReader(output.fileHandleForReading)
    #expect(try await lines.next()?.hasPrefix("Session 1 · full") == true)

    let append = try await Product("tcatrace-fixture").run(["append", path, "2"])
    #expect(append.status == 0)
    #expect(append.stdout.hasSuffix("closed\n"), "\(append.stdout)")

    var count = 1
    while try await lines.next() != nil { count += 1 }
    #expect(try await replay.end(within: 60))
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(count > 3000)
    #expect(replay.terminationStatus == 2)
    expectNoDifference(
      stderr,
      "Error: '\(path)' was written while it was read (a recorder began appending to it), so what was read may be torn: read it again\n"
    )
    // Read again, it is whole: both sessions.
    let again = try await Product.tcatrace.run(["sessions", path])
    #expect(again.status == 0)
    #expect(again.stdout.contains(" appended "))
  }
}
