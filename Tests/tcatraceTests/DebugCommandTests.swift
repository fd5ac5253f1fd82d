import CustomDump
import Foundation
import TestSupport
import Testing

/// Issue #18, item 4: `tcatrace debug`, driven through a real pseudo-terminal (tmux) as a user
/// drives it.
@Suite(.enabled(if: TerminalScreen.tmux != nil, "needs tmux"), .hangGuard)
struct DebugCommandTests {
  let trace: RecordedTrace

  init() async throws {
    self.trace = try await RecordedTrace()
  }

  private func debug(_ arguments: [String] = [], file: String? = nil, rows: Int = 30) throws
    -> TerminalScreen
  {
    try TerminalScreen(
      [Product.tcatrace.executableURL.path, "debug", file ?? self.trace.path] + arguments,
      rows: rows
    )
  }

  @Test func theFirstScreen() async throws {
    let screen = try self.debug(["--session", "2"])
    let lines = try await screen.waitForStatus("#1/7")
    expectNoDifference(
      lines,
      [
        "Session 2 · leaky · LeakyParentFeature · 2026-01-01T00:00:00.000Z · ended",
        "▶ #1        +0.000ms view         LeakyParentFeature   onAppear",
        "  #2        +1.000ms view         LeakyParentFeature   refreshButtonTapped  ← #1  ! 1 leak",
        "  #3        +2.000ms internal     LeakyParentFeature   refreshed  ← #2",
        "  #4        +3.000ms view         child                buttonTapped  ! 1 leak",
        "  #5        +4.000ms view         child.grandchild     finishButtonTapped",
        "  #6        +5.000ms delegate     child.grandchild     didFinish  ← #5  ! 1 leak",
        "  #7        +6.000ms internal     LeakyParentFeature   refreshed  ! 1 leak",
        "",
        "── What action #1 did ────────────────────────────────────────────────────────────────────────────────────────",
        "#1 · view.onAppear · at +0.000ms",
        "sent from outside the store (a view, a test)",
        "its effects sent → #2  (l or →: go to the first)",
        "",
        "It changed nothing in the state.",
      ]
        + Array(repeating: "", count: 14)
        + [
          " #1/7 · view · LeakyParentFeature · onAppear                                                  ? keys · q quit"
        ]
    )
  }

  @Test func nextPreviousFirstLastAndJump() async throws {
    let screen = try self.debug(["--session", "1"])
    try await screen.waitForStatus("#1/25 · view · login · emailChanged")
    try screen.send("j", "j")
    try await screen.waitForStatus("#3/25 · view · login · loginButtonTapped")
    try screen.send("k")
    try await screen.waitForStatus("#2/25 · view · login · passwordChanged")
    try screen.send("Down", "Down", "Down", "Up")
    try await screen.waitForStatus("#4/25")
    try screen.send("Enter")
    try await screen.waitForStatus("#5/25")
    try screen.send("G")
    try await screen.waitForStatus("#25/25")
    try screen.send("j")
    try await screen.waitForStatus("This is the last action.")
    try screen.send("g")
    try await screen.waitForStatus("#1/25")
    try screen.send("k")
    try await screen.waitForStatus("This is the first action.")
    try screen.send("End")
    try await screen.waitForStatus("#25/25")
    try screen.send("Home")
    try await screen.waitForStatus("#1/25")
    try screen.send(":")
    try await screen.waitForStatus("Go to action #█")
    try screen.type("12")
    try await screen.waitForStatus("Go to action #12█")
    try screen.send("Enter")
    let lines = try await screen.waitForStatus("#12/25")
    // The current action is marked in the timeline, which keeps it in view.
    #expect(lines.filter { $0.hasPrefix("▶") }.map { String($0.prefix(5)) } == ["▶ #12"])
    // A digit starts the jump.
    try screen.type("7")
    try screen.send("Enter")
    try await screen.waitForStatus("#7/25")
    try screen.type(":99")
    try screen.send("Enter")
    try await screen.waitForStatus("Type an action's seq, from 1 to 25.")
    // Escape leaves a prompt without going anywhere.
    try screen.type(":3")
    try screen.send("Escape")
    try await screen.waitForStatus("#7/25 · internal · login.twoFactor · verifyResponse")
  }

  @Test func causeAndConsequences() async throws {
    let screen = try self.debug(["--session", "1"])
    try await screen.waitForStatus("#1/25")
    try screen.type("3")
    try screen.send("Enter")
    var lines = try await screen.waitForStatus("#3/25 · view · login · loginButtonTapped")
    #expect(lines.contains("its effects sent → #4  (l or →: go to the first)"))
    try screen.send("l")
    lines = try await screen.waitForStatus("#4/25 · internal · login · loginResponse")
    #expect(
      lines.contains(
        "sent by an effect of ← #3 _internal.login.view.loginButtonTapped  (h or ←: go there)"))
    try screen.send("h")
    try await screen.waitForStatus("#3/25")
    try screen.send("Right")
    try await screen.waitForStatus("#4/25")
    try screen.send("Left")
    try await screen.waitForStatus("#3/25")
    try screen.send("h")
    try await screen.waitForStatus("Action #3 was sent from outside the store, not by an effect.")
    try screen.send("k")
    try screen.send("l")
    try await screen.waitForStatus("Action #2's effects sent no action.")
  }

  @Test func leaksFeaturesCategoriesAndSearch() async throws {
    let screen = try self.debug(["--session", "2"])
    try await screen.waitForStatus("#1/7")
    try screen.send("!")
    var lines = try await screen.waitForStatus(
      "#2/7 · view · LeakyParentFeature · refreshButtonTapped · n: leaks")
    #expect(lines.contains("It broke 1 boundary rule:"))
    #expect(lines.contains { $0.hasPrefix("  ! effect-sends-view-action (LeakyParentFeature): ") })
    try screen.send("n")
    lines = try await screen.waitForStatus("#4/7 · view · child · buttonTapped · n: leaks")
    #expect(
      lines.contains {
        $0.hasPrefix("  ! parent-reacts-to-private-child-action (LeakyParentFeature): ")
      })
    try screen.send("n")
    try await screen.waitForStatus("#6/7")
    try screen.send("n")
    try await screen.waitForStatus("#7/7")
    try screen.send("n")
    try await screen.waitForStatus("No later action matches leaks (n: again; N: backward).")
    try screen.send("N")
    try await screen.waitForStatus("#6/7")

    try screen.send("g", "c")
    try await screen.waitForStatus(
      "Next action of category (view, internal, delegate, unclassified): view█")
    try screen.send("C-u")
    try screen.type("internal")
    try screen.send("Enter")
    try await screen.waitForStatus(
      "#3/7 · internal · LeakyParentFeature · refreshed · n: internal actions")
    try screen.send("n")
    try await screen.waitForStatus("#7/7 · internal")
    try screen.send("n")
    try await screen.waitForStatus(
      "No later action matches internal actions (n: again; N: backward).")
    try screen.send("c", "C-u")
    try screen.type("private")
    try screen.send("Enter")
    try await screen.waitForStatus(
      "'private' is not a category: view, internal, delegate or unclassified.")

    let app = try self.debug(["--session", "1"])
    try await app.waitForStatus("#1/25")
    try app.send("f", "C-u")
    try app.type("login.twoFactor")
    try app.send("Enter")
    try await app.waitForStatus(
      "#5/25 · view · login.twoFactor · codeChanged · n: feature login.twoFactor")
    try app.send("n", "n", "n")
    try await app.waitForStatus("#8/25 · delegate · login.twoFactor · didVerify")
    try app.send("g", "/")
    try app.type("Buy oat")
    try app.send("Enter")
    let found = try await app.waitForStatus(
      "#17/25 · view · todos.rows[id: 1] · titleChanged · n: 'Buy oat'")
    #expect(found.contains(#"payload: "Buy oat milk""#))
    try app.send("/")
    try app.type("nowhere at all")
    try app.send("Enter")
    try await app.waitForStatus("No later action matches 'nowhere at all'")
  }

  /// The state at a step is the one `tcatrace state` prints.
  @Test func theStateAndAPathAtEachStep() async throws {
    let screen = try self.debug(["--session", "1"], rows: 40)
    try await screen.waitForStatus("#1/25")
    for seq in [3, 9] {
      try screen.type("\(seq)")
      try screen.send("Enter", "s")
      let lines = try await screen.waitForStatus("#\(seq)/25 · ")
      let expected = try await self.trace.run(["state", "FILE", "--session", "1", "--at", "\(seq)"])
      let pane = lines.drop { !$0.hasPrefix("── The state after action #\(seq) ") }.dropFirst()
      expectNoDifference(
        Array(pane.prefix(expected.stdout.split(separator: "\n").count)),
        expected.stdout.split(separator: "\n").map(String.init)
      )
    }
    // The state pane stays as the current action moves.
    try screen.send("k")
    var lines = try await screen.waitForStatus(
      "#8/25 · delegate · login.twoFactor · didVerify · [state]")
    #expect(lines.contains { $0.hasPrefix("── The state after action #8 ") })

    try screen.send("p", "C-u")
    try screen.type("login.email")
    try screen.send("Enter")
    lines = try await screen.waitForStatus("[login.email]")
    let pane = lines.drop { !$0.hasPrefix("── login.email after action #8 ") }.dropFirst()
    #expect(pane.first == #""blob@example.com""#)

    try screen.send("p", "C-u")
    try screen.type("login.nothing")
    try screen.send("Enter")
    lines = try await screen.waitForStatus("[login.nothing]")
    #expect(lines.contains { $0.hasPrefix("'login.nothing' is not a path in this state") })

    try screen.send("d")
    lines = try await screen.waitForStatus("#8/25 · delegate · login.twoFactor · didVerify   ")
    #expect(lines.contains { $0.hasPrefix("── What action #8 did ") })
  }

  @Test func scrollingALongPane() async throws {
    let screen = try self.debug(["--session", "1"], rows: 12)
    try await screen.waitForStatus("#1/25")
    try screen.send("s")
    var lines = try await screen.waitForStatus("[state]")
    #expect(lines.contains("AppFeature.State("))
    try screen.send("Space")
    lines = try await screen.waitUntil("the state scrolled") { !$0.contains("AppFeature.State(") }
    try screen.send("b")
    lines = try await screen.waitUntil("the state scrolled back") {
      $0.contains("AppFeature.State(")
    }
    // The other keys that scroll, as the help lists them.
    for (down, up) in [("PageDown", "PageUp"), ("C-f", "C-b")] {
      try screen.send(down)
      try await screen.waitUntil("the state scrolled with \(down)") {
        !$0.contains("AppFeature.State(")
      }
      try screen.send(up)
      try await screen.waitUntil("the state scrolled back with \(up)") {
        $0.contains("AppFeature.State(")
      }
    }
  }

  /// Ctrl-L draws the whole screen again, over whatever else wrote to the terminal.
  @Test func ctrlLDrawsTheScreenAgain() async throws {
    let screen = try self.debug(["--session", "1"])
    let before = try await screen.waitForStatus("#1/25")
    try screen.clearTerminal()
    try await screen.waitUntil("the screen cleared") { $0.allSatisfy(\.isEmpty) }
    try screen.send("C-l")
    let after = try await screen.waitForStatus("#1/25")
    #expect(after == before)
  }

  @Test func helpThenQuitGivesTheTerminalBack() async throws {
    let screen = try self.debug()
    try await screen.waitForStatus("? keys · q quit")
    try screen.send("?")
    var lines = try await screen.waitUntil("the keys") { $0.contains { $0.hasPrefix("── Keys ") } }
    #expect(lines.contains { $0.hasPrefix("h ←         the cause") })
    try screen.send("x")
    lines = try await screen.waitUntil("the keys gone") {
      !$0.contains { $0.hasPrefix("── Keys ") }
    }
    try screen.send("z")
    try await screen.waitForStatus("That key does nothing here: press ? for the keys.")
    try screen.send("q")
    lines = try await screen.waitUntil("the shell again and its settings") {
      $0.contains("exit 0") && $0.contains { $0.hasPrefix("isig ") }
    }
    // The terminal is as it was: line editing and echo on, the debugger's screen gone.
    let settings = lines.joined(separator: " ")
    #expect(
      settings.contains(" icanon") && settings.contains(" echo ") && settings.contains(" isig"))
    #expect(!lines.contains { $0.contains("? keys · q quit") })
  }

  @Test(arguments: ["C-c", "C-d"])
  func ctrlCAndCtrlDQuit(key: String) async throws {
    let screen = try self.debug()
    try await screen.waitForStatus("? keys · q quit")
    try screen.send(key)
    try await screen.waitUntil("the shell again") { $0.contains("exit 0") }
  }

  /// Ended by a signal, it gives the terminal back too, and ends as the signal's default would
  /// have it (128 + the signal's number).
  @Test(arguments: [(SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131)])
  func aSignalGivesTheTerminalBack(signal: Int32, status: Int) async throws {
    let screen = try self.debug()
    try await screen.waitForStatus("? keys · q quit")
    try screen.signalProgram(signal)
    let lines = try await screen.waitUntil("the shell again and its settings") {
      $0.contains { $0.hasPrefix("exit ") } && $0.contains { $0.hasPrefix("isig ") }
    }
    #expect(lines.contains("exit \(status)"))
    let settings = lines.joined(separator: " ")
    #expect(
      settings.contains(" icanon") && settings.contains(" echo ") && settings.contains(" isig"))
    #expect(!lines.contains { $0.contains("? keys · q quit") })
  }

  @Test func aResizedTerminalIsDrawnAgain() async throws {
    let screen = try self.debug(["--session", "1"])
    try await screen.waitForStatus("#1/25")
    try screen.resize(rows: 20, columns: 60)
    let lines = try await screen.waitUntil("the screen at 60 columns") {
      $0.count == 20 && $0.last?.hasSuffix("q quit") == true
    }
    #expect(lines.allSatisfy { $0.count <= 60 })
    #expect(lines[1].hasSuffix("…"))
  }

  /// New actions appear as a recorder appends them, and the session is seen to end.
  @Test func aFileBeingRecorded() async throws {
    // 20 actions, a pause until the test says so, 20 more, and the end of the session.
    let append = Product("tcatrace-fixture").process(["append", self.trace.path, "40", "20"])
    let input = Pipe()
    append.standardInput = input
    let lines = try append.runReadingLines()
    defer {
      // NB: Killed, so that the wait for it is bounded.
      kill(append.processIdentifier, SIGKILL)
      append.waitUntilExit()
    }
    #expect(try await lines.next(21).last == "paused")
    // The fixture flushed its recorder before it said `paused`: the session is in the file.
    // The deadline only keeps a broken fixture from hanging the test.
    let deadline = ContinuousClock.now + .seconds(30)
    while try await !self.trace.run(["sessions", "FILE"]).stdout.contains(" 3  appended ") {
      guard ContinuousClock.now < deadline else {
        Issue.record("session 3 never appeared in the file")
        return
      }
      try await Task.sleep(for: .milliseconds(30))
    }
    let screen = try self.debug(["--session", "3"])
    let paused = try await screen.waitForStatus("#1/20 ")
    #expect(paused.first?.hasSuffix("· recording") == true)

    input.fileHandleForWriting.write(Data("go on\n".utf8))
    let ended = try await screen.waitUntil("the session's end") {
      $0.first?.hasSuffix("· ended") == true && $0.last?.contains("#1/40 ") == true
    }
    #expect(ended.contains { $0.hasPrefix("  #8 ") })
    try screen.send("G")
    let last = try await screen.waitForStatus("#40/40 · view · login · emailChanged")
    #expect(last.contains(#"  + "live40@example.com""#))
  }

  /// Issue #40: a file replaced in place by another trace while it is shown is not shown as if
  /// it were the first: the debugger says it was written while it was read, and exits with 2.
  @Test(arguments: [false, true])
  func aFileReplacedWhileItIsShown(inPlace: Bool) async throws {
    let other = try await RecordedTrace(fixture: "record-texts", ["a", "b"], name: "texts.db")
    let path = self.trace.directory.path("shown.db")
    try FileManager.default.copyItem(atPath: self.trace.path, toPath: path)
    let screen = try self.debug(["--session", "1"], file: path)
    try await screen.waitForStatus("#1/25")
    let replacement = try Data(contentsOf: URL(fileURLWithPath: other.path))
    if inPlace {
      // As `cp` replaces a file: the same file, its bytes written over.
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.truncate(atOffset: 0)
      try handle.write(contentsOf: replacement)
      try handle.close()
    } else {
      // As `mv` replaces it: another file under the same name.
      try replacement.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
    let lines = try await screen.waitUntil("the error and the shell again") {
      $0.contains { $0.hasPrefix("exit ") }
    }
    #expect(lines.contains("exit 2"))
    #expect(lines.contains { $0.contains("was written while it was read") })
  }

  /// A file whose text holds terminal controls shows them as escapes.
  @Test func hostileTextIsShownAsEscapes() async throws {
    let hostile = try self.trace.copy(
      named: "hostile.db",
      changedBy: """
        UPDATE sessions SET name = 'app' || char(27) || '[2J' || char(10) || 'forged';
        UPDATE actions SET payload = char(27) || ']0;pwned' || char(7) || 'x' WHERE seq = 1;
        UPDATE state_changes SET new_value = 'a' || char(27) || '[31m' || char(10) || 'b';
        """
    )
    let screen = try self.debug(["--session", "1"], file: hostile)
    let lines = try await screen.waitForStatus("#1/25")
    #expect(lines[0].hasPrefix(#"Session 1 · app\u{1B}[2J\nforged · AppFeature"#))
    #expect(lines[1].hasSuffix(#"emailChanged  \u{1B}]0;pwned\u{7}x"#))
    #expect(lines.contains(#"  + a\u{1B}[31m"#) && lines.contains("  + b"))
  }

  @Test func aVersion1FileSaysItHasNoStates() async throws {
    let path = try self.trace.copy(named: "version1.db", changedBy: RecordedTrace.version1SQL)
    let screen = try self.debug(["--session", "1"], file: path)
    try await screen.waitForStatus("#1/25")
    try screen.send("s")
    let lines = try await screen.waitForStatus("[state]")
    // The message is wrapped to the screen's width.
    #expect(
      lines.joined(separator: " ").contains(
        "holds no states for session 1: it was recorded by a TCATrace older than schema version 2, which kept only changes; record it again to see its state at each step"
      )
    )
    try screen.send("d", "j")
    try await screen.waitForStatus("#2/25")
  }

  @Test func withoutATerminalItSaysSo() async throws {
    let result = try await self.trace.run(["debug", "FILE"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    expectNoDifference(
      result.stderr,
      "Error: 'debug' is interactive and needs a terminal for its input and output: to print a session, use 'tcatrace replay \(self.trace.path)', and its state at a step, 'tcatrace state \(self.trace.path) --at N'\n"
    )
  }

  @Test func badSessionsAreOneLineAndExit2() async throws {
    let all = try await self.trace.run(["debug", "FILE", "--session", "all"])
    #expect(all.status == 2)
    #expect(all.stderr.hasPrefix("Error: --session takes one session: its id, or 'latest'"))
    let missing = try await self.trace.run(["debug", "FILE", "--session", "9"])
    #expect(missing.status == 2)
    #expect(
      missing.stderr
        == "Error: '\(self.trace.path)' has no session 9: 'tcatrace sessions \(self.trace.path)' lists them\n"
    )
  }
}
