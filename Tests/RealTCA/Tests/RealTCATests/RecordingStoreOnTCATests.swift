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
}

private func temporaryPath() -> String {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("tcatrace-finish-\(UUID().uuidString).db").path
}
