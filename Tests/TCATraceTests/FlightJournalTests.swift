import Foundation
import TCATrace
import TCATraceFile
import TestSupport
import Testing

/// Issue #73: the flight journal a recorder writes beside its trace (`FlightJournal`). What a
/// process that ends leaves in it is `CrashTests`' and `KillTests`'; here, what a running
/// recorder writes, and how a damaged or hostile journal reads.
@MainActor
@Suite(.hangGuard)
struct FlightJournalTests {
  /// A running recorder's journal holds each action as its reducer returned, with the case
  /// path and payload the trace gets; a recorder that redacts values withholds the payload; a
  /// recorder that closes removes its journal.
  @Test(arguments: [false, true])
  func aRunningRecordersJournalHoldsItsActions(redacting: Bool) async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("qa.db")
    let recorder = try TraceRecorder(
      path: path, policy: .recordOnly,
      redacting: redacting ? [.state(\Counter.State.secret)] : [])
    let store = RecordingStore(initialState: Counter.State(), recorder: recorder) { Counter() }
    store.send(.tapped(1))
    await recorder.flush()
    store.send(.tapped(2))
    store.send(.tapped(3))

    let journal = try #require(FlightJournal.read(tracePath: path))
    #expect(journal.pid == Int(ProcessInfo.processInfo.processIdentifier))
    #expect(journal.sessionID == 1)
    #expect(!journal.hasEnded)
    #expect(journal.endedIn == nil)
    // NB: The writer may have committed 2 and 3 by now: what it has not is in the journal.
    let seqs = journal.uncommitted.map(\.seq)
    #expect(seqs == Array((journal.committedSeq + 1)..<4))
    #expect(journal.committedSeq >= 1)
    for entry in journal.uncommitted {
      #expect(entry.state == .returned)
      #expect(entry.path == "tapped")
      #expect(entry.caseName == "tapped")
      #expect(entry.category == "unclassified")
      #expect(entry.isWithheld == redacting)
      #expect(entry.payload == (redacting ? nil : "\(entry.seq)"))
      #expect(entry.payloadJSON == (redacting ? nil : #"{"tapped":{"_0":\#(entry.seq)}}"#))
    }

    try await recorder.close()
    #expect(!FileManager.default.fileExists(atPath: path + "-flight"))
    #expect(try TraceReader(path: path).lastSeq(session: 1) == 3)
  }

  /// An action whose chain of cases the classifier keeps is written into the journal from the
  /// texts the classifier laid out once for the chain: each entry reads as the first of its
  /// chain, which was classified by reflection and written a text at a time, and as the trace
  /// has it. The writer is held back by another connection's lock, so that no action is
  /// committed and each stays in the journal.
  @Test func keptClassificationsAreJournaledAsTheFirstOfTheirChain() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("held.db")
    try await TraceRecorder(path: path, policy: .recordOnly).close()
    var holder: SQLiteConnection? = try SQLiteConnection(path: path, mode: .readWrite)
    try holder?.execute(
      "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE sessions SET name = name")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: Nested.State(), recorder: recorder) { Nested() }
    for count in 1...3 { store.send(._internal(.child(.view(.tapped(count))))) }
    for _ in 1...3 { store.send(._internal(.child(.delegate(.finished)))) }
    for count in 1...3 {
      store.send(._internal(.child(._internal(.grandchild(.view(.tapped(count)))))))
    }
    for _ in 1...3 { store.send(.view(.appeared)) }

    let journal = try #require(FlightJournal.read(tracePath: path))
    #expect(journal.committedSeq == 0)
    let entries = journal.uncommitted
    try #require(entries.map(\.seq) == Array(1...12))
    // NB: Three actions of each chain: the first classified by reflection, the others kept.
    let expected = [
      ("_internal.child.view.tapped", "internal", "child", "view", "tapped", true),
      ("_internal.child.delegate.finished", "internal", "child", "delegate", "finished", false),
      (
        "_internal.child._internal.grandchild.view.tapped", "internal", "child.grandchild", "view",
        "tapped", true
      ),
      ("view.appeared", "view", "", "view", "appeared", false),
    ]
    for (index, entry) in entries.enumerated() {
      let (path, rootCategory, feature, category, caseName, hasPayload) = expected[index / 3]
      #expect(entry.path == path)
      #expect(entry.rootCategory == rootCategory)
      #expect(entry.feature == feature)
      #expect(entry.category == category)
      #expect(entry.caseName == caseName)
      #expect(entry.payload == (hasPayload ? "\(index % 3 + 1)" : nil))
    }

    try holder?.execute("COMMIT")
    holder = nil
    try await recorder.close()
    let actions = try TraceReader(path: path).actions()
    #expect(actions.map(\.path) == entries.map(\.path))
    #expect(actions.map(\.feature) == entries.map(\.feature))
  }

  /// A `TraceRedacted` value never reaches the journal's file: its payload renders it as the
  /// marker, and its JSON is scrubbed before it is written.
  @Test func aTraceRedactedValueIsNotInTheJournal() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("qa.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: Counter.State(), recorder: recorder) { Counter() }
    store.send(.signedIn(Token(value: "s3cret-token")))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path + "-flight"))
    #expect(bytes.range(of: Data("s3cret-token".utf8)) == nil)
    let entry = try #require(FlightJournal.read(tracePath: path)?.uncommitted.first)
    #expect(entry.payload == "Token(<redacted>)" || entry.payload == "<redacted>")
    #expect(entry.payloadJSON == #"{"signedIn":{"_0":"<redacted>"}}"#)
    try await recorder.close()
  }

  /// Two recorders of one process on one file: the second makes no journal of its own, and
  /// the first's is left as it is.
  @Test func aSecondRecorderOfTheProcessOnTheFileMakesNoJournal() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("qa.db")
    let first = try TraceRecorder(path: path, policy: .recordOnly)
    let firstStore = RecordingStore(initialState: Counter.State(), recorder: first) { Counter() }
    firstStore.send(.tapped(1))
    let second = try TraceRecorder(path: path, policy: .recordOnly)
    let secondStore = RecordingStore(initialState: Counter.State(), recorder: second) {
      Counter()
    }
    secondStore.send(.tapped(7))
    let journal = try #require(FlightJournal.read(tracePath: path))
    #expect(journal.uncommitted.allSatisfy { $0.payload == "1" })
    try await second.close()
    #expect(FileManager.default.fileExists(atPath: path + "-flight"))
    try await first.close()
    #expect(!FileManager.default.fileExists(atPath: path + "-flight"))
  }

  /// A journal is untrusted: bytes that are not one, or one whose lengths and counts point
  /// outside it, read as no journal or as the entries that are whole, and never past its end.
  @Test func aDamagedOrHostileJournalReadsAsWhatIsWholeInIt() throws {
    #expect(FlightJournal.parse([]) == nil)
    #expect(FlightJournal.parse(Array("TCAFLIT1".utf8)) == nil)
    #expect(FlightJournal.parse(Array(repeating: 0xFF, count: 4_096)) == nil)

    // A header that claims more slots than the bytes hold.
    var header = FlightJournal.magic + [UInt8](repeating: 0, count: 56)
    Self.put(UInt32(1 << 16), at: FlightJournal.Header.slotCount, in: &header)
    Self.put(UInt32(1 << 20), at: FlightJournal.Header.slotSize, in: &header)
    #expect(FlightJournal.parse(header) == nil)

    // Two slots of 128 bytes: the first whole, the second with a length past its end.
    var bytes = header + [UInt8](repeating: 0, count: 256)
    Self.put(UInt32(2), at: FlightJournal.Header.slotCount, in: &bytes)
    Self.put(UInt32(128), at: FlightJournal.Header.slotSize, in: &bytes)
    for (slot, seq) in [(0, Int64(2)), (1, Int64(3))] {
      let base = FlightJournal.headerSize + slot * 128
      Self.put(seq, at: base + FlightJournal.Slot.seq, in: &bytes)
      Self.put(Int64(1), at: base + FlightJournal.Slot.state, in: &bytes)
      for field in 0..<FlightJournal.Slot.textCount {
        Self.put(
          UInt32(field < 5 ? 1 : 0xFFFF_FFFF), at: base + FlightJournal.Slot.lengths + 4 * field,
          in: &bytes)
      }
      bytes.replaceSubrange(
        (base + FlightJournal.Slot.text)..<(base + FlightJournal.Slot.text + 5),
        with: Array("pvfcn".utf8))
    }
    Self.put(
      UInt32(1_000), at: FlightJournal.headerSize + 128 + FlightJournal.Slot.lengths, in: &bytes)
    let journal = try #require(FlightJournal.parse(bytes))
    #expect(journal.uncommitted.map(\.seq) == [2])
    #expect(journal.uncommitted.first?.path == "p")
    #expect(journal.uncommitted.first?.caseName == "n")
    #expect(journal.endedIn?.seq == 2)

    // Random bytes after a valid header read without a crash.
    var random = SeededGenerator(seed: 73)
    for _ in 0..<200 {
      var noise = bytes
      for index in FlightJournal.headerSize..<noise.count {
        noise[index] = UInt8.random(in: 0...255, using: &random)
      }
      _ = FlightJournal.parse(noise)
    }
  }

  /// The next recorder on the file copies a journal's actions into their session, marked, and
  /// removes the journal; a journal the file cannot take (its session ended, or the file holds
  /// less than it says was committed) is left where it is, and the file as it was. What is in a
  /// journal is untrusted: a category the file does not know is written as unclassified.
  @Test func theNextRecorderCopiesAJournalIntoTheTrace() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("qa.db")
    for _ in 0..<4 {
      let recorder = try TraceRecorder(path: path, policy: .recordOnly)
      let store = RecordingStore(initialState: Counter.State(), recorder: recorder) { Counter() }
      store.send(.tapped(1))
      store.send(.tapped(2))
      try await recorder.close()
    }
    // Sessions 1, 2 and 4 end as a process that died does, without an end.
    try SQLiteConnection(path: path, mode: .readWrite).execute(
      "UPDATE sessions SET ended_at = NULL WHERE id IN (1, 2, 4)")
    let startedAt = try TraceReader(path: path).sessions().map(\.startedAt)
    // Session 1's journal: actions 4 (its reducer returned) and 5 (the process ended in it);
    // action 3 is in neither. Session 2's says 5 were committed, where the file holds 2; session
    // 3 ended; session 4's journal was written for another session 4, of another file once at
    // the same path.
    let journals = [
      (
        1,
        Self.journal(
          session: 1, startedAt: startedAt[0], committed: 2,
          entries: [
            (4, 2, "view"), (5, 1, "bogus"),
          ])
      ),
      (
        2,
        Self.journal(session: 2, startedAt: startedAt[1], committed: 5, entries: [(6, 1, "view")])
      ),
      (
        3,
        Self.journal(session: 3, startedAt: startedAt[2], committed: 2, entries: [(3, 1, "view")])
      ),
      (
        4,
        Self.journal(
          session: 4, startedAt: "2020-01-01T00:00:00.000Z", committed: 2, entries: [(3, 1, "view")]
        )
      ),
    ]
    for (session, bytes) in journals {
      try Data(bytes).write(to: URL(fileURLWithPath: path + "-flight-\(session)"))
    }

    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    try await recorder.close()
    let reader = try TraceReader(path: path)
    let copied = try reader.actions(matching: TraceFilter(session: 1))
    #expect(copied.map(\.seq) == [1, 2, 4, 5])
    #expect(copied.map(\.flight) == [nil, nil, .returned, .endedProcess])
    #expect(copied.map(\.category) == [.unclassified, .unclassified, .view, .unclassified])
    #expect(copied.last?.caseName == "case5")
    #expect(copied.last?.changes == [])
    #expect(try reader.session(id: 1).droppedActions == 1)
    #expect(try reader.lastSeq(session: 1, written: true) == 2)
    #expect(try reader.flightActions(session: 1)?.endedIn?.seq == 5)
    #expect(!FileManager.default.fileExists(atPath: path + "-flight-1"))
    for session in [2, 3, 4] {
      #expect(try reader.actions(matching: TraceFilter(session: Int64(session))).count == 2)
      #expect(FileManager.default.fileExists(atPath: path + "-flight-\(session)"))
    }
    #expect(throws: TraceFileError.self) { try reader.state(session: 1, after: 4) }
    #expect(try reader.state(session: 1, after: 2).rendered().contains("taps: 2"))
    // Left where they are, only the right session's is read: none here.
    #expect(try reader.flightActions(session: 4) == nil)
  }

  /// A journal of two slots of 256 bytes, of `session` begun at `startedAt`, by a process that
  /// is not running, with `entries` (seq, state, category) each of the case `case<seq>`.
  private static func journal(
    session: Int64, startedAt: String, committed: Int64, entries: [(Int64, Int64, String)]
  ) -> [UInt8] {
    let slotSize = 256
    var bytes = FlightJournal.magic + [UInt8](repeating: 0, count: 56 + 2 * slotSize)
    Self.put(UInt32(2), at: FlightJournal.Header.slotCount, in: &bytes)
    Self.put(UInt32(slotSize), at: FlightJournal.Header.slotSize, in: &bytes)
    Self.put(Int64(0), at: FlightJournal.Header.pid, in: &bytes)
    Self.put(session, at: FlightJournal.Header.sessionID, in: &bytes)
    Self.put(committed, at: FlightJournal.Header.committedSeq, in: &bytes)
    Self.put(
      FlightJournal.stamp(startedAt: startedAt), at: FlightJournal.Header.sessionStamp, in: &bytes)
    for (seq, state, category) in entries {
      let base = FlightJournal.headerSize + Int(seq % 2) * slotSize
      Self.put(seq, at: base + FlightJournal.Slot.seq, in: &bytes)
      Self.put(state, at: base + FlightJournal.Slot.state, in: &bytes)
      let texts = ["case\(seq)", category, "", category, "case\(seq)"]
      var offset = base + FlightJournal.Slot.text
      for field in 0..<FlightJournal.Slot.textCount {
        let text = field < texts.count ? Array(texts[field].utf8) : nil
        Self.put(
          UInt32(text?.count ?? 0xFFFF_FFFF), at: base + FlightJournal.Slot.lengths + 4 * field,
          in: &bytes)
        if let text {
          bytes.replaceSubrange(offset..<(offset + text.count), with: text)
          offset += text.count
        }
      }
    }
    return bytes
  }

  private static func put<Value: FixedWidthInteger>(
    _ value: Value, at offset: Int, in bytes: inout [UInt8]
  ) {
    withUnsafeBytes(of: value.littleEndian) { raw in
      bytes.replaceSubrange(offset..<(offset + raw.count), with: raw)
    }
  }
}

/// A feature with a child's actions, for entries with a feature and two categories.
private struct Nested: Reducer {
  struct State: Equatable {
    var taps = 0
  }

  enum Action {
    case view(RootView)
    case _internal(Internal)

    enum RootView {
      case appeared
    }

    enum Internal {
      case child(Child)
    }

    enum Child {
      case view(View)
      case delegate(Delegate)
      case _internal(ChildInternal)
    }

    enum ChildInternal {
      case grandchild(Grandchild)
    }

    enum Grandchild {
      case view(View)
    }

    enum View {
      case tapped(Int)
    }

    enum Delegate {
      case finished
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case let ._internal(.child(.view(.tapped(count)))) = action { state.taps = count }
    return .none
  }
}

private struct Counter: Reducer {
  struct State: Equatable {
    var taps = 0
    var secret = ""
  }

  enum Action: Codable {
    case tapped(Int)
    case signedIn(Token)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .tapped(count): state.taps = count
    case .signedIn: break
    }
    return .none
  }
}

private struct Token: Codable, Equatable, TraceRedacted {
  var value: String
}
