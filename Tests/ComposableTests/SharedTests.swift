import Composable
import CustomDump
import Foundation
import TestSupport
import Testing

/// A counter whose count is shared in memory, and a child that gets the parent's count.
@Reducer
private struct SharedCounter {
  @ObservableState
  struct State: Equatable {
    @Shared(.inMemory("count")) var count = 0
    var child: SharedCounterChild.State?
  }

  enum Action {
    case child(SharedCounterChild.Action)
    case incrementButtonTapped
    case showChildButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .child:
        return .none
      case .incrementButtonTapped:
        state.$count.withLock { $0 += 1 }
        return .none
      case .showChildButtonTapped:
        state.child = SharedCounterChild.State(count: state.$count)
        return .none
      }
    }
    .ifLet(\.child, action: \.child) { SharedCounterChild() }
  }
}

@Reducer
private struct SharedCounterChild {
  @ObservableState
  struct State: Equatable {
    @Shared var count: Int
  }

  enum Action {
    case doubleButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      state.$count.withLock { $0 *= 2 }
      return .none
    }
  }
}

extension SharedReaderKey where Self == InMemoryKey<Int>.Default {
  fileprivate static var launches: Self { Self[.inMemory("launches"), default: 1] }
}

private struct Settings: Codable, Equatable {
  var displayName = ""
  var notificationsEnabled = false
}

@MainActor
@Suite(.hangGuard)
struct SharedTests {
  @Test func featuresWithTheSameKeyShareOneValue() {
    let store = Store(initialState: SharedCounter.State()) { SharedCounter() }
    store.send(.incrementButtonTapped)
    store.send(.showChildButtonTapped)
    store.send(.child(.doubleButtonTapped))
    #expect(store.count == 2)
    #expect(store.child?.count == 2)

    // Another state with the key, in the same test's storage, starts from the shared value.
    @Shared(.inMemory("count")) var count = 100
    #expect(count == 2)
    $count.withLock { $0 += 1 }
    #expect(store.count == 3)
  }

  @Test func aKeyWithADefaultNeedsNoValue() {
    @Shared(.launches) var launches
    #expect(launches == 1)
    $launches.withLock { $0 += 1 }
    @Shared(.launches) var again
    #expect(again == 2)
  }

  @Test func eachTestHasItsOwnInMemoryStorage() {
    @Shared(.inMemory("count")) var count = 7
    #expect(count == 7)
  }

  @Test func theKeyKeepsTheValueWhenNoSharedHoldsIt() {
    do {
      @Shared(.inMemory("name")) var name = "Blob"
      $name.withLock { $0 = "Blob Jr." }
    }
    @Shared(.inMemory("name")) var name = "Blob"
    #expect(name == "Blob Jr.")
  }

  @Test func aValueWithoutAKeyIsSharedByItsCopies() {
    let shared = Shared(value: Settings())
    let copy = shared
    copy.withLock { $0.displayName = "Blob" }
    #expect(shared.wrappedValue.displayName == "Blob")
    // A part of a shared value writes through to it.
    let notifications = shared.notificationsEnabled
    notifications.withLock { $0 = true }
    #expect(shared.wrappedValue == Settings(displayName: "Blob", notificationsEnabled: true))
    #expect(copy == shared)
    #expect(Shared(value: Settings()) != shared)
  }

  @Test func aProjectionCanBeReplaced() {
    @Shared(value: 1) var count: Int
    let other = Shared(value: 5)
    $count = other
    other.withLock { $0 += 1 }
    #expect(count == 6)
  }

  @Test func customDumpShowsTheValue() {
    let settings = Shared(value: Settings(displayName: "Blob"))
    expectNoDifference(
      String(customDumping: settings),
      """
      Settings(
        displayName: "Blob",
        notificationsEnabled: false
      )
      """
    )
    #expect(
      settings.description
        == #"Shared<Settings>(Settings(displayName: "Blob", notificationsEnabled: false))"#)
  }

  @Test func fileStorageWritesJSONAndReadsItBack() throws {
    let directory = try TemporaryDirectory()
    let url = directory.url.appendingPathComponent("nested/settings.json")
    try withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      do {
        @Shared(.fileStorage(url)) var settings = Settings()
        #expect(settings == Settings())
        // A default is not written: nothing changed.
        #expect(!FileManager.default.fileExists(atPath: url.path))
        $settings.displayName.withLock { $0 = "Blob" }
      }
      let written = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: url))
      #expect(written == Settings(displayName: "Blob"))

      // A new reference, once the first is gone, reads the file.
      @Shared(.fileStorage(url)) var settings = Settings()
      #expect(settings.displayName == "Blob")
    }
  }

  @Test func aFileThatDoesNotDecodeIsAnIssueAndTheDefaultIsUsed() throws {
    let directory = try TemporaryDirectory()
    let url = directory.url.appendingPathComponent("settings.json")
    try Data("not json".utf8).write(to: url)
    withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      withKnownIssue {
        @Shared(.fileStorage(url)) var settings = Settings(displayName: "Default")
        #expect(settings.displayName == "Default")
      } matching: { issue in
        issue.description.contains("Could not read a shared value from '\(url.path)'")
      }
    }
    // The damaged file is left as it was.
    #expect(try String(contentsOf: url, encoding: .utf8) == "not json")
  }

  @Test func inTestsFilesAreKeptInMemory() throws {
    let directory = try TemporaryDirectory()
    let url = directory.url.appendingPathComponent("settings.json")
    @Shared(.fileStorage(url)) var settings = Settings()
    $settings.withLock { $0.notificationsEnabled = true }
    #expect(settings.notificationsEnabled)
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }

  @Test func aStoresObserverSeesTheValueBeforeTheActionAndAfter() {
    var counts: [String] = []
    let store = Store(
      initialState: SharedCounter.State(),
      observer: { (event: ActionEvent<SharedCounter.State, SharedCounter.Action>) in
        counts.append("\(event.stateBefore.count) → \(event.stateAfter.count)")
        // The two states hold one reference, which compares its value before the action with
        // its value now while the observer runs.
        counts.append(event.stateBefore == event.stateAfter ? "equal" : "changed")
      }
    ) {
      SharedCounter()
    }
    store.send(.incrementButtonTapped)
    store.send(.showChildButtonTapped)
    store.send(.showChildButtonTapped)
    store.send(.child(.doubleButtonTapped))
    // Outside an observer, a state compares its shared values as they are now.
    let copy = store.state
    store.send(.incrementButtonTapped)
    #expect(copy == store.state)
    #expect(
      counts == [
        "1 → 1", "changed", "1 → 1", "changed", "1 → 1", "equal", "2 → 2", "changed",
        "3 → 3", "changed",
      ]
    )
  }

  @Test func aKeyWithADefaultTakesTheValueGivenWhenItHoldsNone() {
    @Shared(.launches) var launches = 5
    #expect(launches == 5)
    @Shared(.launches) var again = 9
    #expect(again == 5)
  }

  @Test func aSharedOptionalUnwrapsToTheValueItHolds() {
    @Shared(value: [Note(id: 1, text: "Milk")]) var notes: IdentifiedArrayOf<Note>
    #expect(Shared($notes[id: 2]) == nil)
    guard let note = Shared($notes[id: 1]) else {
      Issue.record("No shared note for an id the array holds")
      return
    }
    note.withLock { $0.text = "Oat milk" }
    #expect(notes[id: 1]?.text == "Oat milk")
    $notes.withLock { $0[id: 1]?.text = "Eggs" }
    #expect(note.wrappedValue.text == "Eggs")
    // Gone from the array: the reference reads its last value, and keeps its changes to itself.
    $notes.withLock { _ = $0.remove(id: 1) }
    #expect(note.wrappedValue.text == "Eggs")
    note.withLock { $0.text = "Bread" }
    #expect(notes.isEmpty)
    #expect(note.wrappedValue.text == "Bread")
  }

  @Test func aTestAssertsAChangeMadeThroughAnUnwrappedOptional() async {
    @Shared(value: [Note(id: 1, text: "Milk")]) var notes: IdentifiedArrayOf<Note>
    let store = TestStore(initialState: NoteEditor.State(note: Shared($notes[id: 1])!)) {
      NoteEditor()
    }
    await store.send(.textChanged("Oat milk")) {
      $0.$note.withLock { $0.text = "Oat milk" }
    }
    #expect(notes[id: 1]?.text == "Oat milk")
  }
}

private struct Note: Equatable, Identifiable {
  let id: Int
  var text: String
}

@Reducer
private struct NoteEditor {
  @ObservableState
  struct State: Equatable {
    @Shared var note: Note
  }
  enum Action: Equatable { case textChanged(String) }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .textChanged(text):
        state.$note.withLock { $0.text = text }
        return .none
      }
    }
  }
}
