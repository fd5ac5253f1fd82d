import Composable
import CustomDump
import Foundation
import IdentifiedCollections
import Synchronization
import TCATrace
import TCATraceExamples
import TCATraceFile
import TestSupport
import Testing

/// The state after each action, as CustomDump renders it, and its JSON when it is `Encodable`,
/// in the order the store processed them.
private final class StateLog: Sendable {
  let renderings = Mutex<[String]>([])
  let jsons = Mutex<[String]>([])
}

/// `state`'s JSON as the trace keeps it; `nil` when it is not `Encodable`.
private func traceJSON(_ state: Any) -> String? {
  guard let state = state as? any Encodable else { return nil }
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try! encoder.encode(state), as: UTF8.self)
}

/// `base`, rendering the state after each action into `log`.
private struct Capturing<Base: Reducer>: Reducer {
  let base: Base
  let log: StateLog

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let effect = self.base.reduce(into: &state, action: action)
    let rendering = String(customDumping: state)
    self.log.renderings.withLock { $0.append(rendering) }
    if let json = traceJSON(state) { self.log.jsons.withLock { $0.append(json) } }
    return effect
  }
}

/// A feature whose one action changes its state at random, by its seed: every shape the state
/// can take, over a long session.
private struct Shuffler: Reducer {
  enum Action: Equatable {
    case shuffle(seed: UInt64)
    case edit(seed: UInt64)
  }

  func reduce(into state: inout RandomState, action: Action) -> Effect<Action> {
    switch action {
    case let .shuffle(seed):
      var random = SeededGenerator(seed: seed)
      state.mutate(&random)
    case let .edit(seed):
      var random = SeededGenerator(seed: seed)
      state.edit(&random)
    }
    return .none
  }
}

/// A feature whose state is `Codable`, logging its state's JSON after each action.
private struct Tally: Reducer {
  struct State: Codable, Equatable {
    var count = 0
    var names = ["first"]
    var note: String?
  }

  enum Action: Equatable {
    case bump
  }

  let log: StateLog

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    if state.count.isMultiple(of: 7) { state.names.append("name \(state.count)") }
    state.note = state.count.isMultiple(of: 2) ? nil : "odd/\(state.count)"
    self.log.renderings.withLock { $0.append(Tally.json(state)) }
    return .none
  }

  static func json(_ state: State) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try! encoder.encode(state), as: UTF8.self)
  }
}

/// A feature whose state takes turns between the cases of an enum, with a field of the case
/// changed between turns, and a counter typed into again and again: the changes a rebuild
/// may leave out (a value overwritten later) next to those it must keep (a change inside a
/// case that a later change replaces).
private struct Turns: Reducer {
  struct Card: Equatable {
    var title: String
    var count = 0
  }

  enum Mode: Equatable {
    case editing(Card)
    case viewing(Card)
    case empty
  }

  struct State: Equatable {
    var mode = Mode.empty
    var typed = 0
    var cards: IdentifiedArrayOf<Item> = []
  }

  struct Item: Equatable, Identifiable {
    var id: Int
    var done = false
  }

  enum Action: Equatable {
    case edit(String)
    case bump
    case view
    case clear
    case type
    case add(Int)
    case remove(Int)
    case toggle(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .edit(title): state.mode = .editing(Card(title: title))
    case .bump:
      switch state.mode {
      case var .editing(card): card.count += 1; state.mode = .editing(card)
      case var .viewing(card): card.count += 1; state.mode = .viewing(card)
      case .empty: break
      }
    case .view:
      if case let .editing(card) = state.mode { state.mode = .viewing(card) }
    case .clear: state.mode = .empty
    case .type: state.typed += 1
    case let .add(id): state.cards.insert(Item(id: id), at: 0)
    case let .remove(id): state.cards.remove(id: id)
    case let .toggle(id): state.cards[id: id]?.done.toggle()
    }
    return .none
  }
}

/// Lets the main actor go now and then, in a loop of thousands of sends.
///
/// NB: Every suite's store tests run on the main actor: seconds of sends in a row (each
/// action's state rendered for the log, in a debug build) held it so long, on a busy machine,
/// that other suites' tests went past their time limits before they could start.
@MainActor
private func letOtherTestsRun(after index: Int) async {
  if index % 25 == 24 { await Task.yield() }
}

@MainActor
@Suite(.hangGuard)
struct TimeTravelTests {
  /// Issue #18: where the recorder keeps a whole state and the state is `Encodable`, it keeps its
  /// JSON too, as `JSONEncoder` wrote it then, which decodes to the state it was; and after
  /// every other action, the JSON is that JSON with the changes since applied.
  @Test func anEncodableStateKeepsItsJSONAtEveryStep() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("tally.db")
    let recorder = try TraceRecorder(path: path)
    let log = StateLog()
    let initial = Tally.State(count: 0, names: ["first"], note: "start")
    let store = RecordingStore(initialState: initial, recorder: recorder) { Tally(log: log) }
    for index in 0..<2_500 {
      store.send(.bump)
      await letOtherTestsRun(after: index)
    }
    await store.finish()
    try await recorder.close()

    let reader = try TraceReader(path: path)
    let jsons = [Tally.json(initial)] + log.renderings.withLock { $0 }
    let kept = try reader.query("SELECT seq FROM states WHERE session_id = 1 ORDER BY seq").rows
      .compactMap {
        if case let .integer(seq)? = $0.first { Int(seq) } else { nil }
      }
    // The state before the first action, and keyframes after it.
    #expect(kept.first == 0)
    #expect(kept.count > 1)
    for seq in kept {
      let json = try #require(try reader.stateJSON(session: 1, after: seq), "after action #\(seq)")
      expectNoDifference(json, jsons[seq], "after action #\(seq)")
      #expect(try JSONDecoder().decode(Tally.State.self, from: Data(json.utf8)).count == seq)
    }
    #expect(
      try reader.stateJSON(session: 1, after: 0).map {
        try JSONDecoder().decode(Tally.State.self, from: Data($0.utf8))
      } == initial)
    // Between them, each action's changes to the JSON: a member set, removed, added back, an
    // element appended.
    // NB: Seconds of rebuilding, on a thread of their own, off the main actor.
    let differing = try await onThreadOfItsOwn {
      let reader = try TraceReader(path: path)
      return try (1..<jsons.count).filter {
        try reader.stateJSON(session: 1, after: $0) != jsons[$0]
      }
    }
    #expect(differing == [])
    let changes = try reader.query(
      "SELECT json_changes FROM actions WHERE seq BETWEEN 6 AND 7 ORDER BY seq"
    ).rows
    #expect(
      changes == [
        [.text(#"[["s",["count"],6],["d",["note"]]]"#)],
        [.text(#"[["s",["count"],7],["i",["names",1],"name 7"],["s",["note"],"odd/7"]]"#)],
      ]
    )
    // Past the last action, and in a session that is not there, there is none.
    #expect(try reader.stateJSON(session: 1, after: 2_501) == nil)
    #expect(try reader.stateJSON(session: 9, after: 0) == nil)
  }

  /// A state that is not `Encodable` has a tree and no JSON.
  @Test func aStateThatIsNotEncodableHasNoJSON() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("leaky.db")
    try await recordLeakySession(at: path)
    let reader = try TraceReader(path: path)
    #expect(try reader.holdsStates(session: 1))
    #expect(try reader.stateJSON(session: 1, after: 0) == nil)
  }

  /// Every state a session went through, rebuilt from the trace, against its rendering then.
  private func expectEveryStateRebuilt(
    _ path: String, log: StateLog, initial: String, initialJSON: String? = nil,
    everyStep: Bool = false
  ) async throws {
    let renderings = [initial] + log.renderings.withLock { $0 }
    let jsons = initialJSON.map { [$0] + log.jsons.withLock { $0 } }
    // NB: Seconds of rebuilding, on a thread of their own: what differs is recorded after.
    let differences = try await onThreadOfItsOwn {
      try Self.differencesFromRebuilt(
        path, renderings: renderings, jsons: jsons, everyStep: everyStep)
    }
    for difference in differences { Issue.record(Comment(rawValue: difference)) }
  }

  /// What differs between the states rebuilt from the trace at `path` and `renderings`, the
  /// states after each action (and `jsons`, their JSON, when given); `everyStep`: each step is
  /// rebuilt on its own too, however long the session.
  private nonisolated static func differencesFromRebuilt(
    _ path: String, renderings: [String], jsons: [String]?, everyStep: Bool
  ) throws -> [String] {
    let reader = try TraceReader(path: path)
    var differences: [String] = []
    guard let session = try reader.sessions().first else { return ["no session"] }
    if session.actionCount != renderings.count - 1 {
      differences.append("\(session.actionCount) actions recorded, \(renderings.count - 1) sent")
    }
    // Every step, in one pass.
    var seen = 0
    try reader.forEachState(session: session.id, from: 0, through: renderings.count - 1) {
      seq, state in
      if seq != seen { differences.append("step #\(seq) where #\(seen) was next") }
      seen += 1
      let rebuilt = state.rendered()
      if rebuilt != renderings[seq] {
        differences.append("after action #\(seq):\n\(diff(rebuilt, renderings[seq]) ?? "")")
      }
    }
    if seen != renderings.count {
      differences.append("\(seen) steps rebuilt of \(renderings.count)")
    }
    // Steps on their own, each rebuilt from the kept state before it, with the changes up to
    // it applied together (those a later one overwrites left out): every step of a short
    // session, one in seven of a long one.
    let stride = renderings.count > 100 && !everyStep ? 7 : 1
    for seq in Array(Swift.stride(from: 0, to: renderings.count, by: stride)) + [
      renderings.count - 1
    ] {
      let rebuilt = try reader.state(session: session.id, after: seq).rendered()
      if rebuilt != renderings[seq] {
        differences.append(
          "on its own, after action #\(seq):\n\(diff(rebuilt, renderings[seq]) ?? "")")
      }
      // Rendered with the parts no change reaches printed from the kept state's JSON.
      let rendered = try reader.renderedState(session: session.id, after: seq)
      if rendered != renderings[seq] {
        differences.append(
          "rendered, after action #\(seq):\n\(diff(rendered, renderings[seq]) ?? "")")
      }
    }
    if try reader.state(session: session.id, before: 1).rendered() != renderings[0] {
      differences.append("before action #1")
    }
    // An `Encodable` state's JSON, at every step: the kept JSON with the changes since applied.
    if let jsons {
      if jsons.count != renderings.count {
        differences.append("\(jsons.count) JSONs of \(renderings.count) states")
      }
      for seq in jsons.indices {
        let rebuilt = try reader.stateJSON(session: session.id, after: seq)
        if rebuilt != jsons[seq] {
          differences.append("JSON after action #\(seq):\n\(diff(rebuilt, jsons[seq]) ?? "")")
          break
        }
      }
    }
    return differences
  }

  /// A state on its own is rebuilt with the changes since its keyframe applied together, those
  /// a later change overwrites left out: exact where a case is left and entered again with a
  /// field changed inside it between, and where an element is toggled, removed and added again.
  @Test func aStateOnItsOwnIsRebuiltExactlyWhereChangesOverwriteEachOther() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("turns.db")
    let recorder = try TraceRecorder(path: path)
    let log = StateLog()
    let store = RecordingStore(initialState: Turns.State(), recorder: recorder) {
      Capturing(base: Turns(), log: log)
    }
    let actions: [Turns.Action] = [
      .type, .type, .edit("a"), .bump, .type, .view, .bump, .bump, .clear, .type, .edit("b"),
      .add(1), .add(2), .toggle(1), .toggle(1), .remove(1), .type, .add(1), .toggle(1), .bump,
      .edit("c"), .type, .view, .clear, .type,
    ]
    for action in actions { store.send(action) }
    await store.finish()
    try await recorder.close()
    let reader = try TraceReader(path: path)
    // NB: One kept state: every step is rebuilt from the first, across all the changes.
    #expect(try reader.query("SELECT count(*) FROM states").rows == [[.integer(1)]])
    try await self.expectEveryStateRebuilt(
      path, log: log, initial: String(customDumping: Turns.State()))
  }

  /// A state on its own is rebuilt from its session's changes whether or not its actions' row
  /// ids follow their seqs: in a file whose ids were moved (another session's actions written
  /// between them, or an edited file), they are looked up action by action.
  @Test func aStateIsRebuiltWhetherOrNotRowIDsFollowSeqs() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("two.db")
    var logs: [StateLog] = []
    for actions: [Turns.Action] in [
      [.type, .edit("a"), .bump, .type, .view, .bump, .add(1), .toggle(1), .clear, .type],
      [.type, .type, .add(2), .edit("b"), .toggle(2), .bump, .type],
    ] {
      let log = StateLog()
      logs.append(log)
      let recorder = try TraceRecorder(path: path)
      let store = RecordingStore(initialState: Turns.State(), recorder: recorder) {
        Capturing(base: Turns(), log: log)
      }
      for action in actions { store.send(action) }
      await store.finish()
      try await recorder.close()
    }
    // The first session's actions after its third move far away, their changes with them.
    let connection = try SQLiteConnection(path: path, mode: .readWrite)
    try connection.execute(
      """
      UPDATE state_changes SET action_id = action_id + 100000
      WHERE action_id IN (SELECT id FROM actions WHERE session_id = 1 AND seq > 3);
      UPDATE actions SET id = id + 100000 WHERE session_id = 1 AND seq > 3;
      """
    )
    let reader = try TraceReader(path: path)
    let sessions = try reader.sessions()
    #expect(sessions.map(\.actionCount) == [10, 7])
    for (session, log) in zip(sessions, logs) {
      let renderings = [String(customDumping: Turns.State())] + log.renderings.withLock { $0 }
      for seq in 0..<renderings.count {
        #expect(
          try reader.state(session: session.id, after: seq).rendered() == renderings[seq],
          "session \(session.id), after action #\(seq)")
        #expect(
          try reader.renderedState(session: session.id, after: seq) == renderings[seq],
          "session \(session.id), after action #\(seq)")
      }
    }
  }

  @Test func theDemosStateAtEveryStepIsRebuiltExactly() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("demo.db")
    let recorder = try TraceRecorder(path: path)
    let log = StateLog()
    let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
      Capturing(base: AppFeature(), log: log)
    } withDependencies: {
      DemoScript.immediateDependencies(&$0)
    }
    await DemoScript.runApp(finish: store.finish) { store.send($0) }
    await store.finish()
    try await recorder.close()
    try await self.expectEveryStateRebuilt(
      path, log: log, initial: String(customDumping: AppFeature.State()),
      initialJSON: traceJSON(AppFeature.State())
    )
  }

  /// A damaged kept state renders as the tree read whole renders it, or is refused with the
  /// same error: the parts printed straight from its JSON are checked as strictly as a tree
  /// read whole. Hundreds of keyframes each damaged at random (a byte changed, dropped, or a
  /// run of bytes repeated), at steps that leave more or less of it unread.
  @Test func aDamagedKeptStateRendersAsReadWholeOrIsRefusedAlike() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("demo.db")
    try await recordDemoAppSession(path)
    let mismatches = try await onThreadOfItsOwn { () throws -> [String] in
      let connection = try SQLiteConnection(path: path, mode: .readWrite)
      let kept = try TraceReader(path: path).query(
        "SELECT tree FROM states WHERE session_id = 1 AND seq = 0"
      ).rows
      guard case let .text(tree)? = kept.first?.first else { return ["no kept state"] }
      let original = Array(tree.utf8)
      let bytes: [UInt8] = Array(#"[]",\ x0{}-:"#.utf8) + [0x01, 0x0A]
      var random = SeededGenerator(seed: 18)
      var mismatches: [String] = []
      var outcomes = (rendered: 0, refused: 0)
      for _ in 0..<300 {
        var damaged = original
        let index = Int.random(in: 0..<damaged.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: damaged[index] = bytes.randomElement(using: &random)!
        case 1: damaged.remove(at: index)
        default:
          let end = min(damaged.count, index + Int.random(in: 1...40, using: &random))
          damaged.insert(contentsOf: damaged[index..<end], at: end)
        }
        let update = try connection.prepare(
          "UPDATE states SET tree = ?1 WHERE session_id = 1 AND seq = 0")
        update.bind([.text(String(decoding: damaged, as: UTF8.self))])
        try update.run()
        let reader = try TraceReader(path: path)
        for seq in [0, 3, 12] {
          let rendered = Result { () throws(TraceFileError) in
            try reader.renderedState(session: 1, after: seq)
          }
          let whole = Result { () throws(TraceFileError) in
            try reader.state(session: 1, after: seq).rendered()
          }
          switch (rendered, whole) {
          case let (.success(rendered), .success(whole)) where rendered == whole:
            outcomes.rendered += 1
          case let (.failure(rendered), .failure(whole))
          where rendered.description == whole.description:
            outcomes.refused += 1
          default:
            mismatches.append(
              "after #\(seq) of \(String(decoding: damaged, as: UTF8.self)):\n\(rendered)\n\(whole)"
            )
          }
        }
      }
      // Both outcomes are met: the damage is not all refused, nor all harmless.
      if outcomes.rendered == 0 || outcomes.refused == 0 {
        mismatches.append("outcomes: \(outcomes)")
      }
      return mismatches
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
  }

  /// Records at `path` a session of `actions` actions of ``Shuffler`` from `initial`, each made
  /// by `action` from a seed drawn from `seed`; returns the log of its states.
  private func recordRandomSession(
    at path: String, from initial: RandomState, actions: Int, seed: UInt64,
    _ action: (UInt64) -> Shuffler.Action
  ) async throws -> StateLog {
    let recorder = try TraceRecorder(path: path)
    let log = StateLog()
    let store = RecordingStore(initialState: initial, recorder: recorder) {
      Capturing(base: Shuffler(), log: log)
    }
    var seeds = SeededGenerator(seed: seed)
    for index in 0..<actions {
      store.send(action(seeds.next()))
      await letOtherTestsRun(after: index)
    }
    await store.finish()
    try await recorder.close()
    return log
  }

  @Test func aLongRandomSessionIsRebuiltExactlyAtEveryStep() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("random.db")
    let log = try await self.recordRandomSession(
      at: path, from: RandomState(), actions: 2_500, seed: 7
    ) {
      .shuffle(seed: $0)
    }
    // More changes than one keyframe's interval: states come from several kept ones.
    let reader = try TraceReader(path: path)
    let kept = try reader.query("SELECT count(*) FROM states").rows
    #expect(kept != [[.integer(1)]])
    try await self.expectEveryStateRebuilt(
      path, log: log, initial: String(customDumping: RandomState()),
      initialJSON: traceJSON(RandomState())
    )
  }

  /// A random session whose changes only edit what the state holds, every step rendered on its
  /// own: each change's path is in the state kept before it, so reading the kept state stops
  /// after the last of them, and the rest of each container it stopped in is printed from the
  /// kept JSON (`renderedState`), nested, after removals, in collections, enums, optionals.
  @Test func aRandomSessionOfEditsIsRenderedExactlyAtEveryStep() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("edits.db")
    var initial = RandomState()
    var random = SeededGenerator(seed: 11)
    for _ in 0..<400 { initial.mutate(&random) }
    let log = try await self.recordRandomSession(at: path, from: initial, actions: 2_000, seed: 12)
    {
      .edit(seed: $0)
    }
    // Kept again on the way: reading stops early after it, as it does after the first.
    let kept = try TraceReader(path: path).query("SELECT count(*) FROM states").rows
    #expect(kept != [[.integer(1)]])
    try await self.expectEveryStateRebuilt(
      path, log: log, initial: String(customDumping: initial), initialJSON: traceJSON(initial),
      everyStep: true
    )
  }
}
