import Foundation
import TCATraceCLI

/// Text in aligned columns: a header row and data rows.
struct Table {
  enum Alignment { case left, right }

  var columns: [(title: String, alignment: Alignment)]
  var rows: [[String]] = []

  /// The table's lines; the last column is not padded. Cells show the characters a terminal
  /// acts on as escapes (see `terminalSafe`): they hold a file's text.
  func lines(terminal: Terminal) -> [String] {
    let columns = self.columns.map { (title: $0.title.terminalSafe, alignment: $0.alignment) }
    let rows = self.rows.map { $0.map(\.terminalSafe) }
    let widths = self.columns.indices.map { column in
      ([columns[column].title] + rows.map { $0[column] }).map(\.count).max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { column, cell in
        if column == cells.count - 1, columns[column].alignment == .left { return cell }
        switch columns[column].alignment {
        case .left: return cell.rightPadded(to: widths[column])
        case .right: return cell.leftPadded(to: widths[column])
        }
      }
      .joined(separator: "  ")
    }
    return [terminal.paint(line(columns.map(\.title)), .bold)] + rows.map(line)
  }
}

/// A duration in nanoseconds, readable: `850ns`, `12.3µs`, `4.500ms`, `1.234s`.
func formatDuration(_ nanoseconds: Double) -> String {
  switch nanoseconds {
  case ..<1_000: String(format: "%.0fns", nanoseconds)
  case ..<1_000_000: String(format: "%.1fµs", nanoseconds / 1_000)
  case ..<1_000_000_000: String(format: "%.3fms", nanoseconds / 1_000_000)
  default: String(format: "%.3fs", nanoseconds / 1_000_000_000)
  }
}
