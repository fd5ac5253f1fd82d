import CustomDump
import Foundation
import TCATrace
import TCATraceExamples
import TestSupport
import Testing

/// The example app's dependencies for these tests: an instant back end and no timer ticks, so
/// that every run processes the same actions in the same order.
private func exampleDependencies(_ dependencies: inout DependencyValues) {
  dependencies.apiClient = .fake(latency: .zero)
  dependencies.tickClient = .immediate(count: 0)
  dependencies.stackElementID = .incrementing
}

/// What the tests compare of a recorded action: everything but its timings and row ids.
private struct Row: Equatable {
  var seq: Int
  var origin: TracedAction.Origin
  var path: String
  var feature: String
  var category: ActionCategory
  var statePath: String

  init(_ action: TracedAction) {
    self.seq = action.seq
    self.origin = action.origin
    self.path = action.path
    self.feature = action.feature
    self.category = action.category
    self.statePath = action.statePath
  }

  /// An expected row; the store routes most actions to their feature's state, so
  /// `statePath` is `feature` unless given.
  init(
    seq: Int, _ origin: TracedAction.Origin, _ category: ActionCategory, _ path: String,
    feature: String, statePath: String? = nil
  ) {
    (self.seq, self.origin, self.path, self.feature, self.category, self.statePath) =
      (seq, origin, path, feature, category, statePath ?? feature)
  }
}

/// The rows of logging in with two-factor, as `DemoScript.runApp` does it first.
private let loginRows = [
  Row(seq: 1, .send, .view, "_internal.login.view.emailChanged", feature: "login"),
  Row(seq: 2, .send, .view, "_internal.login.view.passwordChanged", feature: "login"),
  Row(seq: 3, .send, .view, "_internal.login.view.loginButtonTapped", feature: "login"),
  Row(
    seq: 4, .effect(cause: 3), .internal, "_internal.login._internal.loginResponse",
    feature: "login"),
  Row(
    seq: 5, .send, .view, "_internal.login._internal.twoFactor.presented.view.codeChanged",
    feature: "login.twoFactor"),
  Row(
    seq: 6, .send, .view, "_internal.login._internal.twoFactor.presented.view.submitButtonTapped",
    feature: "login.twoFactor"),
  Row(
    seq: 7, .effect(cause: 6), .internal,
    "_internal.login._internal.twoFactor.presented._internal.verifyResponse",
    feature: "login.twoFactor"),
  Row(
    seq: 8, .effect(cause: 7), .delegate,
    "_internal.login._internal.twoFactor.presented.delegate.didVerify", feature: "login.twoFactor"),
  Row(seq: 9, .effect(cause: 8), .delegate, "_internal.login.delegate.didLogin", feature: "login"),
]

@MainActor
@Suite(.hangGuard)
struct RecorderTests {
  /// Issue #44: `flush()` waits, suspended, until a reader sees every action sent before it,
  /// while the recorder stays open; after `close()` it returns at once.
  @Test func flushWaitsUntilAReaderSeesEveryActionSent() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("flushed.db")
    let recorder = try TraceRecorder(path: path, session: "flushed")
    let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
      AppFeature()
    } withDependencies: {
      exampleDependencies(&$0)
    }
    for round in 1...3 {
      for index in 0..<7 {
        store.send(._internal(.login(.view(.emailChanged("\(round)-\(index)@example.com")))))
      }
      await recorder.flush()
      let reader = try TraceReader(path: path, live: true)
      #expect(try reader.actions().count == 7 * round)
    }
    try await recorder.close()
    await recorder.flush()
    #expect(try TraceReader(path: path).actions().count == 21)
  }

  @Test func recordsTheExampleAppAndReadsBackExactRows() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("session.db")
    let recorder = try TraceRecorder(path: path, session: "login and todos")
    let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
      AppFeature()
    } withDependencies: {
      exampleDependencies(&$0)
    }
    await DemoScript.runApp(finish: store.finish) { store.send($0) }
    await store.finish()
    try await recorder.close()

    // The WAL was checkpointed into the file: it is complete on its own.
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

    let reader = try TraceReader(path: path)
    let sessions = try reader.sessions()
    #expect(sessions.count == 1)
    let session = try #require(sessions.first)
    #expect(session.name == "login and todos")
    #expect(session.rootFeature == "AppFeature")
    #expect(session.actionCount == 23)
    #expect(session.leakCount == 0)
    #expect(session.droppedActions == 0)
    #expect(session.endedAt != nil)
    #expect(session.recorderVersion == TraceRecorder.version)

    let actions = try reader.actions()
    expectNoDifference(
      actions.map(Row.init),
      loginRows + [
        Row(seq: 10, .send, .view, "_internal.todos.view.onAppear", feature: "todos"),
        Row(
          seq: 11, .effect(cause: 10), .internal, "_internal.todos._internal.todosLoaded",
          feature: "todos"),
        Row(seq: 12, .send, .view, "_internal.todos.view.addTodoButtonTapped", feature: "todos"),
        Row(
          seq: 13, .send, .view, "_internal.todos._internal.rows[id: 100].view.toggleCompleted",
          feature: "todos.rows[id: 100]", statePath: "todos.todos[id: 100]"),
        Row(
          seq: 14, .effect(cause: 13), .delegate,
          "_internal.todos._internal.rows[id: 100].delegate.completionChanged",
          feature: "todos.rows[id: 100]", statePath: "todos.todos[id: 100]"),
        Row(
          seq: 15, .send, .view, "_internal.todos._internal.rows[id: 1].view.titleChanged",
          feature: "todos.rows[id: 1]", statePath: "todos.todos[id: 1]"),
        Row(
          seq: 16, .send, .view, "_internal.todos.view.clearCompletedButtonTapped", feature: "todos"
        ),
        Row(
          seq: 17, .send, .view, "_internal.todos.view.alert", feature: "todos",
          statePath: "todos.alert"),
        Row(seq: 18, .send, .view, "_internal.todos.view.onDisappear", feature: "todos"),
        Row(seq: 19, .send, .view, "view.settingsButtonTapped", feature: ""),
        Row(
          seq: 20, .send, .view, "_internal.path[id: 0].settings.view.binding",
          feature: "path[id: 0].settings"),
        Row(
          seq: 21, .send, .view, "_internal.path[id: 0].settings.view.binding",
          feature: "path[id: 0].settings"),
        Row(
          seq: 22, .send, .view, "_internal.path[id: 0].settings.view.saveButtonTapped",
          feature: "path[id: 0].settings"),
        Row(
          seq: 23, .effect(cause: 22), .delegate, "_internal.path[id: 0].settings.delegate.didSave",
          feature: "path[id: 0].settings"),
      ]
    )

    // Whole rows, state changes included, for a few actions.
    let codeChanged = actions[4]
    #expect(codeChanged.caseName == "codeChanged")
    #expect(codeChanged.rootCategory == .internal)
    #expect(codeChanged.payload == #""424242""#)
    // The example app's actions are `Codable`: the trace keeps their JSON (this recorder redacts
    // nothing).
    #expect(
      codeChanged.payloadJSON
        == #"{"_internal":{"_0":{"login":{"_internal":{"_0":{"twoFactor":{"presented":{"_0":{"view":{"_0":{"codeChanged":{"_0":"424242"}}}}}}}}}}}}"#
    )
    expectNoDifference(
      codeChanged.changes,
      [StateChange(path: "login.twoFactor.code", kind: .changed, old: #""""#, new: #""424242""#)]
    )
    expectNoDifference(
      actions[8].changes,
      [
        StateChange(
          path: "user", kind: .added, old: nil,
          new: """
            User(
              id: 1,
              name: "blob"
            )
            """)
      ]
    )
    expectNoDifference(
      actions[13].changes,
      [StateChange(path: "todos.todos", kind: .changed, old: "[100, 1, 2]", new: "[1, 100, 2]")]
    )
    expectNoDifference(actions[15].changes.map(\.path), ["todos.alert"])
    expectNoDifference(actions[15].changes.map(\.kind), [.added])
    expectNoDifference(
      actions[16].changes.map(\.path),
      ["todos.todos[id: 100]", "todos.todos[id: 2]", "todos.alert"]
    )
    expectNoDifference(actions[16].changes.map(\.kind), [.removed, .removed, .removed])
    expectNoDifference(
      actions[19].changes,
      [
        StateChange(
          path: "path[id: 0].settings.displayName", kind: .changed, old: #""blob""#, new: #""Blob""#
        )
      ]
    )
    #expect(actions.allSatisfy { $0.sessionID == session.id && $0.leaks.isEmpty })
    #expect(zip(actions, actions.dropFirst()).allSatisfy { $0.timeNs <= $1.timeNs })
  }

  @Test func leakyExampleRecordsOneLeakPerRuleAndReportsThem() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("leaky.db")
    let recorder = try TraceRecorder(path: path)
    let store = RecordingStore(initialState: LeakyParentFeature.State(), recorder: recorder) {
      LeakyParentFeature()
    }
    await withKnownIssue {
      await DemoScript.runLeaky { store.send($0) }
      await store.finish()
    } matching: { issue in
      issue.description.contains("Boundary leak (")
    }
    try await recorder.close()

    let reader = try TraceReader(path: path)
    let leaky = try reader.actions(matching: TraceFilter(leaksOnly: true))
    expectNoDifference(
      leaky.map { "#\($0.seq) \($0.path)" },
      [
        "#2 view.refreshButtonTapped",
        "#4 _internal.child.view.buttonTapped",
        "#6 _internal.child._internal.grandchild.delegate.didFinish",
        "#7 _internal.refreshed",
      ]
    )
    expectNoDifference(
      leaky.flatMap(\.leaks).map { "\($0.rule.rawValue) by '\($0.feature)'" },
      [
        "effect-sends-view-action by ''",
        "parent-reacts-to-private-child-action by ''",
        "ancestor-reacts-to-grandchild-delegate by ''",
        "view-sends-private-action by ''",
      ]
    )
    #expect(try reader.sessions().first?.leakCount == 4)
  }

  @Test func reportIssueFiresOncePerLeak() async throws {
    let directory = try TemporaryDirectory()
    let recorder = try TraceRecorder(path: directory.path("leak.db"))
    let store = RecordingStore(initialState: LeakyParentFeature.State(), recorder: recorder) {
      LeakyParentFeature()
    }
    withKnownIssue {
      store.send(._internal(.child(.view(.buttonTapped))))
    } matching: { issue in
      issue.description.contains(
        "Boundary leak (parent-reacts-to-private-child-action) in LeakyParentFeature: changed childButtonTaps in response to view action buttonTapped of child. Action #1: _internal.child.view.buttonTapped"
      )
    }
    try await recorder.close()
  }

  @Test func recordOnlyPolicyReportsNothing() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("quiet.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: LeakyParentFeature.State(), recorder: recorder) {
      LeakyParentFeature()
    }
    store.send(._internal(.refreshed))
    try await recorder.close()
    let actions = try TraceReader(path: path).actions()
    expectNoDifference(actions.flatMap(\.leaks).map(\.rule), [.viewSendsPrivateAction])
  }

  @Test func scopedStoreActionsAreRecordedWithTheirWholePath() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("scoped.db")
    let recorder = try TraceRecorder(path: path)
    let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
      AppFeature()
    } withDependencies: {
      exampleDependencies(&$0)
    }
    let login = store.scope(state: \.login, action: \.login)
    login.send(.view(.emailChanged("a@b.c")))
    try await recorder.close()
    let actions = try TraceReader(path: path).actions()
    expectNoDifference(actions.map(\.path), ["_internal.login.view.emailChanged"])
    #expect(store.login.email == "a@b.c")
  }

  @Test func aSecondRecorderOnTheFileAppendsASession() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("two.db")
    for email in ["first@example.com", "second@example.com"] {
      let recorder = try TraceRecorder(path: path)
      let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
        AppFeature()
      } withDependencies: {
        exampleDependencies(&$0)
      }
      store.send(._internal(.login(.view(.emailChanged(email)))))
      try await recorder.close()
    }
    let reader = try TraceReader(path: path)
    let sessions = try reader.sessions()
    expectNoDifference(sessions.map(\.actionCount), [1, 1])
    #expect(sessions.allSatisfy { $0.name.hasPrefix("AppFeature 20") })
    let second = try reader.actions(matching: TraceFilter(session: sessions[1].id))
    expectNoDifference(second.map(\.payload), [#""second@example.com""#])
  }

  #if os(Linux)
    /// The writer's thread runs below the app's threads, so that where the two share a core
    /// the store goes first: as the kernel sees it, in `/proc`.
    @Test func theWriterThreadGivesWayToTheApp() async throws {
      let directory = try TemporaryDirectory()
      let recorder = try TraceRecorder(path: directory.path("nice.db"), policy: .recordOnly)
      var writers: [(name: String, nice: Int)] = []
      for _ in 0..<500 where writers.isEmpty {
        writers = Self.threads().filter { $0.name == TraceWriter.threadName }
        if writers.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
      }
      try await recorder.close()
      #expect(!writers.isEmpty)
      for writer in writers {
        #expect(writer.nice == Int(TraceWriter.niceValue))
      }
      // NB: The app's threads keep the nice value they had: the test's own is one of them.
      let others = Self.threads().filter { $0.name != TraceWriter.threadName }
      #expect(others.contains { $0.nice == 0 })
    }

    /// This process's threads: each one's name and nice value, from `/proc/self/task`.
    private static func threads() -> [(name: String, nice: Int)] {
      let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
      return tasks.compactMap { task in
        // NB: The name is in parentheses and may hold spaces: the fields after it are counted
        // from its closing parenthesis. The nice value is the stat's 19th field.
        guard
          let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
          let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 16, let nice = Int(fields[16]) else { return nil }
        return (String(stat[stat.index(after: open)..<close]), nice)
      }
    }
  #endif

  @Test func aBurstOfManyBatchesIsWrittenWholeAndInOrder() async throws {
    // NB: The store sends far faster than the writer writes, so the records wait in several
    // of the writer's chunks (512 each), and chunks emptied by the writer are filled again.
    struct Counter: Equatable { var count = 0 }
    enum Action { case incrementTapped }
    let directory = try TemporaryDirectory()
    let path = directory.path("burst.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: Counter(), recorder: recorder) {
      Reduce<Counter, Action> { state, _ in
        state.count += 1
        return .none
      }
    }
    let count = 5_000
    for _ in 0..<count { store.send(.incrementTapped) }
    try await recorder.close()

    let reader = try TraceReader(path: path)
    #expect(try reader.sessions().map(\.droppedActions) == [0])
    var read = 0
    var wrong: [Int] = []
    try reader.forEachAction { action in
      read += 1
      let changes = [StateChange(path: "count", kind: .changed, old: "\(read - 1)", new: "\(read)")]
      if action.seq != read || action.changes != changes { wrong.append(read) }
    }
    #expect(read == count)
    #expect(wrong.prefix(3) == [])
  }

  @Test func anUnwritablePathReportsOnceAndTheStoreGoesOn() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("missing-folder/trace.db")
    var opened: Result<TraceRecorder, any Error>?
    withKnownIssue {
      opened = Result { try TraceRecorder(path: path) }
    } matching: { issue in
      issue.description.contains("TCATrace cannot record to '\(path)'")
    }
    let recorder = try #require(opened).get()
    let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
      AppFeature()
    } withDependencies: {
      exampleDependencies(&$0)
    }
    await store.send(._internal(.login(.view(.emailChanged("a@b.c"))))).finish()
    store.send(._internal(.login(.view(.passwordChanged("x")))))
    #expect(store.login.email == "a@b.c")
    #expect(store.login.password == "x")
    try await recorder.close()
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func theReducerModifierRecordsOriginsAndCauses() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("modifier.db")
    let recorder = try TraceRecorder(path: path)
    let store = Store(initialState: AppFeature.State()) {
      AppFeature().recording(to: recorder)
    } withDependencies: {
      exampleDependencies(&$0)
    }
    store.send(._internal(.login(.view(.emailChanged("blob@example.com")))))
    store.send(._internal(.login(.view(.passwordChanged(APIClient.fakePassword)))))
    store.send(._internal(.login(.view(.loginButtonTapped))))
    await store.finish()
    store.send(
      ._internal(
        .login(._internal(.twoFactor(.presented(.view(.codeChanged(APIClient.fakeCode))))))))
    store.send(._internal(.login(._internal(.twoFactor(.presented(.view(.submitButtonTapped)))))))
    await store.finish()
    try await recorder.close()

    let reader = try TraceReader(path: path)
    #expect(try reader.sessions().map(\.rootFeature) == ["AppFeature"])
    expectNoDifference(
      try reader.actions().map(Row.init),
      loginRows
    )
  }

  /// A test leaves a trace to replay: the reducer modifier records a `TestStore` run as it
  /// records a store's.
  @Test func aTestStoreRunIsRecordedAsAStoreRunIs() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("test-store.db")
    let recorder = try TraceRecorder(path: path)
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature().recording(to: recorder)
    } withDependencies: {
      exampleDependencies(&$0)
    }
    store.exhaustivity = .off
    await store.send(._internal(.login(.view(.emailChanged("blob@example.com")))))
    await store.send(._internal(.login(.view(.passwordChanged(APIClient.fakePassword)))))
    await store.send(._internal(.login(.view(.loginButtonTapped))))
    await store.receive(\._internal.login._internal.loginResponse.success)
    await store.send(
      ._internal(
        .login(._internal(.twoFactor(.presented(.view(.codeChanged(APIClient.fakeCode))))))))
    await store.send(
      ._internal(.login(._internal(.twoFactor(.presented(.view(.submitButtonTapped)))))))
    await store.receive(\._internal.login.delegate.didLogin) {
      $0.user = User(id: 1, name: "blob")
    }
    await store.finish()
    try await recorder.close()

    let reader = try TraceReader(path: path)
    #expect(try reader.sessions().map(\.rootFeature) == ["AppFeature"])
    expectNoDifference(try reader.actions().map(Row.init), loginRows)
  }
}
