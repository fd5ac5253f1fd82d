import Foundation
import TCATrace
import TestSupport
import Testing

/// Issue #59: as the app leaves the foreground, the recorder writes what is pending, folds the
/// WAL into the file and closes it — a trace copied off the device then is complete, and no
/// SQLite lock is held while the app is suspended — and opens it again when the app returns.
/// The notifications come from a center of the test's own, as UIKit's would.
@MainActor
@Suite(.hangGuard)
struct BackgroundingTests {
  let directory: TemporaryDirectory
  let path: String
  let center = NotificationCenter()
  static let leaving = Notification.Name("BackgroundingTests.leaving")
  static let returning = Notification.Name("BackgroundingTests.returning")

  init() throws {
    self.directory = try TemporaryDirectory()
    self.path = self.directory.path("app.db")
  }

  private func recorder() throws -> TraceRecorder {
    try TraceRecorder(
      path: self.path, timing: .fixed,
      lifecycle: AppLifecycle(
        center: self.center, leaving: [Self.leaving], returning: [Self.returning])
    )
  }

  /// Posts `name` from another thread, as UIKit posts on the app's: the recorder blocks the
  /// posting thread until it has let go of the file, never the test's main actor.
  private func post(_ name: Notification.Name) async {
    let center = self.center
    await Task.detached { center.post(name: name, object: nil) }.value
  }

  private func seqs() throws -> [Int] {
    try TraceReader(path: self.path).actions().map(\.seq)
  }

  @Test func leavingTheForegroundLeavesTheFileWholeAndUnlocked() async throws {
    let recorder = try self.recorder()
    let store = RecordingStore(initialState: TapCounter.State(), recorder: recorder) {
      TapCounter()
    }
    store.send(.increment)
    store.send(.increment)
    await self.post(Self.leaving)

    // The file alone holds both actions: no WAL beside it, and the process holds it open no
    // more, so it holds no lock on it.
    #expect(!FileManager.default.fileExists(atPath: self.path + "-wal"))
    #expect(!FileManager.default.fileExists(atPath: self.path + "-shm"))
    #if os(Linux)
      #expect(try self.openDescriptors() == [])
    #endif
    #expect(try self.seqs() == [1, 2])

    // In the background, an action waits in memory; the file is not touched.
    store.send(.increment)
    try await Task.sleep(for: .milliseconds(200))
    #expect(!FileManager.default.fileExists(atPath: self.path + "-wal"))
    #expect(try self.seqs() == [1, 2])

    // Back in the foreground, it is written, and so is what follows.
    await self.post(Self.returning)
    store.send(.increment)
    await recorder.flush()
    #expect(try self.seqs() == [1, 2, 3, 4])
    try await recorder.close()
    #expect(try self.seqs() == [1, 2, 3, 4])
    #expect(try TraceReader(path: self.path).sessions().map(\.endedAt).allSatisfy { $0 != nil })
  }

  /// A recorder closed while the app is in the background opens the file to write what waited
  /// and end the session.
  @Test func closingInTheBackgroundWritesWhatWaited() async throws {
    let recorder = try self.recorder()
    let store = RecordingStore(initialState: TapCounter.State(), recorder: recorder) {
      TapCounter()
    }
    store.send(.increment)
    await self.post(Self.leaving)
    store.send(.increment)
    try await recorder.close()
    #expect(try self.seqs() == [1, 2])
    #expect(!FileManager.default.fileExists(atPath: self.path + "-wal"))
    #expect(try TraceReader(path: self.path).sessions().first?.endedAt != nil)
  }

  /// Leaving twice, and returning without having left, change nothing.
  @Test func repeatedNotificationsAreHarmless() async throws {
    let recorder = try self.recorder()
    let store = RecordingStore(initialState: TapCounter.State(), recorder: recorder) {
      TapCounter()
    }
    await self.post(Self.returning)
    store.send(.increment)
    await self.post(Self.leaving)
    await self.post(Self.leaving)
    #expect(try self.seqs() == [1])
    await self.post(Self.returning)
    await self.post(Self.returning)
    store.send(.increment)
    try await recorder.close()
    #expect(try self.seqs() == [1, 2])
  }

  /// The process's open descriptors of the trace, its WAL or its shared memory: a lock needs
  /// one.
  private func openDescriptors() throws -> [String] {
    let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    return descriptors.compactMap { descriptor in
      let target = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/" + descriptor)
      guard let target, target.hasPrefix(self.path) else { return nil }
      return target
    }
  }
}
