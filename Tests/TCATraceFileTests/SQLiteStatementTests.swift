import Foundation
import TestSupport
import Testing

@testable import TCATraceFile

/// A statement binds short texts from room it keeps between resets, which SQLite reads where it
/// lies (issue #75: SQLite's own copy of each text was most of what binding it cost the
/// writer's thread).
@Suite(.hangGuard)
struct SQLiteStatementTests {
  /// Rows whose texts are of every length around the room's sizes and the longest kept there,
  /// empty ones, multi-byte ones and ones holding a NUL among them, bound again and again to one
  /// statement, are written as they were bound; so is a row whose texts outgrow a new
  /// statement's room twice.
  @Test func textsBoundAgainAndAgainAreWrittenAsBound() throws {
    let directory = try TemporaryDirectory()
    let connection = try SQLiteConnection(path: directory.path("texts.db"), mode: .readWrite)
    try connection.execute("CREATE TABLE texts (a TEXT, b TEXT, c TEXT, d TEXT, e TEXT, f TEXT)")
    let insert = try connection.prepare(
      "INSERT INTO texts (a, b, c, d, e, f) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
    let lengths = [0, 1, 15, 16, 200, 255, 256, 257, 300, 511, 4095, 4096, 4097, 10_000]
    let pieces = ["a", "é", "漢", "🙂", "\u{0}"]
    func text(_ row: Int, _ column: Int) -> String? {
      let pick = (row * 7 + column * 13) % (lengths.count + 1)
      guard pick < lengths.count else { return nil }
      guard lengths[pick] > 0 else { return "" }
      let piece = pieces[(row + column) % pieces.count]
      var text = "\(row).\(column):"
      while text.utf8.count < lengths[pick] { text += piece }
      return text
    }
    var expected: [[String?]] = []
    for row in 0..<200 {
      let texts = (0..<6).map { text(row, $0) }
      insert.reset()
      for (column, value) in texts.enumerated() { insert.bind(Int32(column + 1), value) }
      try insert.run()
      expected.append(texts)
    }
    // Six texts of 300 bytes, to a new statement: its room runs out at the second, and again at
    // the fourth.
    let outgrowing = (0..<6).map { String(repeating: Character("\($0)"), count: 300) }
    let fresh = try connection.prepare(
      "INSERT INTO texts (a, b, c, d, e, f) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
    for (column, value) in outgrowing.enumerated() { fresh.bind(Int32(column + 1), value) }
    try fresh.run()
    expected.append(outgrowing)

    let select = try connection.prepare("SELECT a, b, c, d, e, f FROM texts ORDER BY rowid")
    var written: [[String?]] = []
    while try select.step() { written.append(try (0..<6).map { try select.optionalString($0) }) }
    #expect(written.count == expected.count)
    // NB: The rows that differ, by their index: the texts are too long to print.
    let differing = zip(written, expected).enumerated().filter { $0.element.0 != $0.element.1 }
    #expect(differing.map(\.offset) == [])
  }

  /// Reset, a statement holds NULL in each parameter until it is bound again: a short text's
  /// bytes are the next texts', never written in its place, and an integer goes too.
  @Test func aParameterNotBoundAgainAfterAResetIsNull() throws {
    let directory = try TemporaryDirectory()
    let connection = try SQLiteConnection(path: directory.path("texts.db"), mode: .readWrite)
    try connection.execute("CREATE TABLE pairs (name TEXT, number INTEGER)")
    let insert = try connection.prepare("INSERT INTO pairs (name, number) VALUES (?1, ?2)")
    insert.bind(1, "first")
    insert.bind(2, 1)
    try insert.run()
    insert.reset()
    insert.bind(2, 2)
    try insert.run()
    insert.reset()
    insert.bind(1, "third")
    try insert.run()

    let select = try connection.prepare("SELECT name, number FROM pairs ORDER BY rowid")
    var rows: [String] = []
    while try select.step() {
      let number = select.isNull(1) ? "NULL" : "\(try select.integer(1))"
      rows.append("\(try select.optionalString(0) ?? "NULL") \(number)")
    }
    #expect(rows == ["first 1", "NULL 2", "third NULL"])
  }
}
