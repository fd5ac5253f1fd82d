import Foundation
import TestSupport
import Testing

/// Every suite has a time limit (`hangGuard`), as Documentation/Architecture.md says: a test
/// that waits for good then fails the run rather than stalling it (issue #60 found twelve
/// without). Read from the test sources: each type that holds `@Test` functions is a suite.
@Suite(.hangGuard)
struct SuiteTimeLimitTests {
  @Test func everySuiteHasATimeLimit() throws {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
    let enumerator = try #require(
      FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
    var suites = 0
    var withoutLimit: [String] = []
    for case let url as URL in enumerator {
      let relative = String(url.path.dropFirst(tests.path.count + 1))
      // NB: Tests/RealTCA is a package of its own; generated tests are free functions; the
      // stopwatch's test is the example Documentation/Composable.md shows as it is, an app's
      // test with nothing of this suite's in it (the CI's stall watch covers it).
      if relative.hasPrefix("RealTCA") || relative.contains("/.build")
        || url.pathExtension != "swift"
        || relative == "ComposableTests/ReadmeTestStoreTests.swift"
      {
        continue
      }
      let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
      for (index, line) in lines.enumerated() where Self.isTypeDeclaration(line) {
        // The type's body: up to the next line that closes a declaration at the left margin.
        let body = lines[(index + 1)...].prefix { $0 != "}" }
        guard body.contains(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@Test") })
        else { continue }
        suites += 1
        // Its attributes: the lines above it that start with `@`, and its own line.
        let attributes = lines[..<index].reversed().prefix { $0.hasPrefix("@") } + [line]
        let suite = attributes.first { $0.contains("@Suite") }
        if suite.map({ !$0.contains(".hangGuard") && !$0.contains(".timeLimit(") }) ?? true {
          withoutLimit.append("\(relative):\(index + 1)")
        }
      }
    }
    #expect(suites > 90)
    #expect(withoutLimit == [])
  }

  /// `struct Name`, `final class Name`, … at the left margin, or after attributes on its line.
  private static func isTypeDeclaration(_ line: String) -> Bool {
    var rest = Substring(line)
    while rest.hasPrefix("@") {
      guard let space = rest.firstIndex(of: " ") else { return false }
      // NB: An attribute with arguments, `@Suite(.hangGuard)`, ends at its parenthesis.
      rest = rest[rest.index(after: space)...]
    }
    for modifier in ["public ", "private ", "fileprivate ", "final "] where rest.hasPrefix(modifier)
    {
      rest = rest.dropFirst(modifier.count)
    }
    return rest.hasPrefix("struct ") || rest.hasPrefix("class ") || rest.hasPrefix("final class ")
  }
}
