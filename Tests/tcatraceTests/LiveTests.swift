import CustomDump
import Foundation
import TestSupport
import Testing

@Suite(.hangGuard)
struct LiveTests {
  @Test func followPrintsWhatAnotherProcessAppends() async throws {
    let trace = try await RecordedTrace()
    try await self.following(trace, ["--no-diff"]) { follow, _, lines in
      // Session 1's header and 25 actions, a blank line, session 2's header, 7 actions and 4 leaks.
      let existing = try await lines.next(39)
      #expect(existing.first == "Session 1 · app · AppFeature · 2026-01-01T00:00:00.000Z")
      #expect(
        existing.last?.hasPrefix("       ! view-sends-private-action (LeakyParentFeature)") == true)

      let append = try await Product("tcatrace-fixture").run(["append", trace.path, "3"])
      #expect(append.status == 0)
      let appended = try await lines.next(5)
      expectNoDifference(
        appended,
        [
          "",
          "Session 3 · appended · AppFeature · 2026-01-01T00:00:00.000Z",
          #"#1        +0.000ms view         login                emailChanged  "live1@example.com""#,
          #"#2        +1.000ms view         login                emailChanged  "live2@example.com""#,
          #"#3        +2.000ms view         login                emailChanged  "live3@example.com""#,
        ]
      )
      #expect(follow.isRunning)
    }
  }

  @Test func followEndsWhenNothingReadsItsOutputAnyMore() async throws {
    let trace = try await RecordedTrace()
    try await self.following(trace, ["--no-diff"]) { follow, output, lines in
      #expect(try await lines.next(39).count == 39)
      // What `tcatrace replay --follow | head -39` sees once `head` is done: nothing has been
      // written since, and the pipe's reading end closes. It ends as a write to it would end it.
      try output.fileHandleForReading.close()
      #expect(try await follow.end(within: 60))
      #expect(follow.terminationReason == .uncaughtSignal)
      #expect(follow.terminationStatus == SIGPIPE)
    }
  }

  @Test func followAsJSONLinesKeepsOneObjectPerLine() async throws {
    let trace = try await RecordedTrace()
    try await self.following(trace, ["--format", "jsonl", "--feature", "login"]) { _, _, lines in
      #expect(try await lines.next(9).count == 9)
      _ = try await Product("tcatrace-fixture").run(["append", trace.path, "2"])
      let appended = try await lines.next(2)
      #expect(appended.count == 2)
      #expect(
        appended.allSatisfy { $0.hasPrefix(#"{"session":3,"#) && $0.hasSuffix(#""leaks":[]}"#) })
    }
  }

  /// Runs `tcatrace replay` on `trace` with `--follow` and `arguments`, its output read line by
  /// line, for `body`; kills it afterwards, so that the wait for it is bounded.
  private func following(
    _ trace: RecordedTrace, _ arguments: [String],
    _ body: (_ follow: Process, _ output: Pipe, _ lines: LineReader) async throws -> Void
  ) async throws {
    let follow = Product.tcatrace.process(["replay", trace.path, "--follow"] + arguments)
    let output = Pipe()
    follow.standardOutput = output
    try follow.start()
    defer {
      kill(follow.processIdentifier, SIGKILL)
      follow.waitUntilExit()
    }
    try await body(follow, output, LineReader(output.fileHandleForReading))
  }

  @Test func followRejectsAJSONArray() async throws {
    let trace = try await RecordedTrace()
    let result = try await trace.run(["replay", "FILE", "--follow", "--format", "json"])
    #expect(result.status == 2)
    expectNoDifference(
      result.stderr,
      "Error: --follow prints as it goes: use --format text or jsonl; see 'tcatrace replay --help'.\n"
    )
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
  func colourOnlyOnATerminalWithoutNoColor() async throws {
    let trace = try await RecordedTrace()
    func runInTerminal(_ environment: String) async throws -> String {
      // `script` runs the command on a pseudo-terminal, as a user's shell would.
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
      process.arguments = [
        "-qec", "\(environment) '\(Product.tcatrace.executableURL.path)' leaks '\(trace.path)'",
        "/dev/null",
      ]
      process.standardInput = FileHandle.nullDevice
      return try await process.runToEnd(timeLimit: 60).stdout
    }
    let colored = try await runInTerminal("env -u NO_COLOR")
    #expect(colored.contains("\u{1B}[31m4 leaks in 1 session.\u{1B}[0m"))
    let plain = try await runInTerminal("env NO_COLOR=1")
    #expect(plain.contains("4 leaks in 1 session."))
    #expect(!plain.contains("\u{1B}["))
    // Not a terminal: no colour, whatever NO_COLOR says.
    let piped = try await Product.tcatrace.run(["leaks", trace.path])
    #expect(!piped.stdout.contains("\u{1B}["))
  }

  /// `replay --step` went forward only; `debug` replaces it.
  @Test func stepSaysDebugReplacesIt() async throws {
    let trace = try await RecordedTrace()
    let result = try await trace.run(["replay", "FILE", "--step"])
    #expect(result.status == 2)
    expectNoDifference(
      result.stderr,
      "Error: --step is replaced by 'tcatrace debug FILE', which steps forward and back, jumps to any action and shows the state at each; see 'tcatrace replay --help'.\n"
    )
  }
}
