import ArgumentParser
import TCATraceFile
import TraceFormats
import ToolSupport

extension TCATraceCommand {
  /// `tcatrace sql FILE QUERY`: a read-only query.
  struct SQL: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sql",
      abstract: "Run a read-only SQL query on a trace.",
      discussion: """
        The connection cannot write, attach other databases or load extensions; a query may \
        call SQLite's built-in functions that compute values and run read-only pragmas. The \
        tables (sessions, actions, state_changes, leaks) and the views (timeline, \
        leak_report) are documented in the package's Documentation/Recording.md. The table \
        format shows multi-line values on one line; csv and json keep every value exact.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case table, csv, json
    }

    @OptionGroup var trace: TraceFileArguments

    @Argument(help: "The query: SELECT …")
    var query: String

    @Option(help: "Output format: table, csv or json.")
    var format: Format = .table

    func run() throws {
      try self.trace.read { reader in
        do {
          switch self.format {
          case .table: try self.printTable(reader)
          case .csv: try self.printCSV(reader)
          case .json: try self.printJSON(reader)
          }
        } catch let error as TraceFileError {
          throw CLIError(message: error.queryExplanation(file: self.trace.file))
        }
      }
    }

    /// Rows are printed as they are read. Columns are as wide as their widest cell among the
    /// first ``tableSample`` rows; a wider cell later widens only its own row.
    private func printTable(_ reader: TraceReader) throws {
      var table = Table(columns: [])
      var widths: [Int]?
      func flush() {
        let sampled = table.widths()
        widths = sampled
        guard !table.columns.isEmpty else { return }
        print(table.header(widths: sampled, terminal: .standard).trimmingSuffix())
        for row in table.rows { print(table.line(row, widths: sampled).trimmingSuffix()) }
        table.rows = []
      }
      try reader.query(self.query) { columns in
        table.columns = columns.map { ($0, .left) }
      } row: { values in
        // NB: A table keeps one row per line: multi-line values (CustomDump renderings) are
        // shown on one line. csv and json keep them exact.
        let cells = values.map(\.text.singleLine)
        if let widths {
          print(table.line(cells, widths: widths).trimmingSuffix())
        } else {
          table.rows.append(cells)
          if table.rows.count == Self.tableSample { flush() }
        }
      }
      if widths == nil { flush() }
    }

    /// Rows read before a table's column widths are fixed.
    static let tableSample = 1_000

    private func printCSV(_ reader: TraceReader) throws {
      try reader.query(self.query) { columns in
        print(columns.map(Self.csvField).joined(separator: ","))
      } row: { row in
        print(row.map { $0 == .null ? "" : Self.csvField($0.text) }.joined(separator: ","))
      }
    }

    /// One JSON array, written as the rows are read.
    private func printJSON(_ reader: TraceReader) throws {
      var columns: [String] = []
      var isFirst = true
      print("[", terminator: "")
      try reader.query(self.query) {
        columns = $0
      } row: { row in
        print(isFirst ? "" : ",", terminator: "")
        isFirst = false
        print(
          JSONValue.object(zip(columns, row.map(\.json)).map { ($0, $1) }).rendered, terminator: "")
      }
      print("]")
    }

    static func csvField(_ text: String) -> String {
      guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
        return text
      }
      return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
  }
}
