import CSQLite
import Foundation
import TestSupport
import Testing

/// Issue #58: a trace that SQLite's `integrity_check` calls damaged is refused by every command
/// that reads it — exit 2, one line, nothing printed — wherever the damage is: a table's page,
/// an index's (which only a filter reads), the schema's. Pages of a recorded trace are
/// overwritten from fixed seeds (`DamagedPageTests.seeds`), as a disk or a copy would damage
/// them; run more with `TCATRACE_FUZZ_SEEDS=500 swift test --filter DamagedPageTests`.
///
/// NB: Serialized: each seed runs twelve commands, and two cores running every seed's at once
/// slowed the suite's timed tests past their limits.
@Suite(.hangGuard, .serialized)
struct DamagedPageTests {
  static let seeds: [UInt64] =
    ProcessInfo.processInfo.environment["TCATRACE_FUZZ_SEEDS"].flatMap { UInt64($0) }
    .map { Array(1...max(1, $0)) } ?? Array(1...16)

  /// Every command that reads a trace, as a user would run it (`FILE` is the damaged trace).
  static let commands: [[String]] = [
    ["sessions", "FILE"], ["replay", "FILE"],
    ["replay", "FILE", "--category", "view", "--session", "all"],
    ["replay", "FILE", "--format", "jsonl", "--feature", "login"], ["leaks", "FILE"],
    ["stats", "FILE"],
    ["state", "FILE", "--at", "3"], ["test", "FILE"], ["export", "FILE", "--format", "perfetto"],
    ["diff", "FILE", "FILE"], ["sql", "FILE", "SELECT count(*) FROM actions"],
    ["merge", "out.db", "FILE"],
  ]

  @Test(arguments: DamagedPageTests.seeds)
  func aDamagedTraceIsRefusedByEveryCommand(seed: UInt64) async throws {
    let trace = try await RecordedTrace()
    var random = SplitMix64(seed: seed)
    let path = trace.directory.path("damaged.db")
    try FileManager.default.copyItem(atPath: trace.path, toPath: path)
    let damage = try Self.damage(path, &random)
    guard let problem = Self.integrityProblem(path) else {
      // Damage SQLite cannot see (bytes in a row's value) is not this test's.
      return
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let files = try FileManager.default.contentsOfDirectory(atPath: trace.directory.url.path)
      .sorted()
    for command in Self.commands {
      let result = try await Product.tcatrace.run(
        command.map { $0 == "FILE" ? "damaged.db" : $0 }, in: trace.directory.url
      )
      let context = "seed \(seed) (\(damage); \(problem)), \(command)"
      #expect(result.status == 2, "\(context): exit \(result.status)\n\(result.stdout.prefix(300))")
      #expect(result.stdout.isEmpty, "\(context): printed \(result.stdout.prefix(300))")
      #expect(result.stderr.hasPrefix("Error: "), "\(context): \(result.stderr.prefix(300))")
      #expect(
        result.stderr.filter { $0 == "\n" }.count == 1, "\(context): \(result.stderr.prefix(500))")
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(context): the file changed")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: trace.directory.url.path).sorted()
          == files,
        "\(context): files appeared beside the trace"
      )
    }
  }

  /// Damage from a seed gives the same error every run, and says what SQLite found.
  @Test func anIndexWithRowsMissingIsRefused() async throws {
    let trace = try await RecordedTrace()
    let path = trace.directory.path("damaged.db")
    try FileManager.default.copyItem(atPath: trace.path, toPath: path)
    // The index `--category` reads loses its entries: its root page says it holds none.
    let (page, size) = try #require(Self.rootPage(of: "actions_by_category", in: path))
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let header = (page - 1) * size
    #expect(bytes[header] == 0x0A, "a leaf index page")
    bytes[header + 3] = 0
    bytes[header + 4] = 0
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(Self.integrityProblem(path) != nil)

    let result = try await Product.tcatrace.run(
      ["replay", "damaged.db", "--category", "view"], in: trace.directory.url
    )
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("Error: 'damaged.db' does not pass SQLite's integrity check ("))
    #expect(
      result.stderr.hasSuffix(
        "): the file is damaged (truncated or overwritten); record it again\n"))
  }

  /// Overwrites part of the trace at `path`: a whole page, a run of bytes in one, or a run in
  /// an index's root page; returns what it did.
  static func damage(_ path: String, _ random: inout SplitMix64) throws -> String {
    let url = URL(fileURLWithPath: path)
    var bytes = [UInt8](try Data(contentsOf: url))
    let size = Int(bytes[16]) << 8 | Int(bytes[17])
    let pageSize = size == 1 ? 65_536 : size
    let pages = bytes.count / pageSize
    let what: String
    switch random.next() % 3 {
    case 0:
      let page = 2 + Int(random.next() % UInt64(pages - 1))
      for index in (page - 1) * pageSize..<page * pageSize {
        bytes[index] = UInt8(truncatingIfNeeded: random.next())
      }
      what = "page \(page) of \(pages) overwritten"
    case 1:
      let page = 1 + Int(random.next() % UInt64(pages))
      let length = 4 + Int(random.next() % 60)
      let start = (page - 1) * pageSize + Int(random.next() % UInt64(pageSize - length))
      for index in start..<start + length {
        bytes[index] = UInt8(truncatingIfNeeded: random.next())
      }
      what = "\(length) bytes of page \(page) overwritten at \(start)"
    default:
      let indexes = [
        "actions_by_category", "actions_by_feature", "leaks_by_action",
        "sqlite_autoindex_actions_1",
      ]
      let name = indexes[Int(random.next() % UInt64(indexes.count))]
      guard let (page, _) = Self.rootPage(of: name, in: path) else { return "no index \(name)" }
      let length = 2 + Int(random.next() % 30)
      let start = (page - 1) * pageSize + Int(random.next() % UInt64(pageSize - length))
      for index in start..<start + length {
        bytes[index] = UInt8(truncatingIfNeeded: random.next())
      }
      what = "\(length) bytes of \(name)'s root page \(page) overwritten at \(start)"
    }
    try Data(bytes).write(to: url)
    return what
  }

  /// The root page of the index or table `name` in the trace at `path`, and the page size.
  static func rootPage(of name: String, in path: String) -> (page: Int, size: Int)? {
    var db: OpaquePointer?
    defer { sqlite3_close(db) }
    guard
      sqlite3_open_v2("file:\(path)?immutable=1", &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        == SQLITE_OK
    else { return nil }
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    let sql =
      "SELECT rootpage, (SELECT page_size FROM pragma_page_size) FROM sqlite_master WHERE name = '\(name)'"
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK,
      sqlite3_step(statement) == SQLITE_ROW
    else { return nil }
    return (Int(sqlite3_column_int64(statement, 0)), Int(sqlite3_column_int64(statement, 1)))
  }

  /// What `PRAGMA integrity_check` says of the file at `path`, from a connection of the
  /// test's own; `nil` when it says `ok`.
  static func integrityProblem(_ path: String) -> String? {
    var db: OpaquePointer?
    defer { sqlite3_close(db) }
    // NB: Immutable: read without locks, leaving nothing beside the file.
    guard
      sqlite3_open_v2("file:\(path)?immutable=1", &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        == SQLITE_OK
    else { return "cannot be opened" }
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, nil) == SQLITE_OK else {
      return "cannot be checked: \(String(cString: sqlite3_errmsg(db)))"
    }
    var lines: [String] = []
    while true {
      let code = sqlite3_step(statement)
      guard code == SQLITE_ROW else {
        if code != SQLITE_DONE { lines.append("step: \(String(cString: sqlite3_errmsg(db)))") }
        break
      }
      lines.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
    }
    return lines == ["ok"] ? nil : lines.prefix(3).joined(separator: "; ")
  }
}
