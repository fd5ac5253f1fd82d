import Foundation
import TestSupport
import Testing

@testable import TCATraceFile

/// Issue #72: the one writer of a trace's rows, and the one list of each table's columns that it
/// and `tcatrace merge` write by.
@Suite(.hangGuard)
struct TraceRowsTests {
  /// Each list is its table's columns, as the schema declares them, in their order, `id` aside.
  @Test func theColumnListsAreTheSchemasColumns() throws {
    let directory = try TemporaryDirectory()
    let connection = try TraceFile.openForWriting(path: directory.path("trace.db"))
    for (table, columns) in [
      ("sessions", TraceColumns.sessions), ("actions", TraceColumns.actions),
      ("state_changes", TraceColumns.stateChanges), ("states", TraceColumns.states),
      ("leaks", TraceColumns.leaks), ("debugger_events", TraceColumns.debuggerEvents),
    ] {
      let statement = try connection.prepare("SELECT name FROM pragma_table_info(?1)")
      statement.bind([.text(table)])
      var names: [String] = []
      while try statement.step() { names.append(try statement.string(0)) }
      #expect(names.filter { $0 != "id" } == columns, "\(table)")
    }
  }

  /// The writer's inserts build no temporary index as they run: a `CHECK (kind IN (…))` with
  /// more than two values built one at each row, most of what writing an action cost.
  @Test func theWritersInsertsBuildNoTemporaryIndex() throws {
    let directory = try TemporaryDirectory()
    let connection = try TraceFile.openForWriting(path: directory.path("trace.db"))
    func opcodes(_ sql: String) throws -> [String] {
      let statement = try connection.prepare("EXPLAIN " + sql)
      var opcodes: [String] = []
      while try statement.step() { opcodes.append(try statement.string(1)) }
      return opcodes
    }
    // What is looked for is what such a constraint makes.
    try connection.execute("CREATE TEMP TABLE listed (kind TEXT CHECK (kind IN ('a', 'b', 'c')))")
    #expect(try opcodes("INSERT INTO listed (kind) VALUES (?1)").contains("OpenEphemeral"))
    for (table, columns) in [
      ("sessions", TraceColumns.sessions), ("actions", TraceColumns.actions),
      ("state_changes", TraceColumns.stateChanges), ("states", TraceColumns.states),
      ("leaks", TraceColumns.leaks), ("debugger_events", TraceColumns.debuggerEvents),
    ] {
      let insert = try opcodes(
        TraceColumns.insert(into: table, columns, replacing: table == "states"))
      // NB: A `WITHOUT ROWID` table's row is an index's (`IdxInsert`).
      #expect(insert.contains("Insert") || insert.contains("IdxInsert"), "\(table)")
      #expect(!insert.contains("OpenEphemeral"), "\(table)")
    }
  }

  /// What the writer writes, the reader reads: a session, an action sent and one its effect
  /// sent, their changes, the kept state and a leak.
  @Test func whatTheWriterWritesTheReaderReads() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("trace.db")
    do {
      let connection = try TraceFile.openForWriting(path: path)
      let rows = try TraceRowWriter(connection: connection)
      try connection.execute("BEGIN IMMEDIATE")
      let session = try rows.beginSession(
        name: "counter", rootFeature: "CounterFeature", startedAt: "2026-12-02T09:00:00.000Z",
        recorderVersion: "0.1.0")
      try rows.insertState(
        sessionID: session, seq: 0,
        tree: #"["c",["struct","CounterFeature.State"],[["count","count",["t","0"]]]]"#,
        json: #"{"count":0}"#)
      let tapped = try rows.insertAction(
        sessionID: session, seq: 1, timeNs: 1000, durationNs: 10, causeSeq: nil,
        path: "view.incrementTapped", rootCategory: "view", feature: "", category: "view",
        caseName: "incrementTapped", statePath: "", payload: nil, payloadJSON: nil,
        jsonChanges: nil, atOnce: false)
      try rows.insertChange(
        actionID: tapped, position: 0, path: "count", kind: "changed", old: "0", new: "1",
        rebuild: nil, shared: nil)
      let loaded = try rows.insertAction(
        sessionID: session, seq: 2, timeNs: 2000, durationNs: 20, causeSeq: 1,
        path: "_internal.loaded", rootCategory: "internal", feature: "", category: "internal",
        caseName: "loaded", statePath: "", payload: "2", payloadJSON: nil, jsonChanges: nil,
        atOnce: true)
      try rows.insertChange(
        actionID: loaded, position: 0, path: "count", kind: "changed", old: "1", new: "2",
        rebuild: nil, shared: nil)
      try rows.insertLeak(
        actionID: loaded, rule: "effect-sends-view-action", feature: "", detail: "a detail")
      try rows.endSession(
        id: session, endedAt: "2026-12-02T09:00:01.000Z", droppedActions: 3, backlogFallbacks: 4)
      try connection.execute("COMMIT")
    }

    let reader = try TraceReader(path: path)
    let read = try reader.session(id: 1)
    #expect([read.name, read.rootFeature] == ["counter", "CounterFeature"])
    #expect(read.actionCount == 2)
    #expect(read.backlogFallbacks == 4)
    let actions = try reader.actions()
    #expect(actions.map(\.origin) == [.send, .effect(cause: 1)])
    #expect(actions.map(\.payload) == [nil, "2"])
    #expect(actions[1].leaks.map(\.rule) == [.effectSendsViewAction])
    #expect(try reader.renderedState(session: 1, after: 2) == "CounterFeature.State(count: 2)")
    #expect(
      try reader.query("SELECT ended_at, dropped_actions, backlog_fallbacks FROM sessions").rows
        == [[.text("2026-12-02T09:00:01.000Z"), .integer(3), .integer(4)]])
    // Each value in its column, by name: the writer binds by position, in the lists' order.
    #expect(
      try reader.query(
        "SELECT \(TraceColumns.actions.joined(separator: ", ")) FROM actions WHERE seq = 2"
      ).rows == [
        [
          .integer(1), .integer(2), .integer(2000), .integer(20), .text("effect"), .integer(1),
          .text("_internal.loaded"), .text("internal"), .text(""), .text("internal"),
          .text("loaded"), .text(""), .text("2"), .null, .null, .integer(1), .null,
        ]
      ])
    #expect(
      try reader.query(
        "SELECT \(TraceColumns.stateChanges.joined(separator: ", ")) FROM state_changes WHERE action_id = 2"
      ).rows == [
        [
          .integer(2), .integer(0), .text("count"), .text("changed"), .text("1"), .text("2"),
          .null, .null,
        ]
      ])
  }

  /// A session of a counter incremented at each action (`seqs`, the ones written), its state
  /// kept before the first and after those in `kept`, its JSON followed at each.
  private func counterTrace(
    in directory: TemporaryDirectory, seqs: [Int], kept: [Int] = []
  ) throws -> String {
    let path = directory.path("counter.db")
    let connection = try TraceFile.openForWriting(path: path)
    let rows = try TraceRowWriter(connection: connection)
    try connection.transaction(.takingTheWriteLock) { () throws(TraceFileError) in
      let session = try rows.beginSession(
        name: "counter", rootFeature: "CounterFeature", startedAt: "2026-12-02T09:00:00.000Z",
        recorderVersion: "0.1.0")
      func keep(_ count: Int) throws(TraceFileError) {
        try rows.insertState(
          sessionID: session, seq: count,
          tree: #"["c",["struct","CounterFeature.State"],[["count","count",["t","\#(count)"]]]]"#,
          json: #"{"count":\#(count)}"#)
      }
      try keep(0)
      for seq in seqs {
        let action = try rows.insertAction(
          sessionID: session, seq: seq, timeNs: Int64(seq) * 1_000_000, durationNs: 10,
          causeSeq: seq > 1 ? seq - 1 : nil, path: "view.incrementTapped", rootCategory: "view",
          feature: "", category: "view", caseName: "incrementTapped", statePath: "",
          payload: nil, payloadJSON: nil, jsonChanges: #"[["s",["count"],\#(seq)]]"#,
          atOnce: false)
        try rows.insertChange(
          actionID: action, position: 0, path: "count", kind: "changed", old: String(seq - 1),
          new: String(seq), rebuild: nil, shared: nil)
        if kept.contains(seq) { try keep(seq) }
      }
    }
    return path
  }

  /// Issue #73: trimming a session's first actions keeps the state before the first left (its
  /// tree and its JSON), from which every later state rebuilds; the session counts them, and a
  /// step before says they were trimmed.
  @Test func trimmingKeepsTheStateBeforeTheActionsLeft() throws {
    let directory = try TemporaryDirectory()
    let path = try self.counterTrace(in: directory, seqs: Array(1...6))
    do {
      let connection = try SQLiteConnection(path: path, mode: .readWrite)
      #expect(
        try TraceRowWriter(connection: connection).trim(session: 1, keepingFrom: 4, path: path)
          == 3)
    }
    let reader = try TraceReader(path: path)
    let session = try reader.session(id: 1)
    #expect(session.trimmedActions == 3)
    #expect(session.actionCount == 3)
    #expect(try reader.firstStep(session: 1) == 3)
    #expect(try reader.actions().map(\.seq) == [4, 5, 6])
    #expect(
      try reader.query("SELECT seq, json FROM states").rows == [
        [.integer(3), .text(#"{"count":3}"#)]
      ])
    for seq in 3...6 {
      #expect(
        try reader.renderedState(session: 1, after: seq) == "CounterFeature.State(count: \(seq))")
      #expect(try reader.stateJSON(session: 1, after: seq) == #"{"count":\#(seq)}"#)
    }
    for seq in [0, 2] {
      do throws(TraceFileError) {
        _ = try reader.state(session: 1, after: seq)
        Issue.record("the state after trimmed action #\(seq) was given")
      } catch {
        #expect(error.kind == .notInFile)
        #expect(
          error.message
            == "keeps no state of session 1 before action #4: its actions through #3 were trimmed from the file (an export of its last part); ask for 3 to 6"
        )
      }
    }
    // No row of what was trimmed is left.
    #expect(
      try reader.query(
        "SELECT (SELECT count(*) FROM state_changes), (SELECT count(*) FROM leaks)"
      ).rows == [[.integer(3), .integer(0)]])
  }

  /// Issue #73: where the state before the first action left cannot be rebuilt (an action
  /// before it is missing, as a recorder whose buffer was full drops), the session is cut at
  /// the next state kept after it; with none, nothing is removed.
  @Test func trimmingPastAMissingActionCutsAtTheNextKeptState() throws {
    for kept in [[5], []] {
      let directory = try TemporaryDirectory()
      let path = try self.counterTrace(in: directory, seqs: [1, 2, 4, 5, 6], kept: kept)
      do {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        #expect(
          try TraceRowWriter(connection: connection).trim(session: 1, keepingFrom: 4, path: path)
            == (kept.isEmpty ? 0 : 4))
      }
      let reader = try TraceReader(path: path)
      #expect(try reader.session(id: 1).trimmedActions == (kept.isEmpty ? 0 : 4))
      #expect(try reader.actions().map(\.seq) == (kept.isEmpty ? [1, 2, 4, 5, 6] : [6]))
      if !kept.isEmpty {
        #expect(try reader.renderedState(session: 1, after: 6) == "CounterFeature.State(count: 6)")
      }
    }
  }
}
