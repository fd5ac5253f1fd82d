import CustomDump
import Foundation
import TCATrace
import TestSupport
import Testing

@Suite(.hangGuard)
struct CrashSafetyTests {
  @Test func aRecorderKilledMidSessionLeavesAFileThatOpensWithItsFlushedActions() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("killed.db")
    let process = Product("tcatrace-fixture").process(["record-until-killed", path])
    let lines = try process.runReadingLines()
    while let line = try await lines.next(), line != "sent 1000" {}

    // The file can be read while the recorder writes it, and it fills in without a close:
    // the writer flushes by time.
    var seenBeforeKill = 0
    while seenBeforeKill < 500 {
      if let reader = try? TraceReader(path: path),
        case let .integer(count)? = try? reader.query("SELECT count(*) FROM actions").rows.first?
          .first
      {
        seenBeforeKill = Int(count)
      }
      try await Task.sleep(for: .milliseconds(10))
    }

    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)

    let reader = try TraceReader(path: path)
    #expect(try reader.query("PRAGMA integrity_check").rows == [[.text("ok")]])
    let sessions = try reader.sessions()
    #expect(sessions.count == 1)
    let session = try #require(sessions.first)
    #expect(session.name == "killed")
    #expect(session.endedAt == nil)
    #expect(session.actionCount >= seenBeforeKill)
    // Every committed action is there, numbered without a gap.
    let numbering = try reader.query("SELECT min(seq), max(seq), count(*) FROM actions")
    #expect(
      numbering.rows == [
        [.integer(1), .integer(Int64(session.actionCount)), .integer(Int64(session.actionCount))]
      ])
    let first = try reader.actions(matching: TraceFilter(toSeq: 1))
    expectNoDifference(first.map(\.payload), [#""user0@example.com""#])
  }

  @Test func aFullDiskStopsTheRecordingButNotTheStore() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("full.db")
    let result = try await Product("tcatrace-fixture").run(
      ["record-until-full", path, "2000000", "20000"]
    )
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let issues = lines.filter { $0.hasPrefix("issue: ") }
    #expect(issues.count == 1)
    #expect(
      issues.first?.hasPrefix("issue: TCATrace stopped recording to '\(path)' at action #") == true)
    #expect(issues.first?.contains("while writing '\(path)'. The app goes on") == true)
    // The store processed every action after recording stopped.
    #expect(lines.contains("processed 20000; email starts 19999"))
    #expect(lines.last?.hasPrefix("close threw: SQLite error") == true)

    let reader = try TraceReader(path: path)
    #expect(try reader.query("PRAGMA quick_check").rows == [[.text("ok")]])
    let recorded = try #require(reader.sessions().first).actionCount
    #expect(recorded > 0)
    #expect(recorded < 20000)
  }

  /// Issue #20, item 17: when the writes that fail are the last ones (at `close()`), the one
  /// issue is still reported, not only thrown by `close()`.
  @Test func aFailureOfTheLastWritesIsReported() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("full-at-close.db")
    let result = try await Product("tcatrace-fixture").run(
      ["record-burst-until-full", path, "150000", "100"]
    )
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let issues = lines.filter { $0.hasPrefix("issue: ") }
    #expect(issues.count == 1)
    #expect(
      issues.first?.hasPrefix("issue: TCATrace stopped recording to '\(path)' at action #") == true)
    #expect(lines.last?.hasPrefix("close threw: ") == true)
  }

  /// Issue #20, item 15: two recorders that create the same new file both record their
  /// sessions (the schema is written once, under the write lock).
  @Test func twoRecordersCreatingOneFileBothRecord() async throws {
    let directory = try TemporaryDirectory()
    for round in 1...10 {
      let path = directory.path("race-\(round).db")
      async let first = Product("tcatrace-fixture").run(["record-demo", path])
      async let second = Product("tcatrace-fixture").run(["record-demo", path])
      let results = try await [first, second]
      for result in results {
        #expect(result.status == 0, "round \(round): \(result.stderr)")
        #expect(!result.stdout.contains("issue:"), "round \(round): \(result.stdout)")
      }
      #expect(try TraceReader(path: path).sessions().count == 4, "round \(round)")
    }
  }

  /// Issue #20, item 14: the recorder checks a trace before it appends to it, and does not
  /// append to one the CLI calls damaged; it reports one issue, and the app goes on.
  @Test func aDamagedTraceIsNotAppendedTo() async throws {
    let directory = try TemporaryDirectory()
    let good = directory.path("good.db")
    #expect(try await Product("tcatrace-fixture").run(["record-demo", good]).status == 0)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
    let pageSize = 4096
    // The same trace with a rollback journal, as a copy made with `sqlite3` may have: putting
    // it in WAL mode rewrites its header, so a damaged one must be refused before that (issue
    // #40: `tcatrace demo` refused three such files and changed them).
    let rollbackPath = directory.path("rollback-journal.db")
    try bytes.write(to: URL(fileURLWithPath: rollbackPath))
    try SQLiteConnection(path: rollbackPath, mode: .readWrite).execute(
      "PRAGMA journal_mode = DELETE")
    let rollback = try Data(contentsOf: URL(fileURLWithPath: rollbackPath))
    #expect(rollback[18] == 1 && rollback[19] == 1, "a rollback journal's header")
    let damages: [(String, Data)] = [
      ("truncated", bytes.prefix(bytes.count * 3 / 4)),
      (
        "zeroed-page",
        bytes.prefix(pageSize * 3) + Data(count: pageSize) + bytes.dropFirst(pageSize * 4)
      ),
      (
        "zeroed-page-rollback-journal",
        rollback.prefix(pageSize * 3) + Data(count: pageSize) + rollback.dropFirst(pageSize * 4)
      ),
    ]
    for (name, damaged) in damages {
      let path = directory.path("\(name).db")
      try damaged.write(to: URL(fileURLWithPath: path))
      let read = try await Product("tcatrace").run(["replay", path])
      #expect(read.status == 2, "\(name): the CLI calls it damaged")

      let result = try await Product("tcatrace-fixture").run(["append", path, "3"])
      #expect(result.status == 0, "\(name): \(result.stderr)")
      let lines = result.stdout.split(separator: "\n").map(String.init)
      if lines.first?.hasPrefix("refused: ") == true {
        // Damage that reading the header meets: `TraceRecorder(path:)` throws.
        #expect(lines.count == 1, "\(name): \(lines)")
        #expect(lines.first?.contains("malformed") == true, "\(name): \(lines)")
      } else {
        // Damage further in: the writer finds it before it writes, and the store goes on.
        let issues = lines.filter { $0.hasPrefix("issue: ") }
        #expect(issues.count == 1, "\(name): \(lines)")
        #expect(
          issues.first?.hasPrefix("issue: TCATrace does not append to '\(path)': it is damaged (")
            == true,
          "\(name): \(issues)"
        )
        #expect(
          issues.first?.hasSuffix("The app goes on without recording; record to a new file.")
            == true,
          "\(name): \(issues)"
        )
        // NB: Whether the writer found the damage before the last send or after it depends on
        // how soon its thread, below the app's, ran: on a busy machine, after.
        #expect(lines.contains("sent 3"), "\(name): the store went on")
        #expect(
          lines.last?.hasPrefix("close threw: '\(path)' is damaged (") == true, "\(name): \(lines)")
      }
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: path)) == damaged,
        "\(name): the file is untouched")
      #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "\(name)")
      #expect(!FileManager.default.fileExists(atPath: path + "-shm"), "\(name)")

      // `tcatrace demo` refuses it the same way, with exit code 2, and leaves it as it was.
      let demo = try await Product("tcatrace").run(["demo", "--out", path])
      #expect(demo.status == 2, "\(name): \(demo.stderr)")
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: path)) == damaged,
        "\(name): the demo left it untouched")
      #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "\(name)")
    }
  }

  /// Issue #20, item 16: a recorder opened while another process holds the file does not
  /// block the app's thread for the lock: the store goes on, and the session is written once
  /// the lock is released.
  @Test func openingWaitsForALockOffTheAppsThread() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("locked.db")
    #expect(try await Product("tcatrace-fixture").run(["record-demo", path]).status == 0)

    // Another process's exclusive lock: nothing can read the file while it is held.
    var holder: SQLiteConnection? = try SQLiteConnection(path: path, mode: .readWrite)
    try holder?.execute(
      "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE sessions SET name = name")

    // NB: It pauses after the fifth, once the recorder has written it: the lock is released
    // before it closes, however long the release takes on a busy machine (a recorder closed
    // while the lock is held gives up, as it should).
    let process = Product("tcatrace-fixture").process(["append", path, "5", "5"])
    let lines = try process.runReadingLines()
    var printed: [String] = []
    // The recorder opened and the store sent its actions while the lock is held: had opening
    // waited for the lock (5 s), it would have given up and reported an issue first.
    while let line = try await lines.next() {
      printed.append(line)
      if line == "sent 5" { break }
    }
    #expect(printed == (1...5).map { "sent \($0)" })
    try holder?.execute("COMMIT")
    holder = nil

    while let line = try await lines.next() { printed.append(line) }
    #expect(try await process.end(within: 60))
    #expect(process.terminationStatus == 0)
    #expect(printed.suffix(2) == ["paused", "closed"], "\(printed)")
    let reader = try TraceReader(path: path)
    let appended = try #require(reader.sessions().last)
    #expect(appended.name == "appended")
    #expect(appended.actionCount == 5)
    #expect(appended.endedAt != nil)
  }
}
