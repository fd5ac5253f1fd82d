import ArgumentParser
import TCATraceFile
import ToolSupport

extension TCATraceCommand {
  /// `tcatrace leaks FILE`: the boundary leaks, grouped; exit 1 when there are any.
  struct Leaks: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "leaks",
      abstract: "Report the boundary leaks in a trace, grouped by rule and feature.",
      discussion: """
        Each line is one rule broken by one feature in one session: how often, the seq of the \
        first action that broke it, and what that action did. Exits with 1 when any leak is \
        found, so it can gate CI.
        """
    )

    @OptionGroup var trace: TraceFileArguments
    @OptionGroup var sessionOptions: SessionOptions

    @Option(help: "Output format: text, json or jsonl.")
    var format: OutputFormat = .text

    func run() throws {
      let (summaries, roots) = try self.trace.read(
        checking: ["leaks", "sessions"], alongside: false
      ) { reader in
        let session = try self.sessionOptions.session.resolve(in: reader)
        return (try reader.leakSummaries(session: session), try reader.rootFeatures())
      }
      switch self.format {
      case .text:
        printLeakTable(summaries, roots: roots, terminal: .standard)
      case .json, .jsonl:
        printJSON(
          summaries.map {
            .object([
              ("session", .integer($0.sessionID)),
              ("rule", .string($0.rule.rawValue)),
              ("feature", .string($0.feature)),
              ("count", .integer(Int64($0.count))),
              ("first_seq", .integer(Int64($0.firstSeq))),
              ("first_detail", .string($0.firstDetail)),
            ])
          },
          format: self.format
        )
      }
      if !summaries.isEmpty { throw ExitCode(1) }
    }
  }
}

/// The leak report as text: one row per session, rule and feature, and a total.
func printLeakTable(_ summaries: [LeakSummary], roots: [Int64: String], terminal: Terminal) {
  guard !summaries.isEmpty else {
    print(terminal.paint("No leaks.", .green))
    return
  }
  var table = Table(columns: [
    ("SESSION", .right), ("RULE", .left), ("FEATURE", .left), ("COUNT", .right),
    ("FIRST", .right), ("DETAIL", .left),
  ])
  for summary in summaries {
    table.rows.append([
      String(summary.sessionID), summary.rule.rawValue,
      summary.feature.isEmpty ? roots[summary.sessionID] ?? "" : summary.feature,
      String(summary.count), "#\(summary.firstSeq)", summary.firstDetail,
    ])
  }
  for line in table.lines(terminal: terminal) { print(line) }
  let total = summaries.map(\.count).reduce(0, +)
  let sessions = Set(summaries.map(\.sessionID)).count
  print(
    terminal.paint(
      "\(total) leak\(total == 1 ? "" : "s") in \(sessions) session\(sessions == 1 ? "" : "s").",
      .red
    )
  )
}
