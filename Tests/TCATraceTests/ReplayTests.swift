import Composable
import CustomDump
import Foundation
import IdentifiedCollections
@testable import TCATrace
import TCATraceExamples
import TestSupport
import Testing

/// A `Codable` feature with an effect, and variants of it with bugs put in on purpose.
private struct Counter: Reducer {
  struct Item: Codable, Equatable, Identifiable {
    var id: Int
    var title: String
  }

  struct State: Codable, Equatable {
    var count = 0
    var fact: String?
    var items: IdentifiedArrayOf<Item> = []
  }

  enum Action: Codable, Equatable {
    case incrementTapped
    case addTapped(String)
    case factTapped
    case factLoaded(String)
  }

  enum Bug {
    case none
    /// Adds 2 where it added 1.
    case incrementsTwice
    /// No longer asks for a fact.
    case forgetsTheFact
  }

  var bug = Bug.none

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      state.count += self.bug == .incrementsTwice ? 2 : 1
      return .none
    case let .addTapped(title):
      state.items.append(Item(id: state.items.count + 1, title: title))
      return .none
    case .factTapped:
      guard self.bug != .forgetsTheFact else { return .none }
      let count = state.count
      return .run { send in await send(.factLoaded("\(count) is a number")) }
    case let .factLoaded(fact):
      state.fact = fact
      return .none
    }
  }
}

/// The same feature after a case was renamed: `factTapped` is now `loadFactTapped`.
private struct RenamedCounter: Reducer {
  typealias State = Counter.State

  enum Action: Codable, Equatable {
    case incrementTapped
    case addTapped(String)
    case loadFactTapped
    case factLoaded(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped: state.count += 1
    case let .addTapped(title):
      state.items.append(Counter.Item(id: state.items.count + 1, title: title))
    case .loadFactTapped: break
    case let .factLoaded(fact): state.fact = fact
    }
    return .none
  }
}

/// A feature whose effect answers later, after other actions: a search, and items added
/// while it runs.
private struct Lookup: Reducer {
  struct State: Codable, Equatable {
    var items: [String] = []
    var result: String?
  }

  enum Action: Codable, Equatable {
    case searchTapped
    case addTapped(String)
    case resultLoaded(String)
  }

  /// A bug put in on purpose: no search, and items are no longer added.
  var forgetsTheSearchAndTheItems = false
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .searchTapped:
      guard !self.forgetsTheSearchAndTheItems else { return .none }
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.resultLoaded("found"))
      }
    case let .addTapped(item):
      if !self.forgetsTheSearchAndTheItems { state.items.append(item) }
      return .none
    case let .resultLoaded(result):
      state.result = result
      return .none
    }
  }
}

/// The example app with a bug put into its todo rows: a title edited is saved in capitals.
private struct AppWithABuggyTodoRow: Reducer {
  var body: some ReducerOf<AppFeature> {
    AppFeature()
    Reduce { state, action in
      if case let ._internal(.todos(._internal(.rows(.element(id, .view(.titleChanged(title))))))) =
        action
      {
        state.todos.todos[id: id]?.title = title.uppercased()
      }
      return .none
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct ReplayTests {
  /// Records the demo's app session as `tcatrace demo` does, its secrets redacted.
  private func recordDemo(into directory: TemporaryDirectory) async throws -> String {
    let path = directory.path("demo.db")
    try await recordDemoAppSession(path)
    return path
  }

  /// Issue #19: the demo, replayed against the example app as it is, matches at every step;
  /// against a variant with a bug, it diverges where the bug first shows.
  @Test func theDemoReplaysAndABuggyVariantDiverges() async throws {
    let directory = try TemporaryDirectory()
    let path = try await self.recordDemo(into: directory)
    let replay = try TraceReplayer(path: path, session: 1)
    let total = try TraceReader(path: path).session(id: 1).actionCount

    let report = try await replay.run(AppFeature())
    #expect(report.divergence == nil, "\(report)")
    #expect(report.replayed == total)

    let buggy = try await replay.run(AppWithABuggyTodoRow())
    let edit = try #require(
      try TraceReader(path: path).actions().first { $0.caseName == "titleChanged" })
    #expect(buggy.replayed == edit.seq - 1)
    #expect(
      buggy.divergence
        == TraceDivergence(
          seq: edit.seq, actionPath: "_internal.todos._internal.rows[id: 1].view.titleChanged",
          kind: .state(
            path: "todos.todos[id: 1].title", recorded: #""Buy oat milk""#,
            replayed: #""BUY OAT MILK""#)
        )
    )
    expectNoDifference(
      buggy.description,
      """
      Replayed 16 of 25 actions of session 1 of '\(path)' against AppWithABuggyTodoRow: it diverges at action #17 _internal.todos._internal.rows[id: 1].view.titleChanged.
      After it, the state at todos.todos[id: 1].title differs (− recorded, + replayed):
      − "Buy oat milk"
      + "BUY OAT MILK"
      """
    )
  }

  /// Records a session of `Counter`: two increments, an item, a fact its effect loads, and
  /// one more increment.
  private func record(into directory: TemporaryDirectory) async throws -> String {
    let path = directory.path("counter.db")
    let recorder = try TraceRecorder(path: path)
    let store = RecordingStore(initialState: Counter.State(), recorder: recorder) { Counter() }
    store.send(.incrementTapped)
    store.send(.incrementTapped)
    store.send(.addTapped("Milk"))
    await store.send(.factTapped).finish()
    store.send(.incrementTapped)
    await store.finish()
    try await recorder.close()
    return path
  }

  @Test func theSameReducerReplaysEveryStateAsRecorded() async throws {
    let directory = try TemporaryDirectory()
    let path = try await self.record(into: directory)
    let report = try await TraceReplayer(path: path, session: 1).run(Counter())
    #expect(report.divergence == nil)
    #expect(report.replayed == 6)
    #expect(report.total == 6)
    expectNoDifference(
      report.description,
      "Replayed 6 of 6 actions of session 1 of '\(path)' against Counter: every state is the recorded one."
    )
  }

  /// Issue #74: where the debugger of `tcatrace serve --live` jumped the app and took it back,
  /// the replay takes the same states, and what the app did from them replays as recorded;
  /// without the JSON of a state it must take, it says so.
  @Test func aSessionTheDebuggerJumpedReplaysFromTheStatesItTook() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("jumped.db")
    let recorder = try TraceRecorder(path: path)
    let store = RecordingStore(initialState: Counter.State(), recorder: recorder) { Counter() }
    store.send(.incrementTapped)
    let afterFirst = store.state
    store.send(.incrementTapped)
    let afterSecond = store.state
    store.send(.addTapped("Milk"))
    let beforeJump = store.state
    // NB: What the page's jump and return do to a store on `Composable`, and write.
    func take(_ state: Counter.State, _ kind: DebuggerEventRecord.Kind, after seq: Int, to: Int?) {
      store.store.replaceState(state)
      recorder.stateWasReplaced()
      recorder.record(debuggerEvent: kind, afterSeq: seq, toSeq: to)
    }
    take(afterFirst, .jump, after: 3, to: 1)
    store.send(.incrementTapped)
    #expect(store.count == 2 && store.items.isEmpty)
    take(beforeJump, .back, after: 4, to: nil)
    // A return takes back the state from before the first jump since the last return, not the
    // state after the action the jump followed.
    take(afterSecond, .jump, after: 4, to: 2)
    take(beforeJump, .back, after: 4, to: nil)
    store.send(.incrementTapped)
    #expect(store.count == 3 && store.items.count == 1)
    await store.finish()
    try await recorder.close()

    let report = try await TraceReplayer(path: path, session: 1).run(Counter())
    #expect(report.divergence == nil, "\(report)")
    #expect(report.replayed == 5)
    let buggy = try await TraceReplayer(path: path, session: 1).run(
      Counter(bug: .incrementsTwice))
    #expect(buggy.divergence?.seq == 1)

    // A state the replay cannot have is a clear error.
    let copy = directory.path("without-json.db")
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    try makeSQLiteFile(copy, sql: "UPDATE actions SET json_changes = NULL WHERE seq = 1")
    await #expect {
      try await TraceReplayer(path: copy, session: 1).run(Counter())
    } throws: { error in
      "\(error)".hasPrefix(
        "after action #3 of session 1 of '\(copy)', the debugger of tcatrace serve --live had the app take the state after #1, and the trace keeps no JSON of it"
      )
    }
  }

  /// Issue #73: a session whose first actions were trimmed (by a size limit, or an export of
  /// its last part) rebuilds and replays from the state the file keeps before the actions left;
  /// an action whose cause was trimmed is delivered as recorded.
  @Test func aTrimmedSessionReplaysFromTheStateKeptBeforeItsActions() async throws {
    let directory = try TemporaryDirectory()
    let path = try await self.record(into: directory)
    let original = try TraceReader(path: path)
    // #4 is factTapped, #5 the factLoaded its effect sent.
    for first in [2, 4, 5] {
      let copy = directory.path("trimmed-\(first).db")
      try FileManager.default.copyItem(atPath: path, toPath: copy)
      do {
        let connection = try SQLiteConnection(path: copy, mode: .readWrite)
        let removed = try TraceRowWriter(connection: connection).trim(
          session: 1, keepingFrom: first, path: copy)
        #expect(removed == first - 1)
      }
      let reader = try TraceReader(path: copy)
      let session = try reader.session(id: 1)
      #expect(session.trimmedActions == first - 1)
      #expect(session.actionCount == 7 - first)
      for seq in (first - 1)...6 {
        #expect(try reader.state(session: 1, after: seq) == original.state(session: 1, after: seq))
        #expect(
          try reader.stateJSON(session: 1, after: seq)
            == original.stateJSON(session: 1, after: seq))
      }
      do throws(TraceFileError) {
        _ = try reader.state(session: 1, after: first - 2)
        Issue.record("the state after trimmed action #\(first - 2) was given")
      } catch {
        #expect(error.kind == .notInFile)
        #expect(error.message.contains("trimmed"), "\(error.message)")
      }
      let report = try await TraceReplayer(path: copy, session: 1).run(Counter())
      #expect(report.divergence == nil, "\(report)")
      #expect(report.replayed == 7 - first)
      // Against a reducer that adds 2, the first increment left (#2 or #6) diverges.
      let buggy = try await TraceReplayer(path: copy, session: 1).run(
        Counter(bug: .incrementsTwice))
      let increment = first <= 2 ? 2 : 6
      #expect(buggy.divergence?.seq == increment, "\(buggy)")
      #expect(buggy.replayed == increment - first)
    }
  }

  /// Issue #73: `exportSession(to:)` writes the recorder's session, as far as it is recorded,
  /// into a trace of its own while the store goes on; `last:` keeps its last stretch, which
  /// replays from the state before it.
  @Test func aRecorderExportsItsSessionForABugReport() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("counter.db")
    let recorder = try TraceRecorder(path: path)
    let store = RecordingStore(initialState: Counter.State(), recorder: recorder) { Counter() }
    store.send(.incrementTapped)
    store.send(.addTapped("Milk"))
    await store.send(.factTapped).finish()
    store.send(.incrementTapped)
    let whole = directory.url.appendingPathComponent("report.db")
    try await recorder.exportSession(to: whole)
    let lastOnly = directory.url.appendingPathComponent("last.db")
    try await recorder.exportSession(to: lastOnly, last: .zero)
    // A file that is there is refused, and left as it was.
    let before = try Data(contentsOf: whole)
    await #expect(throws: TraceFileError.self) { try await recorder.exportSession(to: whole) }
    #expect(try Data(contentsOf: whole) == before)
    store.send(.incrementTapped)
    await store.finish()
    try await recorder.close()

    let reader = try TraceReader(path: whole.path)
    let session = try reader.session(id: 1)
    #expect(session.source == TraceSession.Source(file: path, sessionID: 1))
    #expect(session.trimmedActions == 0)
    #expect(
      try reader.actions().map(\.path)
        == ["incrementTapped", "addTapped", "factTapped", "factLoaded", "incrementTapped"])
    let report = try await TraceReplayer(path: whole.path, session: 1).run(Counter())
    #expect(report.divergence == nil, "\(report)")
    #expect(report.replayed == 5)

    let last = try TraceReader(path: lastOnly.path).session(id: 1)
    #expect(last.actionCount == 1)
    #expect(last.trimmedActions == 4)
    let lastReport = try await TraceReplayer(path: lastOnly.path, session: 1).run(Counter())
    #expect(lastReport.divergence == nil, "\(lastReport)")
    #expect(lastReport.replayed == 1)
    // Two files of their own, and nothing else beside the recorder's.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        == ["counter.db", "last.db", "report.db"])
  }

  @Test func aChangedReducerDivergesWhereTheStateFirstDiffers() async throws {
    let directory = try TemporaryDirectory()
    let path = try await self.record(into: directory)
    let report = try await TraceReplayer(path: path, session: 1).run(Counter(bug: .incrementsTwice))
    #expect(report.replayed == 0)
    #expect(
      report.divergence
        == TraceDivergence(
          seq: 1, actionPath: "incrementTapped",
          kind: .state(path: "count", recorded: "1", replayed: "2"))
    )
    expectNoDifference(
      report.description,
      """
      Replayed 0 of 6 actions of session 1 of '\(path)' against Counter: it diverges at action #1 incrementTapped.
      After it, the state at count differs (− recorded, + replayed):
      − 1
      + 2
      """
    )
  }

  /// Issue #40: what the trace holds (a path, a case name, a recorded value) reaches the report
  /// with its controls escaped, as the CLI shows them, and its lines as they are.
  @Test func theReportEscapesTheTracesControls() async throws {
    let directory = try TemporaryDirectory()
    let path = try await self.record(into: directory)
    try SQLiteConnection(path: path, mode: .readWrite).execute(
      """
      UPDATE actions SET path = 'increment' || char(27) || '[2JTapped' WHERE seq = 1;
      UPDATE state_changes SET new_value = '1' || char(155) || char(8238)
      WHERE action_id = (SELECT id FROM actions WHERE seq = 1);
      """
    )
    let report = try await TraceReplayer(path: path, session: 1).run(Counter(bug: .incrementsTwice))
    expectNoDifference(
      report.description,
      """
      Replayed 0 of 6 actions of session 1 of '\(path)' against Counter: it diverges at action #1 increment\\u{1B}[2JTapped.
      After it, the state at count differs (− recorded, + replayed):
      − 1\\u{9B}\\u{202E}
      + 2
      """
    )
    #expect(report.divergence?.description.unicodeScalars.contains { $0.value == 0x1B } == false)
  }

  @Test func anActionThatNoLongerHasAnEffectDiverges() async throws {
    let directory = try TemporaryDirectory()
    let path = try await self.record(into: directory)
    let report = try await TraceReplayer(path: path, session: 1).run(Counter(bug: .forgetsTheFact))
    #expect(report.replayed == 3)
    #expect(
      report.divergence
        == TraceDivergence(
          seq: 4, actionPath: "factTapped", kind: .missingEffect(sentSeq: 5, sentPath: "factLoaded")
        )
    )
    #expect(report.description.hasSuffix("in the recording its effects sent #5 factLoaded."))
  }

  /// The replay reads ahead of itself; an action whose effect is missing is the divergence
  /// even when the effect's action was recorded after a later action that diverges too.
  @Test func aMissingEffectBeforeALaterStateDivergenceComesFirst() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("lookup.db")
    let clock = TestClock()
    let recorder = try TraceRecorder(path: path)
    let store = RecordingStore(initialState: Lookup.State(), recorder: recorder) {
      Lookup()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.searchTapped)
    store.send(.addTapped("Milk"))
    // NB: Moved before the search's effect sleeps, the clock would leave it asleep for good.
    await clock.waitForSleeper()
    await clock.advance(by: .seconds(1))
    await store.finish()
    try await recorder.close()
    let actions = try TraceReader(path: path).actions()
    #expect(actions.map(\.path) == ["searchTapped", "addTapped", "resultLoaded"])

    let replay = try TraceReplayer(path: path, session: 1)
    let passing = try await replay.run(Lookup())
    #expect(passing.divergence == nil, "\(passing)")
    #expect(passing.replayed == 3)
    let report = try await replay.run(Lookup(forgetsTheSearchAndTheItems: true))
    #expect(report.replayed == 0)
    let missing = TraceDivergence(
      seq: 1, actionPath: "searchTapped", kind: .missingEffect(sentSeq: 3, sentPath: "resultLoaded")
    )
    #expect(report.divergence == missing)

    // The same before an action that cannot be replayed: the divergence comes first.
    try SQLiteConnection(path: path, mode: .readWrite).execute(
      "UPDATE actions SET payload_json = NULL WHERE seq = 2"
    )
    let beforeUnreplayable = try await replay.run(Lookup(forgetsTheSearchAndTheItems: true))
    #expect(beforeUnreplayable.divergence == missing)
    await #expect(throws: TraceReplayError.self) { try await replay.run(Lookup()) }
  }

  @Test func aRenamedCaseIsNamed() async throws {
    let directory = try TemporaryDirectory()
    let path = try await self.record(into: directory)
    let report = try await TraceReplayer(path: path, session: 1).run(RenamedCounter())
    #expect(report.replayed == 3)
    #expect(
      report.divergence
        == TraceDivergence(
          seq: 4, actionPath: "factTapped",
          kind: .undecodableAction(
            reason:
              "RenamedCounter.Action has no case 'factTapped': it was renamed or removed since the recording"
          )
        )
    )
  }

  /// A value the recording redacted matches whatever the replay has there.
  @Test func aRedactedValueMatchesAnyValue() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("redacted.db")
    let recorder = try TraceRecorder(path: path, redacting: [.state(\Counter.State.fact)])
    let store = RecordingStore(initialState: Counter.State(), recorder: recorder) { Counter() }
    store.send(.incrementTapped)
    await store.send(.factTapped).finish()
    try await recorder.close()
    #expect(try TraceReader(path: path).actions()[2].changes.map(\.new) == ["<redacted>"])
    let report = try await TraceReplayer(path: path, session: 1).run(Counter())
    #expect(report.divergence == nil)
    #expect(report.replayed == 3)
  }

  @Test func verifyReportsTheDivergenceAsAnIssue() async throws {
    let directory = try TemporaryDirectory()
    let path = try await self.record(into: directory)
    let replay = try TraceReplayer(path: path, session: 1)
    try await replay.verify(Counter())
    try await withKnownIssue {
      try await replay.verify(Counter(bug: .incrementsTwice))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("it diverges at action #1 incrementTapped.") }
    }
  }

  /// A session that lacks an action (the recorder dropped it) cannot be replayed, and says so.
  @Test func aSessionWithAMissingActionIsAClearError() async throws {
    let directory = try TemporaryDirectory()
    let path = try await self.record(into: directory)
    try makeSQLiteFile(
      path,
      sql: """
        DELETE FROM state_changes WHERE action_id = (SELECT id FROM actions WHERE seq = 2);
        DELETE FROM actions WHERE seq = 2;
        """
    )
    await #expect {
      try await TraceReplayer(path: path, session: 1).run(Counter())
    } throws: { error in
      (error as? TraceReplayError)?.message
        == "session 1 of '\(path)' lacks action #2 (the recorder dropped it, or the file was changed): a replay needs every action"
    }
  }

  /// A reducer whose state the trace did not keep as JSON (it was not `Encodable`) cannot be
  /// replayed, and says why.
  @Test func aStateRecordedWithoutItsJSONIsAClearError() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("leaky.db")
    try await recordLeakySession(at: path)
    await #expect {
      try await TraceReplayer(path: path, session: 1).run(Counter())
    } throws: { error in
      (error as? TraceReplayError)?.message
        == "session 1 of '\(path)' keeps no JSON of its initial state: Counter.State was not Encodable when it was recorded (or the file is older than schema version 3); make it Codable and record again"
    }
    #expect(throws: TraceFileError.self) { try TraceReplayer(path: path, session: 9) }
  }
}
