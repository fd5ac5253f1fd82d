import ArgumentParser
import TCATraceFile
import ToolSupport
import TraceFormats

extension TCATraceCommand {
  /// `tcatrace stats FILE`: where the actions and the reducer time go.
  struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "stats",
      abstract: "Summarize a trace per feature and category.",
      discussion: """
        For each feature and own category: the number of actions, their share of all actions, \
        the mean and 95th-percentile time in the reducer, and the most frequent cases. Most \
        frequent groups first.
        """
    )

    @OptionGroup var trace: TraceFileArguments
    @OptionGroup var sessionOptions: SessionOptions

    @Option(help: "Output format: text, json or jsonl.")
    var format: OutputFormat = .text

    func run() throws {
      let statistics = try self.trace.read(checking: ["actions"]) { reader in
        try reader.featureStatistics(session: try self.sessionOptions.session.resolve(in: reader))
      }
      switch self.format {
      case .text:
        guard !statistics.isEmpty else {
          print("No actions.")
          return
        }
        var table = Table(columns: [
          ("FEATURE", .left), ("CATEGORY", .left), ("ACTIONS", .right), ("SHARE", .right),
          ("MEAN", .right), ("P95", .right), ("TOP CASES", .left),
        ])
        for group in statistics {
          table.rows.append([
            group.feature,
            group.category.rawValue,
            String(group.count),
            String(cFormat: "%.1f%%", group.share * 100),
            formatDuration(group.meanDurationNs),
            formatDuration(Double(group.p95DurationNs)),
            group.topCases.map { "\($0.name) ×\($0.count)" }.joined(separator: ", "),
          ])
        }
        for line in table.lines(terminal: .standard) { print(line) }
      case .json, .jsonl:
        printJSON(
          statistics.map {
            .object([
              ("feature", .string($0.feature)),
              ("category", .string($0.category.rawValue)),
              ("actions", .integer(Int64($0.count))),
              ("share", .number($0.share)),
              ("mean_duration_ns", .number($0.meanDurationNs)),
              ("p95_duration_ns", .integer($0.p95DurationNs)),
              (
                "top_cases",
                .array(
                  $0.topCases.map {
                    .object([("case", .string($0.name)), ("count", .integer(Int64($0.count)))])
                  })
              ),
            ])
          },
          format: self.format
        )
      }
    }
  }
}
