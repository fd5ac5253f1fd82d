import CustomDump
import Foundation
import TCATrace
import TCATraceExamples
import TestSupport
import Testing

/// The bytes of the file at `path`.
private func bytes(_ path: String) throws -> Data {
  try Data(contentsOf: URL(fileURLWithPath: path))
}

/// Records a short session of the example app into `path`.
@MainActor
private func recordShortSession(_ path: String) async throws {
  let recorder = try TraceRecorder(path: path)
  let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
    AppFeature()
  } withDependencies: {
    $0.apiClient = .fake(latency: .zero)
    $0.tickClient = .immediate(count: 0)
    $0.stackElementID = .incrementing
  }
  store.send(._internal(.login(.view(.emailChanged("blob@example.com")))))
  store.send(.view(.settingsButtonTapped))
  try await recorder.close()
}

/// What a version-8 file lacks: the count of a session's fallbacks.
private let dropVersion8Column = "ALTER TABLE sessions DROP COLUMN backlog_fallbacks;"

/// The path of a file named `name` in `directory`, holding a short session, then changed by
/// `sql`: as an older or a newer TCATrace would have left it.
@MainActor
private func recordedFile(
  in directory: TemporaryDirectory, named name: String = "old.db", changedBy sql: String
) async throws -> String {
  let path = directory.path(name)
  try await recordShortSession(path)
  try makeSQLiteFile(path, sql: sql)
  return path
}

@MainActor
@Suite(.hangGuard)
struct TraceFileTests {
  @Test func recorderRefusesAFileThatIsNotSQLite() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("notes.db")
    try Data("these are my notes, not a database\n".utf8).write(to: URL(fileURLWithPath: path))
    let before = try bytes(path)
    #expect {
      try TraceRecorder(path: path)
    } throws: { error in
      (error as? TraceFileError)?.kind == .notSQLite
    }
    #expect(try bytes(path) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test func recorderRefusesASQLiteFileThatIsNotATrace() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("other.db")
    try makeSQLiteFile(
      path, sql: "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Blob');")
    let before = try bytes(path)
    #expect {
      try TraceRecorder(path: path)
    } throws: { error in
      let error = error as? TraceFileError
      return error?.kind == .notATrace
        && error?.description
          == "'\(path)' is a SQLite database but not a TCATrace file (no trace header)"
    }
    #expect(try bytes(path) == before)
  }

  /// Issue #18: a recorder appending to a version-1 file adds what versions 2 to 5 keep; the
  /// older sessions have no states, the new one has.
  @Test func recordingIntoAVersion1FileUpgradesIt() async throws {
    let directory = try TemporaryDirectory()
    let path = try await recordedFile(
      in: directory,
      changedBy: """
        DROP TABLE states; ALTER TABLE state_changes DROP COLUMN rebuild;
        ALTER TABLE actions DROP COLUMN json_changes; \(dropVersion5Columns) PRAGMA user_version = 1;
        """
    )
    #expect(try TraceReader(path: path).query("PRAGMA user_version").rows == [[.integer(1)]])
    try await recordShortSession(path)
    let reader = try TraceReader(path: path)
    #expect(try reader.query("PRAGMA user_version").rows == [[.integer(9)]])
    #expect(try reader.holdsStates(session: 1) == false)
    #expect(try reader.holdsStates(session: 2))
    #expect(throws: TraceFileError.self) { try reader.state(session: 1, after: 1) }
    #expect(
      try reader.state(session: 2, after: 1).node(at: "login.email")
        == .text(#""blob@example.com""#))
  }

  /// Issue #18: a version-2 file (states without their JSON) is read as it is, and a recorder
  /// appending to it adds the states' JSON column, which the older sessions leave empty.
  @Test func recordingIntoAVersion2FileUpgradesIt() async throws {
    let directory = try TemporaryDirectory()
    let path = try await recordedFile(
      in: directory,
      changedBy: """
        ALTER TABLE states DROP COLUMN json; ALTER TABLE actions DROP COLUMN json_changes;
        \(dropVersion5Columns) PRAGMA user_version = 2;
        """
    )
    var reader = try TraceReader(path: path)
    #expect(
      try reader.state(session: 1, after: 1).node(at: "login.email")
        == .text(#""blob@example.com""#))
    #expect(try reader.stateJSON(session: 1, after: 0) == nil)
    try await recordShortSession(path)
    reader = try TraceReader(path: path)
    #expect(try reader.query("PRAGMA user_version").rows == [[.integer(9)]])
    #expect(try reader.stateJSON(session: 1, after: 0) == nil)
    #expect(
      try reader.query("SELECT count(*) FROM states WHERE session_id = 2").rows == [[.integer(1)]])
  }

  /// Issue #18: a version-3 file (the states' JSON only where a whole state was kept) is read
  /// as it is — the JSON at kept states, none between them — and a recorder appending to it
  /// adds the actions' `json_changes`, with which the new session's JSON is known at every step.
  @Test func recordingIntoAVersion3FileUpgradesIt() async throws {
    let directory = try TemporaryDirectory()
    let path = try await recordedFile(
      in: directory,
      changedBy:
        "ALTER TABLE actions DROP COLUMN json_changes; \(dropVersion5Columns) PRAGMA user_version = 3;"
    )
    var reader = try TraceReader(path: path)
    #expect(try reader.stateJSON(session: 1, after: 0) != nil)
    #expect(try reader.stateJSON(session: 1, after: 1) == nil)
    try await recordShortSession(path)
    reader = try TraceReader(path: path)
    #expect(try reader.query("PRAGMA user_version").rows == [[.integer(9)]])
    #expect(try reader.stateJSON(session: 1, after: 1) == nil)
    let json = try #require(try reader.stateJSON(session: 2, after: 1))
    #expect(
      try JSONDecoder().decode(AppFeature.State.self, from: Data(json.utf8)).login.email
        == "blob@example.com")
  }

  /// What a version-4 file lacks: the marks of actions sent at once and of shared changes, and
  /// what versions 5 to 8 lack.
  ///
  /// NB: SQLite drops a table's last column from the last comma before its name, comments
  /// included: the schema's comments on `sessions.trimmed_actions` and
  /// `sessions.backlog_fallbacks` have none.
  private let dropVersion5Columns =
    "\(dropVersion8Column) ALTER TABLE actions DROP COLUMN flight; ALTER TABLE actions DROP COLUMN at_once; ALTER TABLE state_changes DROP COLUMN shared; ALTER TABLE sessions DROP COLUMN trimmed_actions;"

  /// Issue #73: a version-5 file (no count of trimmed actions) is read as it is, none trimmed,
  /// and a recorder appending to it adds the column, which the older sessions leave at 0.
  @Test func recordingIntoAVersion5FileUpgradesIt() async throws {
    let directory = try TemporaryDirectory()
    let path = try await recordedFile(
      in: directory,
      changedBy:
        "\(dropVersion8Column) ALTER TABLE actions DROP COLUMN flight; ALTER TABLE sessions DROP COLUMN trimmed_actions; PRAGMA user_version = 5;"
    )
    var reader = try TraceReader(path: path)
    #expect(try reader.sessions().allSatisfy { $0.trimmedActions == 0 })
    #expect(try reader.firstStep(session: 1) == 0)
    try await recordShortSession(path)
    reader = try TraceReader(path: path)
    #expect(try reader.query("PRAGMA user_version").rows == [[.integer(9)]])
    #expect(
      try reader.query("SELECT id, trimmed_actions FROM sessions ORDER BY id").rows
        == [[.integer(1), .integer(0)], [.integer(2), .integer(0)]])
  }

  /// Issue #73: a version-6 file (no marks of actions copied from a flight journal) is read as
  /// it is, none marked, and a recorder appending to it adds the column, which the older
  /// sessions leave empty.
  @Test func recordingIntoAVersion6FileUpgradesIt() async throws {
    let directory = try TemporaryDirectory()
    let path = try await recordedFile(
      in: directory,
      changedBy:
        "\(dropVersion8Column) ALTER TABLE actions DROP COLUMN flight; PRAGMA user_version = 6;")
    var reader = try TraceReader(path: path)
    let actions = try reader.actions(matching: TraceFilter(session: 1))
    #expect(!actions.isEmpty)
    #expect(actions.allSatisfy { $0.flight == nil })
    #expect(try reader.lastSeq(session: 1, written: true) == actions.count)
    try await recordShortSession(path)
    reader = try TraceReader(path: path)
    #expect(try reader.query("PRAGMA user_version").rows == [[.integer(9)]])
    #expect(
      try reader.query(
        """
        SELECT (SELECT count(*) FROM pragma_table_info('actions') WHERE name = 'flight'),
          (SELECT count(*) FROM actions WHERE flight IS NOT NULL)
        """
      ).rows == [[.integer(1), .integer(0)]]
    )
  }

  /// Issue #75: a version-8 file (no count of fallbacks) is read as it is, none counted, and a
  /// recorder appending to it adds the column, which the older sessions leave empty and a
  /// recorder whose writer analyses its actions fills.
  @Test func recordingIntoAVersion8FileUpgradesIt() async throws {
    let directory = try TemporaryDirectory()
    let path = try await recordedFile(
      in: directory, changedBy: "\(dropVersion8Column) PRAGMA user_version = 8;")
    var reader = try TraceReader(path: path)
    #expect(try reader.sessions().map(\.backlogFallbacks) == [nil])
    // Merged as it is: its count is not known in the merged trace either.
    let merged = directory.path("merged.db")
    #expect(FileManager.default.createFile(atPath: merged, contents: nil))
    do {
      let merge = try TraceMerge(path: merged, destination: merged)
      try merge.append(path, as: "old.db")
    }
    #expect(try TraceReader(path: merged).sessions().map(\.backlogFallbacks) == [nil])
    // NB: A state that cannot hold a shared value: its actions may wait for the writer's
    // thread whatever other tests of this process made.
    let recorder = try TraceRecorder(
      path: path, policy: .recordOnly, timing: .fixed, analysesOnWritersThread: true)
    let store = RecordingStore(initialState: LeakyParentFeature.State(), recorder: recorder) {
      LeakyParentFeature()
    }
    store.send(.view(.refreshButtonTapped))
    store.send(.view(.refreshButtonTapped))
    try await recorder.close()
    reader = try TraceReader(path: path)
    #expect(try reader.query("PRAGMA user_version").rows == [[.integer(9)]])
    #expect(try reader.sessions().map(\.backlogFallbacks) == [nil, 0])
    #expect(
      try reader.query("SELECT id, backlog_fallbacks FROM sessions ORDER BY id").rows
        == [[.integer(1), .null], [.integer(2), .integer(0)]])
  }

  /// Issue #74: a version-7 file (no debugger events, and an origin constraint without
  /// 'debugger') is read as it is, with none, and a recorder appending to it adds the table and
  /// makes the actions table again with the new constraint, its rows as they were: the file is
  /// whole, its views read it, and the connection that upgraded it writes the debugger's origin.
  @Test func recordingIntoAVersion7FileUpgradesIt() async throws {
    let directory = try TemporaryDirectory()
    let path = try await recordedFile(
      in: directory,
      changedBy: """
        \(dropVersion8Column)
        DROP TABLE debugger_events;
        PRAGMA writable_schema = ON;
        UPDATE sqlite_schema
        SET sql = replace(sql, 'origin = ''send'' OR origin = ''effect'' OR origin = ''debugger''', 'origin IN (''send'', ''effect'')')
        WHERE name = 'actions';
        PRAGMA writable_schema = OFF;
        PRAGMA user_version = 7;
        """)
    let insertDebuggerAction = """
      INSERT INTO actions (session_id, seq, time_ns, duration_ns, origin, path, root_category,
        feature, category, case_name, state_path)
      SELECT session_id, 99, 0, 0, 'debugger', path, root_category, feature, category, case_name,
        state_path
      FROM actions WHERE seq = 1 AND session_id = 1;
      """
    // The version-7 constraint refuses the debugger's origin: the file is what version 7 wrote.
    #expect(throws: SQLiteFileError.self) { try makeSQLiteFile(path, sql: insertDebuggerAction) }
    var reader = try TraceReader(path: path)
    #expect(try reader.debuggerEvents(session: 1) == [])
    let before = try reader.query("SELECT * FROM actions ORDER BY id").rows
    let timeline = try reader.query("SELECT * FROM timeline").rows
    // What a recorder does first with a file it appends to, then an action from the page.
    let connection = try TraceFile.openForWriting(path: path)
    try TraceFile.prepareForAppending(connection)
    let rows = try TraceRowWriter(connection: connection)
    try connection.transaction(.takingTheWriteLock) { () throws(TraceFileError) in
      _ = try rows.insertAction(
        sessionID: 1, seq: 99, timeNs: 0, durationNs: 0, causeSeq: nil, path: "view.sent",
        rootCategory: "view", feature: "", category: "view", caseName: "sent", statePath: "",
        payload: nil, payloadJSON: nil, jsonChanges: nil, atOnce: false, fromDebugger: true)
    }
    reader = try TraceReader(path: path)
    #expect(try reader.query("PRAGMA user_version").rows == [[.integer(9)]])
    #expect(
      try reader.query("SELECT * FROM actions WHERE seq < 99 ORDER BY id").rows == before)
    #expect(try reader.query("SELECT * FROM timeline WHERE seq < 99").rows == timeline)
    #expect(try reader.query("PRAGMA integrity_check").rows == [[.text("ok")]])
    #expect(try reader.debuggerEvents(session: 1) == [])
    #expect(
      try reader.actions(matching: TraceFilter(session: 1)).last.map { [$0.seq: $0.origin] }
        == [99: .debugger])
    #expect(
      try reader.query(
        "SELECT name FROM sqlite_schema WHERE tbl_name = 'actions' AND type = 'index' AND sql IS NOT NULL ORDER BY name"
      ).rows == [[.text("actions_by_category")], [.text("actions_by_feature")]])
  }

  /// Issue #58: a version-4 file (no marks of actions sent at once or of shared changes) is
  /// read as it is, none marked, and a recorder appending to it adds both columns, which the
  /// older sessions leave empty.
  @Test func recordingIntoAVersion4FileUpgradesIt() async throws {
    let directory = try TemporaryDirectory()
    let path = try await recordedFile(
      in: directory, changedBy: "\(dropVersion5Columns) PRAGMA user_version = 4;")
    var reader = try TraceReader(path: path)
    let actions = try reader.actions(matching: TraceFilter(session: 1))
    #expect(!actions.isEmpty)
    #expect(actions.allSatisfy { !$0.atOnce && $0.changes.allSatisfy { $0.sharedPath == nil } })
    try await recordShortSession(path)
    reader = try TraceReader(path: path)
    #expect(try reader.query("PRAGMA user_version").rows == [[.integer(9)]])
    #expect(
      try reader.query(
        """
        SELECT (SELECT count(*) FROM pragma_table_info('actions') WHERE name = 'at_once'),
          (SELECT count(*) FROM pragma_table_info('state_changes') WHERE name = 'shared'),
          (SELECT count(*) FROM actions WHERE at_once IS NOT NULL)
        """
      ).rows == [[.integer(1), .integer(1), .integer(0)]]
    )
  }

  /// Issue #18: a file whose kept states are a WITHOUT ROWID table, as files were written
  /// before, is read and appended to as one written now.
  @Test func statesKeptWithoutRowIDAreReadAndAppendedTo() async throws {
    let directory = try TemporaryDirectory()
    let path = try await recordedFile(
      in: directory,
      changedBy: """
        CREATE TABLE old_states (
          session_id INTEGER NOT NULL REFERENCES sessions (id), seq INTEGER NOT NULL,
          tree TEXT NOT NULL, json TEXT, PRIMARY KEY (session_id, seq)
        ) WITHOUT ROWID;
        INSERT INTO old_states SELECT session_id, seq, tree, json FROM states;
        DROP TABLE states;
        ALTER TABLE old_states RENAME TO states;
        """
    )
    let before = try TraceReader(path: path).renderedState(session: 1, after: 1)
    #expect(before.contains(#"email: "blob@example.com""#))
    try await recordShortSession(path)
    let reader = try TraceReader(path: path)
    #expect(
      try reader.query("SELECT sql LIKE '%WITHOUT ROWID' FROM sqlite_master WHERE name = 'states'")
        .rows == [[.integer(1)]])
    #expect(try reader.renderedState(session: 1, after: 1) == before)
    #expect(try reader.renderedState(session: 2, after: 1) == before)
    #expect(try reader.state(session: 2, after: 1).rendered() == before)
  }

  @Test func recorderAndReaderRefuseANewerSchema() async throws {
    let directory = try TemporaryDirectory()
    let path = try await recordedFile(
      in: directory, named: "future.db", changedBy: "PRAGMA user_version = 10;")
    let before = try bytes(path)
    let isNewer: (any Error) -> Bool = { ($0 as? TraceFileError)?.kind == .newerSchema(10) }
    #expect(performing: { try TraceRecorder(path: path) }, throws: isNewer)
    #expect(performing: { try TraceReader(path: path) }, throws: isNewer)
    #expect(try bytes(path) == before)
  }

  @Test func recorderRefusesADirectory() throws {
    let directory = try TemporaryDirectory()
    #expect {
      try TraceRecorder(path: directory.url.path)
    } throws: { error in
      (error as? TraceFileError)?.kind == .isDirectory
    }
  }

  @Test func readerQueriesCannotWriteOrAttach() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("session.db")
    try await recordShortSession(path)
    let before = try bytes(path)
    let reader = try TraceReader(path: path)
    #expect(throws: TraceFileError.self) { try reader.query("DELETE FROM actions") }
    #expect(throws: TraceFileError.self) { try reader.query("CREATE TABLE x (y)") }
    #expect(throws: TraceFileError.self) {
      try reader.query("ATTACH DATABASE '\(directory.path("other.db"))' AS other")
    }
    #expect(try reader.query("SELECT count(*) FROM actions").rows == [[.integer(2)]])
    #expect(try bytes(path) == before)
    #expect(!FileManager.default.fileExists(atPath: directory.path("other.db")))
  }

  @Test func readerRefusesValuesItDoesNotKnow() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("edited.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: LeakyParentFeature.State(), recorder: recorder) {
      LeakyParentFeature()
    }
    store.send(._internal(.refreshed))
    try await recorder.close()
    try makeSQLiteFile(path, sql: "UPDATE leaks SET rule = 'bogus-rule'")

    let reader = try TraceReader(path: path)
    let isEdited: (any Error) -> Bool = {
      ($0 as? TraceFileError)?.description
        == "'\(path)' holds an unknown leak rule 'bogus-rule': the file is damaged or was edited"
    }
    #expect(performing: { try reader.actions() }, throws: isEdited)
    #expect(performing: { try reader.leakSummaries() }, throws: isEdited)
  }

  @Test func timelineAndLeakReportViews() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("views.db")
    let recorder = try TraceRecorder(path: path, session: "leaky", policy: .recordOnly)
    let store = RecordingStore(initialState: LeakyParentFeature.State(), recorder: recorder) {
      LeakyParentFeature()
    }
    await DemoScript.runLeaky { store.send($0) }
    await store.finish()
    try await recorder.close()

    let reader = try TraceReader(path: path)
    let timeline = try reader.query(
      "SELECT session, seq, origin, cause_seq, category, feature, case_name, changes, leaks FROM timeline ORDER BY seq"
    )
    expectNoDifference(
      timeline.rows.map { $0.map(Self.text).joined(separator: " | ") },
      [
        "leaky | 1 | send | NULL | view | LeakyParentFeature | onAppear | 0 | NULL",
        "leaky | 2 | effect | 1 | view | LeakyParentFeature | refreshButtonTapped | 0 | effect-sends-view-action",
        "leaky | 3 | effect | 2 | internal | LeakyParentFeature | refreshed | 1 | NULL",
        "leaky | 4 | send | NULL | view | child | buttonTapped | 2 | parent-reacts-to-private-child-action",
        "leaky | 5 | send | NULL | view | child.grandchild | finishButtonTapped | 1 | NULL",
        "leaky | 6 | effect | 5 | delegate | child.grandchild | didFinish | 2 | ancestor-reacts-to-grandchild-delegate",
        "leaky | 7 | send | NULL | internal | LeakyParentFeature | refreshed | 1 | view-sends-private-action",
      ]
    )
    let report = try reader.query(
      "SELECT rule, feature, occurrences, first_seq FROM leak_report ORDER BY first_seq"
    )
    expectNoDifference(
      report.rows.map { $0.map(Self.text).joined(separator: " | ") },
      [
        "effect-sends-view-action | LeakyParentFeature | 1 | 2",
        "parent-reacts-to-private-child-action | LeakyParentFeature | 1 | 4",
        "ancestor-reacts-to-grandchild-delegate | LeakyParentFeature | 1 | 6",
        "view-sends-private-action | LeakyParentFeature | 1 | 7",
      ]
    )
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
  func theSQLite3CommandReadsTheTimeline() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("cli.db")
    try await recordShortSession(path)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, "SELECT seq, category, feature, case_name FROM timeline"]
    process.standardInput = FileHandle.nullDevice
    let result = try await process.runToEnd(timeLimit: 60)
    #expect(result.status == 0)
    expectNoDifference(
      result.stdout,
      """
      1|view|login|emailChanged
      2|view|AppFeature|settingsButtonTapped

      """
    )
  }

  private static func text(_ value: TraceValue) -> String {
    switch value {
    case .null: "NULL"
    case let .integer(integer): String(integer)
    case let .real(real): String(real)
    case let .text(text): text
    case let .blob(bytes): "<\(bytes.count) bytes>"
    }
  }
}
