import Foundation
import Testing
import TestSupport

@Suite(.hangGuard)
struct ReadmeExampleTests {
  /// The package's root directory.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The documentation of `Composable` (`Documentation/Composable.md`, linked from the README)
  /// shows the example that `ReadmeTestStoreTests` runs.
  @Test func theDocumentationShowsTheTestStoreExampleThatRuns() throws {
    let source = try String(
      contentsOf: Self.root.appendingPathComponent(
        "Tests/ComposableTests/ReadmeTestStoreTests.swift"),
      encoding: .utf8
    )
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("Documentation/Composable.md"), encoding: .utf8
    )
    let example = try #require(
      source.range(of: "import Composable").map { String(source[$0.lowerBound...]) })
    #expect(readme.contains("```swift\n\(example)```\n"))
  }
}
