import Foundation
import TCATraceFile
import TestSupport
import Testing

/// `Schema/tcatrace.sql`, the canonical schema at the top of the repository, and the one the
/// library writes into a new file: they must agree.
@Suite(.hangGuard)
struct SchemaTests {
  @Test func schemaFileAndEmbeddedSchemaAgree() throws {
    let schemaFile = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Schema/tcatrace.sql")
    let directory = try TemporaryDirectory()
    let path = directory.path("schema.db")
    // NB: What a recorder writes first into a new file.
    let connection = try TraceFile.openForWriting(path: path)
    try TraceFile.prepareForAppending(connection)
    let stored = try TraceReader(path: path).query(
      "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"
    )
    let file = try String(contentsOf: schemaFile, encoding: .utf8)
    // Every CREATE statement the library ran is in Schema/tcatrace.sql, and the file has no
    // other CREATE statement.
    let created = stored.rows.compactMap { row -> String? in
      if case let .text(sql) = row[0] { return sql }
      return nil
    }
    let statementsInFile = file.components(separatedBy: "CREATE ").count - 1
    #expect(created.count == statementsInFile)
    for sql in created {
      #expect(file.contains(sql), "Schema/tcatrace.sql lacks: \(sql)")
    }
    // Kept states are a rowid table: a WITHOUT ROWID table's inner pages hold whole rows.
    let states = try #require(created.first { $0.hasPrefix("CREATE TABLE states") })
    #expect(!states.contains("WITHOUT ROWID"))
    let header = try TraceReader(path: path).query("PRAGMA user_version")
    #expect(header.rows == [[.integer(9)]])
    #expect(file.contains("PRAGMA user_version = 9"))
  }
}
