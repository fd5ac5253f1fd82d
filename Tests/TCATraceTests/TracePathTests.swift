import Foundation
import TCATrace
import TCATraceExamples
import TestSupport
import Testing

/// Issue #59: a relative path is in an app's Documents directory, where the working directory
/// (`/` in an iOS app) cannot be written; an absolute one is where it says.
@MainActor
@Suite(.hangGuard)
struct TracePathTests {
  @Test func aRelativePathResolvesInTheDirectory() {
    #expect(
      TracePath.resolve("session.db", in: "/var/mobile/Documents")
        == "/var/mobile/Documents/session.db")
    #expect(
      TracePath.resolve("traces/qa.db", in: "/var/mobile/Documents/")
        == "/var/mobile/Documents/traces/qa.db")
    #expect(TracePath.resolve("/tmp/session.db", in: "/var/mobile/Documents") == "/tmp/session.db")
    #expect(TracePath.resolve("session.db", in: nil) == "session.db")
    #expect(TracePath.resolve("", in: "/var/mobile/Documents") == "")
  }

  /// Here (Linux, a test) the working directory is meant: no Documents directory.
  @Test func onLinuxTheWorkingDirectoryIsMeant() {
    #if os(Linux)
      #expect(TracePath.platformDirectory == nil)
    #endif
  }

  @Test func aRecorderWritesARelativePathInItsDirectory() async throws {
    let documents = try TemporaryDirectory()
    let recorder = try TraceRecorder(
      path: "session.db", timing: .fixed, directory: documents.url.path)
    #expect(recorder.path == documents.path("session.db"))
    let store = RecordingStore(initialState: TapCounter.State(), recorder: recorder) {
      TapCounter()
    }
    store.send(.increment)
    try await recorder.close()
    let actions = try TraceReader(path: documents.path("session.db")).actions()
    #expect(actions.map(\.caseName) == ["increment"])
    #expect(
      !FileManager.default.fileExists(
        atPath: FileManager.default.currentDirectoryPath + "/session.db"))
  }
}
