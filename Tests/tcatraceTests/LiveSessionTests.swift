import Foundation
import TCATraceFile
import TestSupport
import Testing

/// Issue #74's live connection, its rows: a session read from the file its recorder wrote,
/// carried as the protocol's messages in frames split anywhere, and written into a file of its
/// own reads as the recorded one does; messages out of place or malformed are refused with a
/// reason, and change no file.
@Suite(.hangGuard)
struct LiveSessionTests {
  /// Each of the demo's two sessions, fed a few actions at a time, framed, read back from
  /// chunks of 7 bytes and received into a file of its own: `tcatrace replay` prints the same
  /// actions, changes and leaks, `state` the same states, and `diff` finds them alike.
  @Test func aSessionCarriedLiveReadsAsTheRecordedOne() async throws {
    let trace = try await RecordedTrace()
    // NB: A count of fallbacks that the session's end carries (the fixture's recorder counts
    // none).
    try SQLiteConnection(path: trace.path, mode: .readWrite).execute(
      "UPDATE sessions SET backlog_fallbacks = 12 WHERE id = 2")
    for session in [1, 2] {
      let feed = LiveSessionFeed(path: trace.path, session: Int64(session))
      var sent: [LiveMessage] = []
      while !feed.isComplete {
        let batch = try feed.next(limit: 3)
        try #require(!batch.isEmpty, "the feed stopped before the session's end")
        sent += batch
      }
      #expect(try feed.next().isEmpty)
      let bytes = sent.flatMap(\.frame)
      var reader = LiveMessageReader()
      var received: [LiveMessage] = []
      var offset = 0
      while offset < bytes.count {
        reader.append(bytes[offset..<min(offset + 7, bytes.count)])
        offset += 7
        while let message = try reader.next() { received.append(message) }
      }
      #expect(received == sent)
      #expect(reader.pendingBytes == 0)

      let copy = trace.directory.path("live-\(session).db")
      let receiver = try LiveSessionReceiver(path: copy)
      var index = 0
      while index < received.count {
        try receiver.receive(Array(received[index..<min(index + 5, received.count)]))
        index += 5
      }
      #expect(receiver.hasReceivedEnd)

      let original = try await trace.run([
        "replay", "FILE", "--session", "\(session)", "--format", "jsonl",
      ])
      let live = try await Product.tcatrace.run([
        "replay", copy, "--session", "1", "--format", "jsonl",
      ])
      #expect(live.status == 0, "\(live.stderr)")
      #expect(
        live.stdout.replacingOccurrences(of: #"{"session":1,"#, with: #"{"session":\#(session),"#)
          == original.stdout)
      let lastSeq = original.stdout.split(separator: "\n").count
      #expect(lastSeq == (session == 1 ? 25 : 7))
      for seq in [0, lastSeq / 2, lastSeq] {
        let expected = try await trace.run([
          "state", "FILE", "--session", "\(session)", "--at", "\(seq)", "--format", "json",
        ])
        let state = try await Product.tcatrace.run([
          "state", copy, "--session", "1", "--at", "\(seq)", "--format", "json",
        ])
        #expect(state.status == 0, "\(state.stderr)")
        #expect(
          state.stdout.replacingOccurrences(of: #""session":1,"#, with: #""session":\#(session),"#)
            == expected.stdout, "state after #\(seq)")
      }
      let diff = try await Product.tcatrace.run([
        "diff", trace.path, "--session", "\(session)", copy, "--other-session", "1",
      ])
      #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
      let sessions = try TraceReader(path: copy).sessions()
      let recorded = try TraceReader(path: trace.path).sessions()[session - 1]
      #expect(sessions.map(\.name) == [recorded.name])
      #expect(sessions.map(\.endedAt) == [recorded.endedAt])
      #expect(sessions.map(\.backlogFallbacks) == [session == 1 ? 0 : 12])
    }
  }

  /// Messages that may not come where they come are refused with a reason, and the whole batch
  /// they came in is written not at all.
  @Test func messagesOutOfPlaceAreRefusedAndWriteNothing() throws {
    let directory = try TemporaryDirectory()
    let session = LiveMessage.session(
      LiveSession(
        name: "s", rootFeature: "AppFeature", startedAt: "2026-12-04T00:00:00.000Z",
        recorderVersion: "0.1.0"))
    func action(_ seq: Int, cause: Int? = nil, category: String = "view") -> LiveMessage {
      .action(
        LiveAction(
          seq: seq, timeNs: Int64(seq), durationNs: 1, causeSeq: cause, path: "view.tapped",
          rootCategory: "view", feature: "", category: category, caseName: "tapped",
          statePath: "", payload: nil, payloadJSON: nil, jsonChanges: nil, atOnce: false,
          changes: [
            .init(path: "count", kind: "changed", old: "0", new: "1", rebuild: nil, shared: nil)
          ],
          leaks: []))
    }
    let cases: [(String, [LiveMessage], String)] = [
      ("before", [action(1)], "an action before its session"),
      ("backwards", [session, action(2), action(2)], "action #2 after #2"),
      ("cause", [session, action(1, cause: 1)], "action #1 caused by #1, not one before it"),
      (
        "state", [session, action(1), .state(seq: 2, tree: "[]", json: nil)],
        "a state after action #2, which has not come"
      ),
      ("second", [session, session], "a second session"),
      (
        "after end",
        [session, .end(endedAt: nil, droppedActions: 0, backlogFallbacks: nil), action(1)],
        "a message after the session's end"
      ),
      (
        "fallbacks", [session, .end(endedAt: nil, droppedActions: 0, backlogFallbacks: -1)],
        "a negative count of fallbacks"
      ),
      ("greeting", [session, .welcome], "a greeting after the greetings"),
      ("schema", [session, action(1, category: "bogus")], "rows the trace's schema refuses"),
    ]
    for (name, messages, reason) in cases {
      let path = directory.path("\(name).db")
      let receiver = try LiveSessionReceiver(path: path)
      #expect {
        try receiver.receive(messages)
      } throws: { error in
        (error as? LiveProtocolError)?.reason.hasPrefix(reason) == true
      }
      #expect(try TraceReader(path: path).sessions().isEmpty, "\(name)")
    }
    // NB: A batch refused leaves the receiver where it was: the next batch may follow the last
    // one taken.
    let receiver = try LiveSessionReceiver(path: directory.path("after.db"))
    try receiver.receive([session, action(1)])
    #expect(throws: LiveProtocolError.self) { try receiver.receive([action(3), action(2)]) }
    try receiver.receive([action(2)])
    #expect(receiver.lastWrittenSeq == 2)
    #expect(try TraceReader(path: directory.path("after.db")).actions().map(\.seq) == [1, 2])
  }

  /// Issue #75: a session's end carries its count of fallbacks; an app older than the count
  /// sends none, which is not counted.
  @Test func aSessionsEndCarriesItsFallbacksIfAny() throws {
    var reader = LiveMessageReader()
    reader.append(
      Self.framed(#"{"end":{"ended_at":"2026-12-05T00:00:00.000Z","dropped_actions":2}}"#))
    #expect(
      try reader.next()
        == .end(endedAt: "2026-12-05T00:00:00.000Z", droppedActions: 2, backlogFallbacks: nil))
    let counted = LiveMessage.end(endedAt: nil, droppedActions: 0, backlogFallbacks: 976)
    reader.append(counted.frame)
    #expect(try reader.next() == counted)
  }

  /// Frames that are not the protocol's are refused as soon as what is wrong has arrived: a
  /// length past the bound at its fourth byte, before any of the message.
  @Test(arguments: [
    ([0, 0, 0, 0], "a message of 0 bytes"),
    ([0xFF, 0xFF, 0xFF, 0xFF], "a message of 4294967295 bytes"),
    (Self.framed("[1]"), "a message that is not one object with one member"),
    (Self.framed("nope"), "a message that is not JSON"),
    (Self.framed(#"{"x":{}}"#), "a message of no kind the protocol has"),
    (
      Self.framed(#"{"hello":{"version":"1","secret":"","app":""}}"#),
      "a 'hello' message whose 'version' is not an integer"
    ),
    (Self.framed(#"{"a":{},"b":{}}"#), "a message that is not one object with one member"),
    (Self.framed(#"{"welcome":{}} x"#), "a message that is not JSON"),
  ])
  func framesThatAreNotTheProtocolsAreRefused(bytes: [UInt8], reason: String) throws {
    var reader = LiveMessageReader()
    reader.append(bytes)
    #expect {
      _ = try reader.next()
    } throws: { error in
      (error as? LiveProtocolError)?.reason.hasPrefix(reason) == true
    }
  }

  /// `text` framed: its length, 4 bytes big-endian, then its bytes.
  static func framed(_ text: String) -> [UInt8] {
    let count = text.utf8.count
    return [0, 0, UInt8(count >> 8), UInt8(count & 0xFF)] + Array(text.utf8)
  }
}
