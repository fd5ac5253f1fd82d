import Foundation
import TCATraceFile
import TestSupport
import Testing

/// Issue #73: the action an app died in, and the actions its writer had not committed, are read
/// from the flight journal the recorder leaves beside the trace (`qa.db-flight`), without the app
/// being launched again. The app is `tcatrace-fixture crash`: it installs a crash reporter's
/// handlers, records taps 1 to 3 and waits until they are committed, records taps 4 and 5, then
/// ends the process in action 6 — in its reducer (`fatalError`, a nil unwrapped, an index out of
/// range) or in its effect (`abort()`) — through `RecordingStore` or through
/// `recording(to:)`, the seam TCA's host records through.
@Suite(.hangGuard)
struct CrashTests {
  @Test(
    arguments: ["fatalError", "nilUnwrap", "indexOutOfRange", "abortInEffect"], [false, true])
  func theActionTheProcessEndedInAndThoseNotWrittenAreRead(
    how: String, throughModifier: Bool
  ) async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("qa.db")
    // NB: Run in the test's directory, where a core dump, if the system keeps them, goes.
    let crashed = try await Product("tcatrace-fixture").run(
      ["crash", path, how] + (throughModifier ? ["modifier"] : []), in: directory.url)

    // The process ended by a signal, and the handler installed before the recorder was called
    // with that signal: the recorder installs none of its own.
    #expect(crashed.wasSignalled, "\(crashed.stdout)\(crashed.stderr)")
    let handled = crashed.stdout.split(separator: "\n").filter { $0.hasPrefix("handler ") }
      .map { Int32($0.dropFirst("handler ".count)) }
    #expect(handled == [crashed.status], "\(crashed.stdout)")
    #expect(crashed.stdout.hasPrefix("committed 3\n"))
    if how == "abortInEffect" {
      #expect(crashed.status == SIGABRT)
    } else {
      // NB: A Swift trap is SIGILL on x86_64 and SIGTRAP on arm64.
      #expect([SIGILL, SIGTRAP].contains(crashed.status))
    }
    #expect(FileManager.default.fileExists(atPath: path + "-flight"))

    let endsInReducer = how != "abortInEffect"
    try await Self.expectSixActions(in: path, endsInReducer: endsInReducer, how: how)
    let sessions = try await Product.tcatrace.run(["sessions", path])
    #expect(sessions.status == 0, "\(sessions.stderr)")
    if endsInReducer {
      #expect(sessions.stdout.contains("ended in #6 crashButtonTapped"), "\(sessions.stdout)")
    } else {
      #expect(sessions.stdout.contains("ended after #6"), "\(sessions.stdout)")
    }
    let replay = try await Product.tcatrace.run(["replay", path, "--no-diff"])
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(
      replay.stdout.contains("✝ the process ended in this action's reducer") == endsInReducer,
      "\(replay.stdout)")

    // Another recorder appends a session: it copies the journal's actions into the file, and
    // removes the journal. The crashed session reads the same, from the file alone.
    let appended = try await Product("tcatrace-fixture").run(["append", path, "3"])
    #expect(appended.status == 0, "\(appended.stdout)\(appended.stderr)")
    try await Self.expectSixActions(in: path, endsInReducer: endsInReducer, how: how)
    #expect(!FileManager.default.fileExists(atPath: path + "-flight-1"))
    #expect(!FileManager.default.fileExists(atPath: path + "-flight"))
    let replayAfter = try await Product.tcatrace.run(
      ["replay", path, "--session", "1", "--no-diff"])
    #expect(replayAfter.stdout == replay.stdout)
    let marks = try await Product.tcatrace.run([
      "sql", path, "SELECT seq, flight FROM actions WHERE session_id = 1 ORDER BY seq",
      "--format", "csv",
    ])
    let flights = marks.stdout.split(separator: "\n").dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    }
    #expect(flights.count == 6, "\(marks.stdout)")
    #expect(flights.last == (endsInReducer ? "ended_process" : "returned"), "\(marks.stdout)")
    // The state after each action written rebuilds; after one from the journal, none is known.
    let lastWritten = flights.lastIndex(of: "") ?? -1
    let state = try await Product.tcatrace.run(["state", path, "--session", "1"])
    #expect(state.status == 0, "\(state.stderr)")
    let unknown = try await Product.tcatrace.run(["state", path, "--session", "1", "--at", "6"])
    #expect(unknown.status == 2)
    #expect(
      unknown.stderr
        == "Error: '\(path)' knows no state of session 1 after action #6: its process ended before its recorder wrote the actions after #\(lastWritten + 1), and the flight journal kept only what they were; ask for 0 to \(lastWritten + 1)\n"
    )
    let after = try await Product.tcatrace.run(["sessions", path])
    #expect(
      after.stdout.contains(endsInReducer ? "ended in #6 crashButtonTapped" : "ended after #6"),
      "\(after.stdout)")
    #expect(after.stdout.contains(" appended "), "\(after.stdout)")
    // Every session: the journal's actions right after their own session's.
    let all = try await Product.tcatrace.run(
      ["replay", path, "--session", "all", "--format", "jsonl", "--no-diff"])
    let order = try all.stdout.split(separator: "\n").map { line in
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      return "\(object["session"] as? Int ?? 0).\(object["seq"] as? Int ?? 0)"
    }
    #expect(order == ["1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "2.1", "2.2", "2.3"])
  }

  /// A reducer that never returns holds the main thread until the process is killed, as the
  /// watchdog kills an app on iOS: the journal names that action as the one the process ended
  /// in.
  @Test func aProcessKilledInAReducerThatNeverReturnedEndedInIt() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("qa.db")
    let process = Product("tcatrace-fixture").process(
      ["crash", path, "hangInReducer"], in: directory.url)
    let lines = try process.runReadingLines()
    defer {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }
    #expect(try await lines.next(within: 60) == "committed 3")
    // NB: The journal says the reducer of action 6 is running once the file says so.
    let deadline = ContinuousClock.now + .seconds(60)
    while FlightJournal.read(tracePath: path)?.endedIn?.seq != 6, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    kill(process.processIdentifier, SIGKILL)
    #expect(try await process.end(within: 30))
    #expect(process.terminationReason == .uncaughtSignal)
    try await Self.expectSixActions(in: path, endsInReducer: true, how: "hangInReducer")
    let sessions = try await Product.tcatrace.run(["sessions", path])
    #expect(sessions.stdout.contains("ended in #6 crashButtonTapped"), "\(sessions.stdout)")
  }

  @Test
  func aRecorderThatClosesLeavesNoJournalAndOneThatRunsShowsNone() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("qa.db")
    let appended = try await Product("tcatrace-fixture").run(["append", path, "2"])
    #expect(appended.status == 0, "\(appended.stdout)\(appended.stderr)")
    #expect(!FileManager.default.fileExists(atPath: path + "-flight"))

    // While a recorder runs (paused after its first action), its journal is beside the file,
    // and `tcatrace` shows only what the recorder wrote.
    let process = Product("tcatrace-fixture").process(["append", path, "3", "1"])
    let input = Pipe()
    process.standardInput = input
    let lines = try process.runReadingLines()
    defer {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }
    while try #require(try await lines.next(within: 60)) != "paused" {}
    #expect(FileManager.default.fileExists(atPath: path + "-flight"))
    let sessions = try await Product.tcatrace.run(["sessions", path, "--format", "json"])
    #expect(sessions.status == 0, "\(sessions.stderr)")
    #expect(!sessions.stdout.contains(#""flight":{"#), "\(sessions.stdout)")
    input.fileHandleForWriting.write(Data("go\n".utf8))
    try input.fileHandleForWriting.close()
    #expect(try await process.end(within: 60))
    #expect(process.terminationStatus == 0)
    #expect(!FileManager.default.fileExists(atPath: path + "-flight"))
  }

  /// Reads the crashed session with `tcatrace replay` and expects its six actions: 1–3 written,
  /// 4–6 in the journal (the fixture's writer waits an hour for their batch to fill), 6 the
  /// action the process ended in when it ended in the reducer, and one that returned when its
  /// effect aborted.
  static func expectSixActions(in path: String, endsInReducer: Bool, how: String) async throws {
    let replay = try await Product.tcatrace.run(
      ["replay", path, "--session", "1", "--format", "jsonl", "--no-diff"])
    #expect(replay.status == 0, "\(replay.stderr)")
    let actions = try replay.stdout.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(actions.map { $0["seq"] as? Int } == [1, 2, 3, 4, 5, 6])
    #expect(
      actions.map { $0["case"] as? String } == Array(repeating: "tapped", count: 5) + [
        "crashButtonTapped"
      ])
    let flights = actions.map { $0["flight"] as? String }
    #expect(flights.prefix(3).allSatisfy { $0 == nil }, "\(flights)")
    #expect(flights.dropFirst(3).allSatisfy { $0 != nil }, "\(flights)")
    if endsInReducer {
      #expect(flights.last == "ended_process")
      #expect(flights.dropLast().allSatisfy { $0 != "ended_process" })
    } else {
      #expect(!flights.contains("ended_process"))
    }
    let last = try #require(actions.last)
    #expect(
      last["payload_json"] as? String == #"{"view":{"_0":{"crashButtonTapped":{"_0":"\#(how)"}}}}"#)
    #expect(last["category"] as? String == "view")
  }
}
