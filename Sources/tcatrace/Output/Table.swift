import ToolSupport
import TraceFormats

/// Text in aligned columns: a header row and data rows.
struct Table {
  enum Alignment { case left, right }

  var columns: [(title: String, alignment: Alignment)]
  var rows: [[String]] = []

  /// The table's lines; the last column is not padded. Cells show the characters a terminal
  /// acts on as escapes (see `terminalSafe`): they hold a file's text.
  func lines(terminal: Terminal) -> [String] {
    let widths = self.widths()
    return [self.header(widths: widths, terminal: terminal)]
      + self.rows.map { self.line($0, widths: widths) }
  }

  /// The width of each column: its widest cell, title included.
  func widths() -> [Int] {
    self.columns.indices.map { column in
      ([self.columns[column].title] + self.rows.map { $0[column] })
        .map { Self.cell($0).count }.max() ?? 0
    }
  }

  /// The header line for columns `widths` wide.
  func header(widths: [Int], terminal: Terminal) -> String {
    terminal.paint(self.line(self.columns.map(\.title), widths: widths), .bold)
  }

  /// One row for columns `widths` wide; a cell wider than its column widens it.
  func line(_ cells: [String], widths: [Int]) -> String {
    cells.enumerated().map { column, cell in
      let cell = Self.cell(cell)
      if column == cells.count - 1, self.columns[column].alignment == .left { return cell }
      switch self.columns[column].alignment {
      case .left: return cell.rightPadded(to: widths[column])
      case .right: return cell.leftPadded(to: widths[column])
      }
    }
    .joined(separator: "  ")
  }

  /// How a cell is shown: its terminal controls escaped, and no wider than ``maximumCellWidth``.
  static func cell(_ text: String) -> String {
    let text = text.terminalSafe
    guard text.count > Self.maximumCellWidth else { return text }
    return String(text.prefix(Self.maximumCellWidth - 1)) + "…"
  }

  /// The widest a cell is shown, in characters: one long value cannot pad every row of its
  /// column into megabytes. `csv` and `json` show values whole.
  static let maximumCellWidth = 200
}

extension Int {
  /// The number with its thousands apart: `10,000`.
  var grouped: String {
    var digits = String(self.magnitude)
    var end = digits.count - 3
    while end > 0 {
      digits.insert(",", at: digits.index(digits.startIndex, offsetBy: end))
      end -= 3
    }
    return self < 0 ? "-" + digits : digits
  }
}

/// A duration in nanoseconds, readable: `850ns`, `12.3µs`, `4.500ms`, `1.234s`.
func formatDuration(_ nanoseconds: Double) -> String {
  switch nanoseconds {
  case ..<1_000: String(cFormat: "%.0fns", nanoseconds)
  case ..<1_000_000: String(cFormat: "%.1fµs", nanoseconds / 1_000)
  case ..<1_000_000_000: String(cFormat: "%.3fms", nanoseconds / 1_000_000)
  default: String(cFormat: "%.3fs", nanoseconds / 1_000_000_000)
  }
}
