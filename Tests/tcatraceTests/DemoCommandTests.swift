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
    let lines = self.masked(result.stdout).split(separator: "\n", omittingEmptySubsequences: false)
    expectNoDifference(
      Array(lines.prefix(8)),
      [
        "Recorded 26 actions of AppFeature and 7 actions of LeakyParentFeature to demo.db.",
        "",
        "Session 1 · demo app (seed 1) · AppFeature · DATE",
        #"#1 +TIME view         login                emailChanged  "blob@example.com""#,
        "       login.email",
        #"       - """#,
        #"       + "blob@example.com""#,
        "#2 +TIME view         login                passwordChanged  <redacted>",
      ]
    )
    expectNoDifference(
      Array(lines.suffix(13)),
      [
        "",
        "SESSION  RULE                                    FEATURE             COUNT  FIRST  DETAIL",
        "      2  effect-sends-view-action                LeakyParentFeature      1     #2  view action refreshButtonTapped of LeakyParentFeature was sent by an effect of action #1; only the view sends view actions",
        "      2  parent-reacts-to-private-child-action   LeakyParentFeature      1     #4  changed childButtonTaps in response to view action buttonTapped of child",
        "      2  ancestor-reacts-to-grandchild-delegate  LeakyParentFeature      1     #6  changed grandchildFinished in response to delegate action didFinish of child.grandchild, which only child may react to",
        "      2  view-sends-private-action               LeakyParentFeature      1     #7  internal action refreshed of LeakyParentFeature was sent from outside the store; only its reducer and effects send internal actions",
        "4 leaks in 1 session.",
        "",
        "Next: tcatrace replay demo.db --session latest --leaks-only",
        "      tcatrace replay demo.db --category view --feature login",
        "      tcatrace stats demo.db",
        #"      tcatrace sql demo.db "SELECT feature, count(*) FROM actions GROUP BY 1""#,
        "",
      ]
    )
    // The example app marks the password and the two-factor code: neither is printed or
    // written.
    let file = try Data(contentsOf: URL(fileURLWithPath: directory.path("demo.db")))
    for secret in ["hunter2", "424242"] {
      #expect(!result.stdout.contains(secret))
      #expect(file.range(of: Data(secret.utf8)) == nil)
    }
    // The whole app session and leaky session are in the output, in order.
    let actionLines = lines.filter { $0.hasPrefix("#") }
    #expect(actionLines.count == 26 + 7)

    let sessions = try await Product.tcatrace.run(["sessions", "demo.db", "--format", "jsonl"], in: directory.url)
    #expect(sessions.stdout.split(separator: "\n").count == 2)
  }

  @Test func runningTheDemoAgainAppendsSessionsAndSeedsChangeTheScript() async throws {
    let directory = try TemporaryDirectory()
    _ = try await Product.tcatrace.run(["demo", "--out", "trace.db"], in: directory.url)
    let second = try await Product.tcatrace.run(["demo", "--out", "trace.db", "--seed", "5"], in: directory.url)
    #expect(second.status == 0)
    #expect(self.masked(second.stdout).contains("Session 3 · demo app (seed 5) · AppFeature · DATE"))
    #expect(second.stdout.contains(#"emailChanged  "blob.jr@example.com""#))
    #expect(second.stdout.contains(#"addTodoButtonTapped  "Replay a bug""#))
    let sessions = try await Product.tcatrace.run(["sessions", "trace.db", "--format", "jsonl"], in: directory.url)
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
    #expect(missing.stderr.hasPrefix("Error: tcatrace demo runs tcatrace-demo, which is neither beside tcatrace (in /"))
    #expect(
      missing.stderr.hasSuffix(
        "\(directory.url.lastPathComponent)) nor on PATH; install it beside tcatrace ('swift build -c release' builds both)\n"
      )
    )
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["tcatrace"])

    // NB: Else the first on PATH.
    let products = Product.tcatraceDemo.executableURL.deletingLastPathComponent().path
    let onPath = try await Product.tcatrace.run(
      ["demo", "--out", "trace.db"], in: directory.url, environment: ["PATH": "\(products):/usr/bin:/bin"],
      executableURL: copy
    )
    #expect(onPath.status == 0)
    #expect(onPath.stdout.hasPrefix("Recorded 26 actions of AppFeature and 7 actions of LeakyParentFeature to trace.db."))
  }

  /// Issue #20, item 9: an output the recorder cannot write is refused at once, on one line,
  /// before anything is recorded.
  @Test func anOutputThatCannotBeWrittenIsRefusedFirst() async throws {
    let directory = try TemporaryDirectory()
    let missing = try await Product.tcatrace.run(["demo", "--out", "/nonexistent/x.db"], in: directory.url)
    #expect(missing.status == 2)
    #expect(missing.stdout.isEmpty)
    expectNoDifference(
      missing.stderr,
      "Error: cannot write '/nonexistent/x.db': the folder '/nonexistent' does not exist; create it or choose another --out\n"
    )
    let folder = try await Product.tcatrace.run(["demo", "--out", directory.url.path], in: directory.url)
    #expect(folder.status == 2)
    expectNoDifference(folder.stderr, "Error: '\(directory.url.path)' is a directory: give --out a file name\n")
  }
}
