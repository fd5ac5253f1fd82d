import Foundation
import TCATraceBenchmarks

/// `swift run -c release tcatrace-bench [--json FILE] [--tiny]`: measures recording and
/// writing, and prints each figure with its spread and each ratio with its target.
@main
struct Bench {
  @MainActor
  static func main() async throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var jsonPath: String?
    var size = BenchmarkSize.full
    while let argument = arguments.first {
      arguments.removeFirst()
      switch argument {
      case "--json" where !arguments.isEmpty: jsonPath = arguments.removeFirst()
      case "--tiny": size = .tiny
      default:
        FileHandle.standardError.write(Data("usage: tcatrace-bench [--json FILE] [--tiny]\n".utf8))
        exit(2)
      }
    }
    let results = [
      try await Scenarios.sendOverhead(size),
      try await Scenarios.stateScaling(size),
      try await Scenarios.writerThroughput(size),
    ]
    print(BenchReport.text(results))
    if let jsonPath {
      try Data(BenchReport.json(results).utf8).write(to: URL(fileURLWithPath: jsonPath))
    }
  }
}
