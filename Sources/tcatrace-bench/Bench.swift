import Foundation
import TCATraceBenchmarks

/// `swift run -c release tcatrace-bench [--json FILE] [--tiny] [--only SCENARIO]
/// [--instructions]`: measures recording, writing, reading and memory, and prints each figure
/// with its spread and each ratio with its target; with `--instructions`, also what an action
/// costs in instructions, under valgrind's callgrind.
@main
struct Bench {
  static let usage =
    "usage: tcatrace-bench [--json FILE] [--tiny] [--only send|scaling|writer|reader|states|replay|diff|serve|memory|shared|limit|kill|journal|patterns|live|instructions] [--instructions]\n"

  /// NB: A synchronous `main` that serves the main actor from the main thread's run loop: under
  /// an `async` one, `dispatch_main` parks the main thread, which valgrind 3.19 does not survive
  /// (`--instructions`), and main-actor jobs run on another thread.
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "--instruction-run", arguments.count == 4,
      let pattern = InstructionCount.Pattern(rawValue: arguments[1]),
      let frames = Int(arguments[3])
    {
      MainActor.assumeIsolated {
        InstructionCount.sendAndExit(pattern, recorded: arguments[2] == "recorded", frames: frames)
      }
    }
    Task { @MainActor in
      do {
        try await Self.run(arguments)
        exit(0)
      } catch {
        FileHandle.standardError.write(Data("tcatrace-bench: \(error)\n".utf8))
        exit(1)
      }
    }
    RunLoop.main.run()
    exit(1)
  }

  @MainActor
  static func run(_ arguments: [String]) async throws {
    var arguments = arguments
    var instructions = false
    var jsonPath: String?
    var size = BenchmarkSize.full
    var only: String?
    let scenarios = [
      "send", "scaling", "writer", "reader", "states", "replay", "diff", "serve", "memory",
      "shared", "limit", "kill", "journal", "patterns", "live", "instructions",
    ]
    while let argument = arguments.first {
      arguments.removeFirst()
      switch argument {
      case "--json" where !arguments.isEmpty: jsonPath = arguments.removeFirst()
      case "--tiny": size = .tiny
      case "--instructions": instructions = true
      case "--only" where scenarios.contains(arguments.first ?? ""): only = arguments.removeFirst()
      default:
        FileHandle.standardError.write(Data(Self.usage.utf8))
        exit(2)
      }
    }
    // NB: Instructions are counted when asked for, alone or with the rest: a run under
    // callgrind takes a minute.
    if only == "instructions" { instructions = true }
    func runs(_ scenario: String) -> Bool {
      scenario == "instructions" ? instructions : only == nil || only == scenario
    }
    var results: [ScenarioResult] = []
    if runs("send") { results.append(try await Scenarios.sendOverhead(size)) }
    if runs("scaling") { results.append(try await Scenarios.stateScaling(size)) }
    if runs("writer") { results.append(try await Scenarios.writerThroughput(size)) }
    let tools = BenchTools.locate(besides: CommandLine.arguments[0])
    if runs("reader") {
      if tools.tcatrace == nil {
        FileHandle.standardError.write(
          Data("note: no tcatrace beside tcatrace-bench; replay and leaks skipped\n".utf8))
      }
      if tools.sqlite3 == nil {
        FileHandle.standardError.write(
          Data("note: sqlite3 is not installed; reader ratios skipped\n".utf8))
      }
      results.append(try await Scenarios.readerThroughput(size, tools: tools))
    }
    if runs("states") { results.append(try await Scenarios.keyframes(size, tools: tools)) }
    if runs("replay") { results.append(try await Scenarios.replay(size)) }
    if runs("diff") { results.append(try Scenarios.diffAlignment(size)) }
    if runs("serve") { results.append(try await Scenarios.serve(size, tools: tools)) }
    if runs("limit") { results.append(try await Scenarios.sizeLimit(size)) }
    if runs("kill") { results.append(try await Scenarios.killWindow(size)) }
    if runs("journal") { results.append(try await Scenarios.flightJournal(size)) }
    if runs("patterns") { results.append(try await Scenarios.appPatterns(size)) }
    // NB: The path of this executable, however it was started (by `PATH`, by a link).
    let executable =
      Bundle.main.executableURL?.resolvingSymlinksInPath().path ?? CommandLine.arguments[0]
    if runs("live") {
      // NB: Under callgrind when instructions are asked for, or the scenario alone.
      let counted = instructions || only == "live" ? executable : nil
      results.append(try await Scenarios.live(size, tools: tools, instructionsOf: counted))
    }
    if runs("instructions") {
      do {
        if let counted = try InstructionCount.scenario(executable: executable) {
          results.append(counted)
        }
      } catch {
        // NB: The other scenarios' figures are still printed.
        FileHandle.standardError.write(Data("note: instruction counts failed: \(error)\n".utf8))
      }
    }
    // NB: Last, so that its peak is not an earlier scenario's; it resets the peak anyway.
    if runs("memory"), let memory = try await Scenarios.memory(size) { results.append(memory) }
    // NB: After every other: a shared value, once made, changes how later diffs run.
    if runs("shared") { results.append(try await Scenarios.sharedScaling(size)) }
    print(BenchReport.text(results))
    if let jsonPath {
      try Data(BenchReport.json(results).utf8).write(to: URL(fileURLWithPath: jsonPath))
    }
  }
}
