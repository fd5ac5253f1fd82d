import Foundation
import TCATraceBenchmarks

/// `swift run -c release tcatrace-bench [--json FILE] [--tiny] [--only send|scaling|writer]`: measures recording and
/// writing, and prints each figure with its spread and each ratio with its target.
@main
struct Bench {
  @MainActor
  static func main() async throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var jsonPath: String?
    var size = BenchmarkSize.full
    var only: String?
    while let argument = arguments.first {
      arguments.removeFirst()
      switch argument {
      case "--json" where !arguments.isEmpty: jsonPath = arguments.removeFirst()
      case "--tiny": size = .tiny
      case "--only" where !arguments.isEmpty: only = arguments.removeFirst()
      default:
        FileHandle.standardError.write(
          Data("usage: tcatrace-bench [--json FILE] [--tiny] [--only send|scaling|writer]\n".utf8)
        )
        exit(2)
      }
    }
    var results: [ScenarioResult] = []
    if only == nil || only == "send" { results.append(try await Scenarios.sendOverhead(size)) }
    if only == nil || only == "scaling" { results.append(try await Scenarios.stateScaling(size)) }
    if only == nil || only == "writer" { results.append(try await Scenarios.writerThroughput(size)) }
    print(BenchReport.text(results))
    if let jsonPath {
      try Data(BenchReport.json(results).utf8).write(to: URL(fileURLWithPath: jsonPath))
    }
  }
}
