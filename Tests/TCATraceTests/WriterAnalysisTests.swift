import CSQLite
import CustomDump
import Foundation
@testable import TCATrace
import TCATraceExamples
import TestSupport
import Testing

/// Issue #75: where the writer keeps up, the store's thread hands each action over unanalysed,
/// and the writer's thread analyses it (`AnalysisBacklog`). What is recorded is the same.
@MainActor
@Suite(.hangGuard)
struct WriterAnalysisTests {
  /// The demo's session, its secrets redacted, analysed on the writer's thread, is the session
  /// analysed on the store's, row for row in every table: classifications, changes, JSON, kept
  /// states, redactions. Recorded in a process of its own, which has no `Shared` value (one
  /// made by another test of this process would keep the demo's state on the store's thread):
  /// every action but the first waits for the writer's thread.
  @Test func theDemoSessionIsRecordedAlikeOnEitherThread() async throws {
    let directory = try TemporaryDirectory()
    var dumps: [String: [String]] = [:]
    for thread in ["stores", "writers"] {
      let path = directory.path("demo-\(thread).db")
      let result = try await Product("tcatrace-fixture").run(
        ["record-demo-analysed-on", thread, path])
      #expect(result.status == 0, "\(result.stderr)")
      let actions = try TraceReader(path: path).actions().count
      #expect(actions > 20)
      let expected =
        thread == "writers" ? "admitted \(actions - 1) fallbacks 0" : "admitted 0 fallbacks 0"
      #expect(result.stdout.split(separator: "\n").last.map(String.init) == expected)
      #expect(
        try TraceReader(path: path).session(id: 1).backlogFallbacks
          == (thread == "writers" ? 0 : nil))
      dumps[thread] = try dump(path)
    }
    #expect(dumps["writers"]?.contains { $0.contains("<redacted>") } == true)
    expectNoDifference(dumps["writers"], dumps["stores"])
  }

  /// Leaks found on the writer's thread are the leaks found on the store's; so are the states
  /// kept whole after a debugger's jump.
  @Test func leaksAreFoundAlikeOnEitherThread() async throws {
    let directory = try TemporaryDirectory()
    var dumps: [Bool: [String]] = [:]
    for onWriter in [false, true] {
      let path = directory.path("leaky-\(onWriter).db")
      let recorder = try TraceRecorder(
        path: path, policy: .recordOnly, timing: .fixed, analysesOnWritersThread: onWriter)
      try await sendLeakyActions(recorder)
      let session = try #require(try TraceReader(path: path).sessions().first)
      #expect(session.leakCount == 3)
      #expect(recorder.backlog.admitted == (onWriter ? session.actionCount - 1 : 0))
      #expect(session.backlogFallbacks == (onWriter ? 0 : nil))
      dumps[onWriter] = try dump(path)
      // NB: The state before the first action, and the state after the jump's next action.
      #expect(dumps[onWriter]?.filter { $0.hasPrefix("states|") }.count == 2)
    }
    expectNoDifference(dumps[true], dumps[false])
  }

  /// Past its bound, the store's thread analyses the actions itself and the backlog counts
  /// them; nothing recorded differs. The writer is held back by another connection's lock on
  /// the file, so that the backlog fills.
  @Test func pastItsBoundTheStoresThreadAnalysesAndCountsIt() async throws {
    let directory = try TemporaryDirectory()
    let expected = directory.path("expected.db")
    try await sendLeakyActions(
      try TraceRecorder(
        path: expected, policy: .recordOnly, timing: .fixed, analysesOnWritersThread: false))
    // NB: With the actions their effects send at once.
    let actions = try TraceReader(path: expected).actions().count
    #expect(actions > leakyActions.count)

    let path = directory.path("held.db")
    try await TraceRecorder(path: path, timing: .fixed).close()
    var holder: SQLiteConnection? = try SQLiteConnection(path: path, mode: .readWrite)
    try holder?.execute(
      "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE sessions SET name = name")
    let backlog = AnalysisBacklog(maxActions: 3)
    let recorder = try TraceRecorder(
      path: path, policy: .recordOnly, timing: .fixed, analysesOnWritersThread: true,
      backlog: backlog)
    let store = try sendLeakyActions(to: recorder)
    // NB: The first action is analysed on the store's thread, the next three wait for the
    // writer, which cannot open the file; the store's thread analyses the rest.
    #expect(backlog.count == 3)
    #expect(backlog.admitted == 3)
    #expect(backlog.fallbacks == actions - 4)
    try holder?.execute("COMMIT")
    holder = nil
    await store.finish()
    try await recorder.close()
    #expect(backlog.count == 0)
    // The session counts them, as `tcatrace sessions` shows; the store's thread's own does not.
    #expect(try TraceReader(path: path).session(id: 1).backlogFallbacks == actions - 4)
    #expect(try TraceReader(path: expected).session(id: 1).backlogFallbacks == nil)

    // NB: The held file had no session before: its first is the expected file's.
    var recorded = try dump(path, session: 1)
    var wanted = try dump(expected, session: 1)
    recorded.removeAll { $0.hasPrefix("sessions|") }
    wanted.removeAll { $0.hasPrefix("sessions|") }
    #expect(!recorded.isEmpty)
    expectNoDifference(recorded, wanted)
  }
}

/// Actions of the leaky example, sent one after another: three of them leak.
private let leakyActions: [LeakyParentFeature.Action] = [
  .view(.refreshButtonTapped),
  ._internal(.child(.view(.buttonTapped))),
  .view(.refreshButtonTapped),
  ._internal(.child(._internal(.grandchild(.view(.finishButtonTapped))))),
  ._internal(.child(.view(.buttonTapped))),
  .view(.refreshButtonTapped),
  .view(.refreshButtonTapped),
  .view(.refreshButtonTapped),
]

@MainActor
private func sendLeakyActions(to recorder: TraceRecorder) throws
  -> RecordingStore<LeakyParentFeature.State, LeakyParentFeature.Action>
{
  let store = RecordingStore(initialState: LeakyParentFeature.State(), recorder: recorder) {
    LeakyParentFeature()
  }
  for (index, action) in leakyActions.enumerated() {
    store.send(action)
    // NB: As a debugger's jump does: the next action keeps the state after it whole.
    if index == 3 { recorder.stateWasReplaced() }
  }
  return store
}

@MainActor
private func sendLeakyActions(_ recorder: TraceRecorder) async throws {
  let store = try sendLeakyActions(to: recorder)
  await store.finish()
  try await recorder.close()
}

/// Every row of every table of the trace at `path` (of one session's, when given), as text,
/// table by table in the order of their rows.
private func dump(_ path: String, session: Int? = nil) throws -> [String] {
  var db: OpaquePointer?
  defer { sqlite3_close(db) }
  guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
    throw SQLiteFileError(message: "cannot open \(path)")
  }
  func rows(_ sql: String) throws -> [[String]] {
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
      throw SQLiteFileError(message: String(cString: sqlite3_errmsg(db)) + ": " + sql)
    }
    var rows: [[String]] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      rows.append(
        (0..<sqlite3_column_count(statement)).map { column in
          sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
        })
    }
    return rows
  }
  var lines: [String] = []
  for table in try rows(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
  ).map({ $0[0] }) {
    let info = try rows("SELECT name, pk FROM pragma_table_info('\(table)')")
    let columns = info.map { $0[0] }
    // NB: A table without rowids is in the order of its key.
    let key = info.filter { $0[1] != "0" }.sorted { Int($0[1])! < Int($1[1])! }.map { $0[0] }
    let isWithoutRowID =
      try rows("SELECT sql FROM sqlite_master WHERE name = '\(table)'").first?.first?
      .uppercased().contains("WITHOUT ROWID") == true
    // NB: Ids differ between two files of different histories; what they hold does not. Nor
    // does the count of fallbacks, which only a backlog keeps (checked on its own).
    let kept = columns.filter {
      !["id", "action_id", "session_id", "backlog_fallbacks"].contains($0)
    }
    guard !kept.isEmpty else { continue }
    var sql = "SELECT \(kept.joined(separator: ", ")) FROM \(table)"
    if let session, columns.contains("session_id") {
      sql += " WHERE session_id = \(session)"
    } else if let session, columns.contains("action_id") {
      sql += " WHERE action_id IN (SELECT id FROM actions WHERE session_id = \(session))"
    } else if let session, table == "sessions" {
      sql += " WHERE id = \(session)"
    }
    sql += " ORDER BY " + (isWithoutRowID ? key.joined(separator: ", ") : "rowid")
    lines += try rows(sql).map { "\(table)|" + $0.joined(separator: "|") }
  }
  return lines
}
