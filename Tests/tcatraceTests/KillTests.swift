import Foundation
import TestSupport
import Testing

/// Issue #73: what a recorder left on keeps when its app is killed from outside (`SIGKILL`: the
/// watchdog, a jetsam, a user's swipe from the app switcher after a suspension). The app is
/// `tcatrace-fixture`, recording actions at least 2 ms apart as taps come, killed at a moment
/// chosen at random; `tcatrace` reads the file it left, then again after another recorder appended
/// to it. What it must keep is every action its writer had committed, as the app said before
/// the kill: how soon after an action is recorded that is (a few milliseconds when the writer's
/// thread runs) is `tcatrace-bench --only kill`'s to measure, not a test's, on a machine as
/// busy as the one the suite runs on.
@Suite(.hangGuard)
struct KillTests {
  @Test(arguments: 0..<3)
  func anAppKilledAtARandomMomentKeepsEveryActionItsWriterHadCommitted(round: Int) async throws {
    var random = SeededGenerator(seed: 7_300 + UInt64(round))
    let directory = try TemporaryDirectory()
    let path = directory.path("qa.db")
    let process = Product("tcatrace-fixture").process(["record-taps-until-killed", path])
    let lines = try process.runReadingLines()
    defer {
      // NB: Killed however the test ends, so that the wait for it is bounded.
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }

    // After each send, the app prints the action's number and the last one its writer had
    // committed. Once its writer has committed one, it is killed a random while (0.3 to 1.5 s,
    // from a seeded generator) later; then every line it printed is read (the pipe holds them),
    // so the last is the last before the kill.
    var printed: [String] = []
    while printed.last.map({ Self.numbers(of: $0)?.written ?? 0 }) ?? 0 == 0 {
      printed.append(try #require(try await lines.next(within: 60)))
    }
    try await Task.sleep(for: .milliseconds(Int.random(in: 300...1_500, using: &random)))
    kill(process.processIdentifier, SIGKILL)
    printed += try await lines.next(Int.max, within: 60)
    #expect(try await process.end(within: 30))
    #expect(process.terminationReason == .uncaughtSignal)
    let numbers = try printed.map { line in try #require(Self.numbers(of: line), "\(line)") }
    let sent = try #require(numbers.last).sent
    let written = numbers.map(\.written).max() ?? 0
    #expect(written > 0)

    let kept = try #require(try await Self.numbers(in: path))
    // Every action the writer had committed, and nothing but actions sent: numbered from 1
    // without a gap, at most one past the last line printed (recorded, its line not printed).
    #expect(kept.inFile.count >= written)
    #expect(kept.inFile == Array(1..<(kept.inFile.count + 1)))
    #expect(kept.inFile.count <= sent + 1)
    // Then the flight journal's: the last 128 actions sent at most, and every one after those
    // in the file: numbered without a gap up to the last line printed, or one past it.
    if let last = kept.journal.last {
      #expect(kept.journal == Array((last - kept.journal.count + 1)...last))
      #expect(kept.journal.count <= 128)
      #expect(kept.journal.first! > kept.inFile.count)
      #expect(last == sent || last == sent + 1)
      #expect(kept.journal.count == min(128, last - kept.inFile.count))
    } else {
      #expect(kept.inFile.count >= sent)
    }

    // Another recorder opens the file and appends its session; the killed one reads the same,
    // the journal's actions copied into the file and the journal removed. Those between the
    // two, which neither held, count as dropped.
    let appended = try await Product("tcatrace-fixture").run(["append", path, "3"])
    #expect(appended.status == 0)
    #expect(appended.stdout.hasSuffix("closed\n"))
    #expect(
      try await Self.numbers(in: path).map { [$0.inFile, $0.journal] } == [
        kept.inFile, kept.journal,
      ])
    #expect(!FileManager.default.fileExists(atPath: path + "-flight-1"))
    let sessions = try await Self.sessions(in: path)
    #expect(sessions.map(\.name) == ["taps", "appended"])
    #expect(sessions.first?.actions == kept.inFile.count + kept.journal.count)
    let dropped = try await Product.tcatrace.run([
      "sql", path, "SELECT dropped_actions FROM sessions WHERE id = 1", "--format", "csv",
    ])
    let gap = (kept.journal.first ?? kept.inFile.count + 1) - kept.inFile.count - 1
    #expect(dropped.stdout == "dropped_actions\n\(gap)\n")
  }

  /// The two numbers of a line the app printed: `sent N written W`.
  static func numbers(of line: String) -> (sent: Int, written: Int)? {
    let numbers = line.split(separator: " ").compactMap { Int($0) }
    return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
  }

  /// The file's sessions, as `tcatrace sessions` lists them: their ids, names and actions.
  static func sessions(in path: String) async throws -> [(id: Int, name: String, actions: Int)] {
    let result = try await Product.tcatrace.run(["sessions", path, "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    return try rows.map { row in
      (
        try #require(row["id"] as? Int), try #require(row["name"] as? String),
        try #require(row["actions"] as? Int)
      )
    }
  }

  /// The numbers of the taps session's actions, in order, as `tcatrace replay` prints them;
  /// `nil` when the file has no such session.
  /// The numbers of the taps `tcatrace replay` reads from the file, and then from the flight
  /// journal.
  static func numbers(in path: String) async throws -> (inFile: [Int], journal: [Int])? {
    guard let taps = try await Self.sessions(in: path).first(where: { $0.name == "taps" }) else {
      return nil
    }
    let replay = try await Product.tcatrace.run(
      ["replay", path, "--session", "\(taps.id)", "--format", "jsonl"])
    #expect(replay.status == 0, "\(replay.stderr)")
    let objects = try replay.stdout.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    let numbers = try objects.map { object in
      let payload = try #require(object["payload"] as? String)
      let number = try #require(Int(payload.dropFirst(#""tap"#.count).prefix { $0.isNumber }))
      return (number, inJournal: object["flight"] != nil)
    }
    return (numbers.filter { !$0.inJournal }.map(\.0), numbers.filter(\.inJournal).map(\.0))
  }
}
