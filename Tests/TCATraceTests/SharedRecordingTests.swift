import CustomDump
import Foundation
import TCATrace
import TestSupport
import Testing

/// A profile whose name is shared in memory, with an editor sheet that gets the shared name.
@Reducer
private struct Profile {
  @ObservableState
  struct State: Equatable {
    @Shared(.inMemory("name")) var name = "Blob"
    @Presents var editor: ProfileEditor.State?
    var edits = 0
  }

  enum Action {
    case editor(PresentationAction<ProfileEditor.Action>)
    case editButtonTapped
    case resetButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .editor(.presented(.renamed)):
        state.edits += 1
        return .none
      case .editor:
        return .none
      case .editButtonTapped:
        state.editor = ProfileEditor.State(name: state.$name)
        return .none
      case .resetButtonTapped:
        state.$name.withLock { $0 = "Blob" }
        return .none
      }
    }
    .ifLet(\.$editor, action: \.editor) { ProfileEditor() }
  }
}

@Reducer
private struct ProfileEditor {
  @ObservableState
  struct State: Equatable {
    @Shared var name: String
  }

  enum Action {
    case renamed(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .renamed(name):
        state.$name.withLock { $0 = name }
        return .none
      }
    }
  }
}

@Reducer(state: .equatable)
private enum ProfileDestination {
  case editor(ProfileEditor)
}

/// The profile with its editor as a destination, as TCA features present screens.
@Reducer
private struct ProfileWithDestination {
  @ObservableState
  struct State: Equatable {
    @Shared(.inMemory("name")) var name = "Blob"
    @Presents var destination: ProfileDestination.State?
  }

  enum Action {
    case destination(PresentationAction<ProfileDestination.Action>)
    case editButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .editButtonTapped = action {
        state.destination = .editor(ProfileEditor.State(name: state.$name))
      }
      return .none
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

/// A tally with boundaries whose total is shared with its parent.
@Reducer
private struct Tally {
  @ObservableState
  struct State: Equatable {
    @Shared var total: Int
  }

  @CasePathable
  enum Action: TCAFeatureAction {
    @CasePathable enum ViewAction { case tapped }
    @CasePathable enum InternalAction {}
    @CasePathable enum DelegateAction {}
    case view(ViewAction)
    case _internal(InternalAction)
    case delegate(DelegateAction)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      state.$total.withLock { $0 += 1 }
      return .none
    }
  }
}

@Reducer
private struct Scoreboard {
  @ObservableState
  struct State: Equatable {
    @Shared(.inMemory("total")) var total = 0
    var tally: Tally.State
    var peeks = 0

    init() {
      self.tally = Tally.State(total: self._total.projectedValue)
    }
  }

  @CasePathable
  enum Action: TCAFeatureAction {
    @CasePathable enum ViewAction { case peekTapped }
    @CasePathable enum InternalAction { case tally(Tally.Action) }
    @CasePathable enum DelegateAction {}
    case view(ViewAction)
    case _internal(InternalAction)
    case delegate(DelegateAction)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.tally, action: \._internal.tally) { Tally() }
    Reduce { state, action in
      if case ._internal(.tally(.view(.tapped))) = action, state.total == 2 {
        // LEAK: reacts to the tally's view action (the second tap).
        state.peeks += 1
      }
      return .none
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct SharedRecordingTests {
  @Test func aChildChangingAValueItSharesWithItsParentIsNotTheParentReacting() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("leaks.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: Scoreboard.State(), recorder: recorder) {
      Scoreboard()
    }
    store.send(._internal(.tally(.view(.tapped))))
    store.send(._internal(.tally(.view(.tapped))))
    try await recorder.close()

    let actions = try TraceReader(path: path).actions()
    #expect(
      actions.map { $0.changes.map(\.path) } == [
        ["total", "tally.total"], ["total", "tally.total", "peeks"],
      ])
    // The shared total is not judged; the parent's own reaction is.
    expectNoDifference(
      actions.map { $0.leaks.map { "\($0.rule) \($0.detail)" } },
      [
        [],
        [
          "\(LeakRule.parentReactsToPrivateChildAction) changed peeks in response to view action tapped of tally"
        ],
      ]
    )
  }

  @Test func aSharedValueIsRecordedAsWhatItHolds() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("shared.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: Profile.State(), recorder: recorder) {
      Profile()
    }
    store.send(.editButtonTapped)
    store.send(.editor(.presented(.renamed("Blob Jr."))))
    store.send(.resetButtonTapped)
    store.send(.resetButtonTapped)
    try await recorder.close()
    // Issue #75: its actions were analysed on the store's thread, for its state holds a shared
    // value, whatever the analysis backlog held: the session does not count fallbacks.
    #expect(try TraceReader(path: path).sessions().map(\.backlogFallbacks) == [nil])

    let changes = try TraceReader(path: path).actions().map {
      $0.changes.map { "\($0.path) \($0.kind) \($0.old ?? "∅") → \($0.new ?? "∅")" }
    }
    expectNoDifference(
      changes,
      [
        // A value is rendered as CustomDump renders it: the shared property by its storage.
        [
          """
          editor added ∅ → ProfileEditor.State(
            _name: "Blob"
          )
          """
        ],
        // The parent and the sheet hold one shared name: both show the change.
        [
          #"name changed "Blob" → "Blob Jr.""#,
          #"editor.name changed "Blob" → "Blob Jr.""#,
          "edits changed 0 → 1",
        ],
        [
          #"name changed "Blob Jr." → "Blob""#,
          #"editor.name changed "Blob Jr." → "Blob""#,
        ],
        // Setting the name it already has changes nothing.
        [],
      ]
    )
  }

  /// The rows of an identified array are compared as memory first; a row holding a shared
  /// value is not: its bytes are its reference, the same while the value it holds changes.
  @Test func aSharedValueInARowOfAnIdentifiedArrayIsRecorded() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("rows.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(
      initialState: Board.State(
        rows: [
          Board.Row(id: 1, votes: Shared(value: 0)), Board.Row(id: 2, votes: Shared(value: 0)),
        ]
      ),
      recorder: recorder
    ) {
      Board()
    }
    store.send(.voteTapped(id: 2))
    store.send(.voteTapped(id: 2))
    try await recorder.close()
    let changes = try TraceReader(path: path).actions().map {
      $0.changes.map { "\($0.path) \($0.old ?? "∅") → \($0.new ?? "∅")" }
    }
    expectNoDifference(changes, [["rows[id: 2].votes 0 → 1"], ["rows[id: 2].votes 1 → 2"]])
  }

  @Test func theReducerModifierRecordsSharedValuesToo() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("modifier.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = Store(initialState: Profile.State()) {
      Profile().recording(to: recorder)
    }
    store.send(.editButtonTapped)
    store.send(.editor(.presented(.renamed("Blob Sr."))))
    try await recorder.close()
    let changes = try TraceReader(path: path).actions().last?.changes.map(\.path)
    #expect(changes == ["name", "editor.name", "edits"])
  }

  @Test func aSharedValueInADestinationIsRecordedToo() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("destination.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: ProfileWithDestination.State(), recorder: recorder) {
      ProfileWithDestination()
    }
    store.send(.editButtonTapped)
    store.send(.destination(.presented(.editor(.renamed("Blob Jr.")))))
    try await recorder.close()
    let changes = try TraceReader(path: path).actions().last?.changes.map {
      "\($0.path) \($0.old ?? "∅") → \($0.new ?? "∅")"
    }
    #expect(
      changes == [#"name "Blob" → "Blob Jr.""#, #"destination.editor.name "Blob" → "Blob Jr.""#])
  }
}

/// Rows that each share their vote count.
@Reducer
private struct Board {
  struct Row: Equatable, Identifiable {
    let id: Int
    @Shared var votes: Int
  }

  @ObservableState
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row>
  }

  enum Action {
    case voteTapped(id: Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .voteTapped(id):
        state.rows[id: id]?.$votes.withLock { $0 += 1 }
        return .none
      }
    }
  }
}
