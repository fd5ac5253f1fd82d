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
      ("leaks", TraceColumns.leaks),
    ] {
      let statement = try connection.prepare("SELECT name FROM pragma_table_info(?1)")
      statement.bind([.text(table)])
      var names: [String] = []
      while try statement.step() { names.append(try statement.string(0)) }
      #expect(names.filter { $0 != "id" } == columns, "\(table)")
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
      try rows.endSession(id: session, endedAt: "2026-12-02T09:00:01.000Z", droppedActions: 3)
      try connection.execute("COMMIT")
    }

    let reader = try TraceReader(path: path)
    let read = try reader.session(id: 1)
    #expect([read.name, read.rootFeature] == ["counter", "CounterFeature"])
    #expect(read.actionCount == 2)
    let actions = try reader.actions()
    #expect(actions.map(\.origin) == [.send, .effect(cause: 1)])
    #expect(actions.map(\.payload) == [nil, "2"])
    #expect(actions[1].leaks.map(\.rule) == [.effectSendsViewAction])
    #expect(try reader.renderedState(session: 1, after: 2) == "CounterFeature.State(count: 2)")
    #expect(
      try reader.query("SELECT ended_at, dropped_actions FROM sessions").rows == [
        [.text("2026-12-02T09:00:01.000Z"), .integer(3)]
      ])
    // Each value in its column, by name: the writer binds by position, in the lists' order.
    #expect(
      try reader.query(
        "SELECT \(TraceColumns.actions.joined(separator: ", ")) FROM actions WHERE seq = 2"
      ).rows == [
        [
          .integer(1), .integer(2), .integer(2000), .integer(20), .text("effect"), .integer(1),
          .text("_internal.loaded"), .text("internal"), .text(""), .text("internal"),
          .text("loaded"), .text(""), .text("2"), .null, .null, .integer(1),
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
}
