// Added by Tests/TCAExamples/measure.sh to each test target of TCA's Examples when it records
// them (issue #71), where the tests' `TestStore(initialState:reducer:withDependencies:)` calls
// are renamed `RecordedTestStore(…)`: this makes TCA's `TestStore` with the reducer wrapped in
// `.recording(to:)`. Each store records to a file of
// its own in the folder TCATRACE_EXAMPLE_TRACES names, named for the call's file and line; the
// recorders are closed before the process exits. Without the variable, nothing is recorded.

import ComposableArchitecture
import Foundation
import TCATrace

@MainActor
func RecordedTestStore<R: Reducer>(
  initialState: @autoclosure () -> R.State,
  reducer: () -> R,
  withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> ComposableArchitecture.TestStore<R.State, R.Action> where R.State: Equatable {
  let base = reducer()
  guard let recorder = ExampleTraces.recorder(fileID: "\(fileID)", line: line) else {
    return ComposableArchitecture.TestStore(
      initialState: initialState(), reducer: { base }, withDependencies: prepareDependencies,
      fileID: fileID, file: filePath, line: line, column: column)
  }
  return ComposableArchitecture.TestStore(
    initialState: initialState(), reducer: { base.recording(to: recorder) },
    withDependencies: prepareDependencies, fileID: fileID, file: filePath, line: line,
    column: column)
}

enum ExampleTraces {
  /// A recorder, not kept alive: its store releases it when its test ends, and it then closes
  /// its file on its writer's thread.
  private final class Recorded: @unchecked Sendable {
    let path: String
    weak var recorder: TraceRecorder?
    init(path: String, recorder: TraceRecorder) {
      self.path = path
      self.recorder = recorder
    }
  }

  private static let recorded = LockIsolated<[Recorded]>([])
  private static let stores = LockIsolated<[String: Int]>([:])

  /// A recorder of its own for the store made at `fileID`'s `line`; `nil` when not recording.
  static func recorder(fileID: String, line: UInt) -> TraceRecorder? {
    guard let folder = ProcessInfo.processInfo.environment["TCATRACE_EXAMPLE_TRACES"] else {
      return nil
    }
    let name = fileID.replacingOccurrences(of: "/", with: "_") + "-\(line)"
    let count = self.stores.withValue { stores in
      stores[name, default: 0] += 1
      return stores[name]!
    }
    let path = folder + "/\(name)-\(count).db"
    do {
      let recorder = try TraceRecorder(
        path: path, session: "\(fileID):\(line)", policy: .recordOnly, redacting: [])
      let isFirst = self.recorded.withValue { recorded in
        recorded.append(Recorded(path: path, recorder: recorder))
        return recorded.count == 1
      }
      if isFirst { atexit { ExampleTraces.waitForFiles() } }
      return recorder
    } catch {
      FileHandle.standardError.write(Data("ExampleTraces: \(error)\n".utf8))
      return nil
    }
  }

  /// Waits, as the process exits, until each recorder is released and its file's session has
  /// ended (written whole); five seconds at most for each, after its release.
  private static func waitForFiles() {
    for entry in self.recorded.value {
      var deadline = Date().addingTimeInterval(5)
      while entry.recorder != nil, Date() < deadline { usleep(10_000) }
      deadline = Date().addingTimeInterval(5)
      while Date() < deadline {
        let sessions = try? TraceReader(path: entry.path, live: true).sessions()
        if let session = sessions?.first, session.endedAt != nil { break }
        usleep(10_000)
      }
    }
  }
}
