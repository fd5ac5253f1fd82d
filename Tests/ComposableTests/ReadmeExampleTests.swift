import Foundation
import Testing

struct ReadmeExampleTests {
  /// The package's root directory.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func theReadmeShowsTheTestStoreExampleThatRuns() throws {
    let source = try String(
      contentsOf: Self.root.appendingPathComponent("Tests/ComposableTests/ReadmeTestStoreTests.swift"),
      encoding: .utf8
    )
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let example = try #require(source.range(of: "import Composable").map { String(source[$0.lowerBound...]) })
    #expect(readme.contains("```swift\n\(example)```\n"))
  }
}
