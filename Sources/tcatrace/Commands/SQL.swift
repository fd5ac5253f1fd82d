import ArgumentParser
import Foundation
import TCATraceFile
import TCATraceCLI

extension TCATraceCommand {
  /// `tcatrace sql FILE QUERY`: a read-only query.
  struct SQL: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sql",
      abstract: "Run a read-only SQL query on a trace.",
      discussion: """
        The connection cannot write, attach other databases or load extensions; a query may \
        call SQLite's built-in functions that compute values and run read-only pragmas. The \
        README documents the tables (sessions, actions, state_changes, leaks) and the views \
        (timeline, leak_report). The table format shows multi-line values on one line; csv \
        and json keep every value exact.
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
      let reader = try self.trace.open()
      let result: TraceQueryResult
      do {
        result = try reader.query(self.query)
      } catch {
        throw CLIError(message: Self.explain(error, file: self.trace.file))
      }
      switch self.format {
      case .table:
        guard !result.columns.isEmpty else { return }
        var table = Table(columns: result.columns.map { ($0, .left) })
        // NB: A table keeps one row per line: multi-line values (CustomDump renderings) are
        // shown on one line. csv and json keep them exact.
        table.rows = result.rows.map { $0.map(\.text.singleLine) }
        for line in table.lines(terminal: .standard) { print(line.trimmingSuffix()) }
      case .csv:
        print(result.columns.map(Self.csvField).joined(separator: ","))
        for row in result.rows {
          print(row.map { $0 == .null ? "" : Self.csvField($0.text) }.joined(separator: ","))
        }
      case .json:
        print(
          JSONValue.array(
            result.rows.map { row in .object(zip(result.columns, row.map(\.json)).map { ($0, $1) }) }
          ).rendered
        )
      }
    }

    /// A query's error on one line, with what to do.
    static func explain(_ error: TraceFileError, file: String) -> String {
      let sqliteMessage = error.message
      if error.kind == .notWritable || sqliteMessage.contains("readonly") {
        return "tcatrace sql runs read-only queries, and this one would change '\(file)' (\(sqliteMessage)): use SELECT"
      }
      if sqliteMessage.contains("attached databases") {
        return "tcatrace sql cannot attach other databases: query '\(file)' alone"
      }
      return "\(error.cliDescription): check the query"
    }

    static func csvField(_ text: String) -> String {
      guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
        return text
      }
      return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
  }
}

extension TraceValue {
  /// The value as table and CSV cells show it: `NULL`, numbers, text, `x'…'` for blobs.
  var text: String {
    switch self {
    case .null: "NULL"
    case let .integer(integer): String(integer)
    case let .real(real): String(real)
    case let .text(text): text
    case let .blob(bytes): "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
    }
  }

  var json: JSONValue {
    switch self {
    case .null: .null
    case let .integer(integer): .integer(integer)
    case let .real(real): .number(real)
    case let .text(text): .string(text)
    case .blob: .string(self.text)
    }
  }
}
