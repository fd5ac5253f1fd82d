import Foundation
import Testing
import TestSupport

/// A trace of the demo's two sessions with fixed times, recorded by `tcatrace-fixture`, in a
/// directory of its own.
struct RecordedTrace {
  let directory: TemporaryDirectory
  let path: String

  init() async throws {
    self.directory = try TemporaryDirectory()
    self.path = self.directory.path("demo.db")
    let result = try await Product("tcatrace-fixture").run(["record-demo", self.path])
    guard result.status == 0 else {
      throw RecordingFailed(output: result.stdout + result.stderr)
    }
  }

  /// Runs `tcatrace` with `arguments` (the file's path is `FILE`) and checks that the run left
  /// the trace's bytes as they were and created nothing beside it.
  func run(_ arguments: [String]) async throws -> Product.Result {
    let before = try Data(contentsOf: URL(fileURLWithPath: self.path))
    let filesBefore = try FileManager.default.contentsOfDirectory(atPath: self.directory.url.path).sorted()
    let result = try await Product.tcatrace.run(
      arguments.map { $0 == "FILE" ? self.path : $0 }, in: self.directory.url
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: self.path)) == before, "the trace changed")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: self.directory.url.path).sorted() == filesBefore,
      "files appeared beside the trace"
    )
    return result
  }

  struct RecordingFailed: Error {
    var output: String
  }
}
