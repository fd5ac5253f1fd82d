import Foundation
import TCATraceFile
import TestSupport
import Testing

/// The reader on a trace written in SQL (`HandWrittenTrace`): what it lists, filters and
/// rebuilds, and the files it refuses, without the runtime that records traces.
@Suite(.hangGuard)
struct TraceReaderTests {
  @Test func listsTheSessionWithItsCounts() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.db")
    try HandWrittenTrace.write(to: path)
    let sessions = try TraceReader(path: path).sessions()
    #expect(sessions.map(\.name) == ["counter"])
    #expect(sessions.map(\.rootFeature) == ["CounterFeature"])
    #expect(sessions.map(\.actionCount) == [3])
    #expect(sessions.map(\.leakCount) == [1])
  }

  @Test func filtersActionsByCategoryFeatureAndLeaks() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.db")
    try HandWrittenTrace.write(to: path)
    let reader = try TraceReader(path: path)
    #expect(try reader.actions(matching: TraceFilter(categories: [.view])).map(\.seq) == [1, 3])
    #expect(
      try reader.actions(matching: TraceFilter(feature: "child")).map(\.caseName) == ["loaded"])
    let leaking = try reader.actions(matching: TraceFilter(leaksOnly: true))
    #expect(leaking.map(\.seq) == [3])
    #expect(leaking.first?.leaks.map(\.rule) == [.parentReactsToPrivateChildAction])
    let loaded = try #require(try reader.actions(matching: TraceFilter(fromSeq: 2, toSeq: 2)).first)
    #expect(loaded.origin == .effect(cause: 1))
    #expect(loaded.payload == #""hello""#)
    #expect(
      loaded.changes.map { [$0.path, $0.old, $0.new] } == [["child.title", #""""#, #""hello""#]])
  }

  /// A state path's history: the actions with a change at the path, below it, or above it,
  /// unless that one only put a collection in a new order; never a path that merely begins
  /// with the same characters.
  @Test func filtersActionsByTheStatePathTheyChanged() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.db")
    let connection = try TraceFile.openForWriting(path: path)
    let changes = [
      "('rows[id: 1].title', 'changed', NULL)", "('rows[id: 10].title', 'changed', NULL)",
      #"('rows', 'changed', '{"order":["[id: 10]","[id: 1]"]}')"#,
      "('rows[id: 1]', 'removed', NULL)", #"('login', 'added', '{"node":["t","nil"]}')"#,
      "('login.emailAddress', 'changed', NULL)",
    ]
    let actions = (1...7).map { seq in
      "(\(seq), 1, \(seq), \(seq), 1, 'send', NULL, 'view.tapped', 'view', '', 'view', 'tapped', '')"
    }
    let rows = changes.enumerated().map { offset, change in
      "(\(offset + 1), 0, " + change.dropFirst()
    }
    try connection.execute(
      """
      BEGIN;
      INSERT INTO sessions
        (id, name, root_feature, started_at, ended_at, dropped_actions, recorder_version)
      VALUES (1, 'paths', 'AppFeature', '2026-12-04T10:00:00.000Z', NULL, 0, '0.1.0');
      INSERT INTO actions
        (id, session_id, seq, time_ns, duration_ns, origin, cause_seq, path, root_category,
         feature, category, case_name, state_path)
      VALUES \(actions.joined(separator: ", "));
      INSERT INTO state_changes (action_id, position, path, kind, rebuild)
      VALUES \(rows.joined(separator: ", "));
      COMMIT;
      """
    )
    let reader = try TraceReader(path: path)
    func history(_ path: String) throws -> [Int] {
      try reader.actions(matching: TraceFilter(changedPath: path), includeChanges: false)
        .map(\.seq)
    }
    #expect(try history("rows[id: 1]") == [1, 4])
    #expect(try history("rows[id: 1].title") == [1, 4])
    #expect(try history("rows") == [1, 2, 3, 4])
    #expect(try history("login.email") == [5])
    #expect(try history("login") == [5, 6])
    #expect(try history("") == [1, 2, 3, 4, 5, 6])
    #expect(try history("rows[id: 1") == [])
    // NB: With the other filters, as every condition must hold.
    #expect(
      try reader.actions(matching: TraceFilter(toSeq: 3, changedPath: "rows")).map(\.seq)
        == [1, 2, 3])
  }

  /// Only the state before the first action is kept: the state after each later one is that,
  /// with every change up to it applied, rendered as CustomDump renders the value.
  @Test func rebuildsTheStateAfterEachActionFromTheKeptOne() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.db")
    try HandWrittenTrace.write(to: path)
    let reader = try TraceReader(path: path)
    #expect(
      try reader.renderedState(session: 1, after: 0) == """
        CounterFeature.State(
          count: 0,
          child: ChildFeature.State(title: "")
        )
        """
    )
    #expect(
      try reader.renderedState(session: 1, after: 2) == """
        CounterFeature.State(
          count: 1,
          child: ChildFeature.State(title: "hello")
        )
        """
    )
    #expect(
      try reader.renderedState(session: 1, after: 3) == """
        CounterFeature.State(
          count: 0,
          child: ChildFeature.State(title: "hello")
        )
        """
    )
  }

  @Test func oneSessionIsReadByIdOrAsTheLatest() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.db")
    try HandWrittenTrace.write(to: path)
    try HandWrittenTrace.appendSecondSession(to: path)
    let reader = try TraceReader(path: path)
    let sessions = try reader.sessions()
    #expect(sessions.map(\.id) == [1, 2])
    #expect(try reader.session(id: 1) == sessions[0])
    #expect(try reader.session(id: 2) == sessions[1])
    #expect(try reader.latestSession() == sessions[1])
    #expect(try reader.latestSession().actionCount == 2)
    #expect {
      try reader.session(id: 3)
    } throws: { error in
      // NB: A library's error names no command of the CLI's (issue #72).
      (error as? TraceFileError)?.description == "'\(path)' has no session 3"
    }

    let empty = directory.path("empty.db")
    try HandWrittenTrace.writeEmpty(to: empty)
    #expect(throws: TraceFileError.self) { try TraceReader(path: empty).latestSession() }
  }

  /// A reader opened `live` sees what is written after it opened; `afterID` reads the actions
  /// after the last one read, of every session, as `tcatrace replay --follow` reads them.
  @Test func followingAGrowingFileReadsOnlyNewActions() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.db")
    try HandWrittenTrace.write(to: path)
    let reader = try TraceReader(path: path, live: true)
    let first = try reader.actions(includeChanges: false)
    #expect(first.map(\.id) == [1, 2, 3])
    try HandWrittenTrace.appendSecondSession(to: path)
    let after = try reader.actions(
      matching: TraceFilter(afterID: first[2].id), includeChanges: false)
    #expect(after.map { [$0.sessionID, Int64($0.seq)] } == [[2, 1], [2, 2]])
  }

  /// Issue #72: the scoped read the CLI reads with, public: it returns what its body read from a
  /// whole file; it refuses a damaged file before its body runs; and it refuses what was read
  /// while the file was written (a recorder began appending), over what the body threw.
  @Test func aScopedReadChecksTheFileBeforeAndAfterItsBody() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.db")
    try HandWrittenTrace.write(to: path)
    #expect(try TraceReader.read(path: path) { try $0.sessions().map(\.name) } == ["counter"])

    #expect {
      try TraceReader.read(path: path) { reader in
        _ = try reader.sessions()
        try HandWrittenTrace.appendSecondSession(to: path)
        struct BodyFailed: Error {}
        throw BodyFailed()
      }
    } throws: { error in
      (error as? TraceFileError)?.kind == .changedWhileReading
    }
    // Read again, it is whole, and the waiting form reads it too.
    let count = try await TraceReader.read(path: path) { reader in
      await Task.yield()
      return try reader.sessions().count
    }
    #expect(count == 2)

    // A page past the first overwritten: SQLite's check finds it, and the body never runs.
    let damaged = directory.path("damaged.db")
    try HandWrittenTrace.write(to: damaged)
    let handle = try #require(FileHandle(forUpdatingAtPath: damaged))
    try handle.seek(toOffset: 4096 + 8)
    try handle.write(contentsOf: Data(repeating: 0x5A, count: 64))
    try handle.close()
    var bodyRan = false
    #expect {
      try TraceReader.read(path: damaged) { reader in
        bodyRan = true
        return try reader.sessions()
      }
    } throws: { error in
      (error as? TraceFileError)?.kind == .corrupt
    }
    #expect(!bodyRan)
  }

  @Test func refusesAMissingFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("nope.db")
    #expect {
      try TraceReader(path: path)
    } throws: { error in
      (error as? TraceFileError)?.description == "'\(path)' does not exist: check the path"
    }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func refusesAFileThatIsNotSQLiteAndLeavesIt() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("notes.db")
    let bytes = Data("not a database, just some notes\n".utf8)
    try bytes.write(to: URL(fileURLWithPath: path))
    #expect {
      try TraceReader(path: path)
    } throws: { error in
      (error as? TraceFileError)?.kind == .notSQLite
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["notes.db"])
  }

  @Test func refusesANewerSchema() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("newer.db")
    try HandWrittenTrace.write(to: path)
    try SQLiteConnection(path: path, mode: .readWrite).execute("PRAGMA user_version = 99")
    #expect {
      try TraceReader(path: path)
    } throws: { error in
      (error as? TraceFileError)?.kind == .newerSchema(99)
    }
  }

  @Test func queriesOnlyRead() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.db")
    try HandWrittenTrace.write(to: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let reader = try TraceReader(path: path)
    #expect(throws: TraceFileError.self) { try reader.query("DELETE FROM actions") }
    #expect(throws: TraceFileError.self) { try reader.query("UPDATE sessions SET name = 'x'") }
    #expect(try reader.query("SELECT count(*) FROM actions").rows == [[.integer(3)]])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }
}
