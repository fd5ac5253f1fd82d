import CustomDump
import Foundation
import TestSupport
import Testing

@Suite(.hangGuard)
struct DemoCommandTests {
  /// `output` with the measured times and dates replaced, which differ from run to run.
  private func masked(_ output: String) -> String {
    output
      .replacing(/\ +\+\d+\.\d{3}ms/, with: " +TIME")
      .replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/, with: "DATE")
  }

  @Test func demoWithNoArgumentsWritesDemoDBAndReplaysIt() async throws {
    let directory = try TemporaryDirectory()
    let result = try await Product.tcatrace.run(["demo"], in: directory.url)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["demo.db"])
    // The whole output, times and dates masked, is the session kept in `Expected/demo.txt`.
    expectNoDifference(self.masked(result.stdout), try Self.expectedOutput())
    // The example app marks the password and the two-factor code: neither is printed or
    // written.
    let file = try Data(contentsOf: URL(fileURLWithPath: directory.path("demo.db")))
    for secret in ["hunter2", "424242"] {
      #expect(!result.stdout.contains(secret))
      #expect(file.range(of: Data(secret.utf8)) == nil)
    }
    #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("#") }.count == 26 + 7)

    let sessions = try await Product.tcatrace.run(
      ["sessions", "demo.db", "--format", "jsonl"], in: directory.url)
    #expect(sessions.stdout.split(separator: "\n").count == 2)

    // The README's example of reading a state.
    let state = try await Product.tcatrace.run(
      ["state", "demo.db", "--session", "1", "--at", "5", "--path", "login.twoFactor"],
      in: directory.url
    )
    #expect(state.status == 0)
    expectNoDifference(
      state.stdout,
      """
      TwoFactorFeature.State(
        token: "token-blob@example.com",
        code: <redacted>,
        isVerifying: false,
        errorMessage: nil
      )

      """
    )
  }

  /// Issue #44: the demo records the same session however busy the machine: each step that
  /// starts effects is awaited until they end, so the same actions come in the same order.
  @Test func theDemoIsTheSameOnABusyMachine() async throws {
    let directory = try TemporaryDirectory()
    let load = try BusyLoops()
    let result = try await Product.tcatrace.run(["demo"], in: directory.url)
    withExtendedLifetime(load) {}
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(self.masked(result.stdout), try Self.expectedOutput())
  }

  /// What `tcatrace demo` prints, times and dates masked, as kept in `Expected/demo.txt`.
  private static func expectedOutput() throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Expected/demo.txt")
    return try String(contentsOf: url, encoding: .utf8)
  }

  @Test func runningTheDemoAgainAppendsSessionsAndSeedsChangeTheScript() async throws {
    let directory = try TemporaryDirectory()
    _ = try await Product.tcatrace.run(["demo", "--out", "trace.db"], in: directory.url)
    let second = try await Product.tcatrace.run(
      ["demo", "--out", "trace.db", "--seed", "5"], in: directory.url)
    #expect(second.status == 0)
    #expect(
      self.masked(second.stdout).contains("Session 3 · demo app (seed 5) · AppFeature · DATE"))
    #expect(second.stdout.contains(#"emailChanged  "blob.jr@example.com""#))
    #expect(second.stdout.contains(#"addTodoButtonTapped  "Replay a bug""#))
    let sessions = try await Product.tcatrace.run(
      ["sessions", "trace.db", "--format", "jsonl"], in: directory.url)
    #expect(sessions.stdout.split(separator: "\n").count == 4)
  }

  @Test func demoRefusesAnOutputThatIsNotATrace() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("notes.db")
    try Data("notes\n".utf8).write(to: URL(fileURLWithPath: path))
    let result = try await Product.tcatrace.run(["demo", "--out", "notes.db"], in: directory.url)
    #expect(result.status == 2)
    expectNoDifference(
      result.stderr, "Error: 'notes.db' is not a SQLite database, so it cannot be a TCATrace file\n"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("notes\n".utf8))
  }

  /// `tcatrace` copied where no `tcatrace-demo` is.
  @Test func aMissingDemoRecorderIsOneLineAndExitTwo() async throws {
    let directory = try TemporaryDirectory()
    let copy = try Product.tcatrace.copy(into: directory.url)
    let missing = try await Product.tcatrace.run(
      ["demo", "--out", "trace.db"], in: directory.url, environment: ["PATH": "/usr/bin:/bin"],
      executableURL: copy
    )
    #expect(missing.status == 2)
    #expect(missing.stdout.isEmpty)
    #expect(
      missing.stderr.hasPrefix(
        "Error: tcatrace demo runs tcatrace-demo, which is neither beside tcatrace (in /"))
    #expect(
      missing.stderr.hasSuffix(
        "\(directory.url.lastPathComponent)) nor on PATH; install it beside tcatrace ('swift build -c release' builds both)\n"
      )
    )
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["tcatrace"])

    // NB: Else the first on PATH.
    let products = Product.tcatraceDemo.executableURL.deletingLastPathComponent().path
    let onPath = try await Product.tcatrace.run(
      ["demo", "--out", "trace.db"], in: directory.url,
      environment: ["PATH": "\(products):/usr/bin:/bin"],
      executableURL: copy
    )
    #expect(onPath.status == 0)
    #expect(
      onPath.stdout.hasPrefix(
        "Recorded 26 actions of AppFeature and 7 actions of LeakyParentFeature to trace.db."))
  }

  /// Issue #20, item 9: an output the recorder cannot write is refused at once, on one line,
  /// before anything is recorded.
  @Test func anOutputThatCannotBeWrittenIsRefusedFirst() async throws {
    let directory = try TemporaryDirectory()
    let missing = try await Product.tcatrace.run(
      ["demo", "--out", "/nonexistent/x.db"], in: directory.url)
    #expect(missing.status == 2)
    #expect(missing.stdout.isEmpty)
    expectNoDifference(
      missing.stderr,
      "Error: cannot write '/nonexistent/x.db': the folder '/nonexistent' does not exist; create it or choose another --out\n"
    )
    let folder = try await Product.tcatrace.run(
      ["demo", "--out", directory.url.path], in: directory.url)
    #expect(folder.status == 2)
    expectNoDifference(
      folder.stderr, "Error: '\(directory.url.path)' is a directory: give --out a file name\n")
  }
}
