import CustomDump
import Foundation
@testable import LibraryExample
import TCATrace
import Testing

/// `RecordingStore.finish()` on TCA, whose `Store` does not say when its effects are done (#41).
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct RecordingStoreOnTCATests {
  @Test func finishWaitsForTheEffectsAndTheEffectsTheirActionsReturned() async throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path, session: "book", policy: .recordOnly)
    let store = RecordingStore(initialState: Book.State(title: "Dune"), recorder: recorder) {
      Book()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    store.send(.view(.startTapped))
    await store.finish()
    // Two ticks, and the delegate action the second one's effect sent.
    #expect(store.page == 2)
    try await recorder.close()
    let actions = try TraceReader(path: path).actions().map(\.path)
    #expect(
      actions == ["view.startTapped", "_internal.tick", "_internal.tick", "delegate.finished"])
  }

  @Test func finishWaitsUntilAnEffectThatDoesNotEndByItselfIsCancelled() async throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path, session: "book", policy: .recordOnly)
    let store = RecordingStore(initialState: Book.State(title: "Dune"), recorder: recorder) {
      Book()
    }
    store.send(.view(.slowStartTapped))
    let finished = Task { await store.finish() }
    // NB: TCA can cancel a `.run` only once its task runs.
    try await Task.sleep(for: .milliseconds(100))
    store.send(.view(.stopTapped))
    await finished.value
    #expect(store.isReading == false)
    try await recorder.close()
  }

  @Test func finishDoesNotWaitForWhatIsPresentedButForWhatItsFeaturesStart() async throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path, session: "library", policy: .recordOnly)
    let store = RecordingStore(initialState: Library.State(), recorder: recorder) {
      Library()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    // TCA keeps an effect running for as long as a feature is presented or pushed.
    store.send(.view(.openTapped))
    store.send(.view(.pushTapped))
    await store.finish()
    #expect(store.path.count == 1)
    store.send(._internal(.destination(.presented(.book(.view(.startTapped))))))
    await store.finish()
    #expect(store.finished == ["Dune"])
    try await recorder.close()
  }

  @Test func finishDoesNotWaitForWhatAStateWithAMirrorOfItsOwnPresents() async throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path, session: "boxed", policy: .recordOnly)
    let store = RecordingStore(initialState: BoxedSheet.State(), recorder: recorder) {
      BoxedSheet()
    }
    store.send(.openTapped)
    #expect(store.sheet.wrappedValue?.title == "Dune")
    // NB: The presentation's effect runs until the sheet is dismissed: `finish()` returns first.
    let done = Flag()
    let finishing = Task { @MainActor in
      await store.finish()
      done.isSet = true
    }
    let deadline = ContinuousClock.now + .seconds(30)
    while !done.isSet, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(done.isSet)
    store.send(.sheet(.dismiss))
    await finishing.value
    try await recorder.close()
  }

  @Test func finishReturnsAtOnceWhenNoEffectRuns() async throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path, session: "book", policy: .recordOnly)
    let store = RecordingStore(initialState: Book.State(title: "Dune"), recorder: recorder) {
      Book()
    }
    await store.finish()
    store.send(.view(.binding(.set(\.note, "Spice"))))
    await store.finish()
    #expect(store.note == "Spice")
    try await recorder.close()
  }

  /// A binding's payload is read without a mirror on TCA (its value at its field's offset), and
  /// reads as `Composable`'s: its key path named from the feature's state, its value as
  /// CustomDump prints it.
  @Test func bindingPayloadsNameTheirKeyPathAndPrintTheirValue() async throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path, session: "book", policy: .recordOnly)
    let store = RecordingStore(initialState: Book.State(title: "Dune"), recorder: recorder) {
      Book()
    }
    let notes = ["Spice", "", "Say \"hi\"\\", "Arrakis\nCaladan", "Épice 🏜️"]
    for note in notes {
      store.send(.view(.binding(.set(\.note, note))))
    }
    store.send(.view(.binding(.set(\.page, 42))))
    #expect(store.page == 42)
    try await recorder.close()
    let payloads = try TraceReader(path: path).actions().map(\.payload)
    #expect(
      payloads
        == notes.map { ".set(\\.note, \(String(customDumping: $0)))" } + [".set(\\.page, 42)"])
    #expect(payloads.first == #".set(\.note, "Spice")"#)
  }
}

/// Set once a task is done; read and set on the main actor.
@MainActor
private final class Flag {
  var isSet = false
}

/// A feature whose state keeps its sheet in a class and gives a mirror of its own that shows it,
/// as a copy-on-write state does: the recorder still sees that an action presented the sheet.
@Reducer
private struct BoxedSheet {
  struct State: Equatable, CustomReflectable {
    final class Storage: @unchecked Sendable {
      var sheet = PresentationState<Book.State>(wrappedValue: nil)
    }

    private var storage = Storage()

    var sheet: PresentationState<Book.State> {
      get { self.storage.sheet }
      set {
        if !isKnownUniquelyReferenced(&self.storage) {
          let copy = Storage()
          copy.sheet = self.storage.sheet
          self.storage = copy
        }
        self.storage.sheet = newValue
      }
    }

    var customMirror: Mirror { Mirror(self, children: ["sheet": self.sheet]) }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.sheet == rhs.sheet }
  }

  enum Action {
    case openTapped
    case sheet(PresentationAction<Book.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .openTapped = action {
        state.sheet = PresentationState(wrappedValue: Book.State(title: "Dune"))
      }
      return .none
    }
    .ifLet(\.sheet, action: \.sheet) { Book() }
  }
}

private func temporaryPath() -> String {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("tcatrace-finish-\(UUID().uuidString).db").path
}
