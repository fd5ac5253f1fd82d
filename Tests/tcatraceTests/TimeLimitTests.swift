import CSQLite
import CustomDump
import Foundation
import TestSupport
import Testing

/// Issue #20, item 3: a file whose views never end, or a query that never ends, stops with an
/// error after the time limit instead of running (and filling the disk with temp files)
/// forever.
@Suite(.hangGuard)
struct TimeLimitTests {
  let trace: RecordedTrace
  let endless: String

  init() async throws {
    self.trace = try await RecordedTrace()
    self.endless = self.trace.directory.path("endless.db")
    try FileManager.default.copyItem(atPath: self.trace.path, toPath: self.endless)
    var db: OpaquePointer?
    guard sqlite3_open(self.endless, &db) == SQLITE_OK else { throw Failed() }
    defer { sqlite3_close(db) }
    // The schema's view `timeline` becomes an endless, sorted series of copies of the first
    // action: no row is ever ready. (A trace's table made such a view is refused on opening:
    // `BadInputTests.aTableMadeAnEndlessView`.)
    let statements = """
      DROP VIEW timeline;
      CREATE VIEW timeline AS
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
        SELECT a.* FROM c JOIN actions a ON a.id = 1 ORDER BY c.x DESC;
      """
    guard sqlite3_exec(db, statements, nil, nil, nil) == SQLITE_OK else { throw Failed() }
  }

  struct Failed: Error {}

  @Test func aFileWhoseViewsNeverEndStopsAtTheTimeLimit() async throws {
    for command in [["sql", "SELECT * FROM timeline"], ["sql", "SELECT count(*) FROM timeline"]] {
      let start = ContinuousClock.now
      let result = try await Product.tcatrace.run(
        [command[0], self.endless] + command.dropFirst() + ["--time-limit", "0.5"],
        in: self.trace.directory.url
      )
      // NB: The program's own time, from its launch: on a busy machine, the wait for a thread
      // and a launch, which the suite's other programs share, took seconds more.
      #expect(
        result.duration < .seconds(20),
        "\(command): \(result.duration) from launch, \(ContinuousClock.now - start) in all")
      #expect(result.status == 2, "\(command)")
      #expect(result.stdout.isEmpty, "\(command)")
      #expect(
        result.stderr.hasPrefix(
          "Error: SQLite error 9: reading one row took longer than 0.5 s, so it was stopped: the file's tables or views do not end, as in a damaged or hostile file - while reading '\(self.endless)'"
        ),
        "\(command): \(result.stderr)"
      )
      #expect(
        // NB: `sql` adds what it says of every failed query.
        result.stderr.hasSuffix(
          ": if the file is only large, raise the limit with --time-limit SECONDS: check the query\n"
        ),
        "\(command)"
      )
      #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(command)")
    }
  }

  @Test func aQueryThatNeverEndsStopsAtTheTimeLimit() async throws {
    let result = try await self.trace.run([
      "sql", "FILE",
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c",
      "--time-limit", "0.5",
    ])
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix("Error: SQLite error 9: reading one row took longer than 0.5 s"))
  }

  @Test func withoutATimeLimitTheMemoryLimitStopsAnEndlessSort() async throws {
    // The view sorts an endless series: its temporary data, kept in memory and never in a
    // temp file, reaches the memory limit, which ends the command whatever the time limit.
    for arguments in [
      ["sql", self.endless, "SELECT * FROM timeline"],
      ["sql", self.endless, "SELECT count(*) FROM timeline"],
    ] {
      let start = ContinuousClock.now
      let result = try await Product.tcatrace.run(
        arguments + ["--time-limit", "0", "--memory-limit", "32"], in: self.trace.directory.url
      )
      // NB: It ends, rather than running for good: how soon is the machine's. Filling 32 MB
      // took 35 s once in a CI run on two busy cores; the suite's time limit is ten minutes.
      #expect(
        result.duration < .seconds(180),
        "\(arguments): \(result.duration) from launch, \(ContinuousClock.now - start) in all")
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout.isEmpty, "\(arguments)")
      #expect(
        result.stderr.hasPrefix("Error: SQLite error 7: out of memory"),
        "\(arguments): \(result.stderr)")
      #expect(
        result.stderr.contains(
          "reading needed more than the 32 MB of memory SQLite may use; if the file or query is only large, raise the limit with --memory-limit MB"
        ),
        "\(arguments): \(result.stderr)"
      )
      #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(arguments)")
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: self.trace.directory.url.path).sorted()
        == ["demo.db", "endless.db"])
  }

  @Test func theMemoryLimitIsANumberOfMegabytes() async throws {
    let result = try await self.trace.run(["sessions", "FILE", "--memory-limit", "8"])
    #expect(result.status == 2)
    expectNoDifference(
      result.stderr,
      "Error: --memory-limit is a number of megabytes, from 16 to 1073741824; see 'tcatrace sessions --help'.\n"
    )
    let small = try await self.trace.run(["sessions", "FILE", "--memory-limit", "16"])
    #expect(small.status == 0)
  }

  @Test func theLimitIsANumberOfSeconds() async throws {
    let result = try await self.trace.run(["sessions", "FILE", "--time-limit=-1"])
    #expect(result.status == 2)
    expectNoDifference(
      result.stderr,
      "Error: --time-limit is a number of seconds, 0 or more; see 'tcatrace sessions --help'.\n"
    )
    let unlimited = try await self.trace.run(["sessions", "FILE", "--time-limit", "0"])
    #expect(unlimited.status == 0)
  }
}

/// Issue #20, items 3 and 12: `sql` writes rows as it reads them, and a table does not pad
/// every row to one huge cell.
@Suite(.hangGuard)
struct SQLStreamingTests {
  let trace: RecordedTrace

  init() async throws {
    self.trace = try await RecordedTrace()
  }

  @Test func anEndlessResultStreamsToAReaderThatStops() async throws {
    let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"
    for (format, expected) in [("table", "x\n1\n2\n"), ("csv", "x\n1\n2\n")] {
      let result = try await Product.tcatrace.run(
        [
          "-c", #""$0" sql "$1" "$2" --format "$3" | head -n 3"#,
          Product.tcatrace.executableURL.path, self.trace.path, endless, format,
        ],
        executableURL: URL(fileURLWithPath: "/bin/sh")
      )
      #expect(result.status == 0, "\(format)")
      #expect(result.stdout == expected, "\(format)")
    }
    let json = try await Product.tcatrace.run(
      [
        "-c", #""$0" sql "$1" "$2" --format json | head -c 16"#,
        Product.tcatrace.executableURL.path, self.trace.path, endless,
      ],
      executableURL: URL(fileURLWithPath: "/bin/sh")
    )
    #expect(json.stdout == #"[{"x":1},{"x":2}"#)
  }

  @Test func aTableCutsAHugeCellAndCSVKeepsIt() async throws {
    let query = "SELECT printf('%.*c', 100000, 'x') AS big, 1 AS n UNION ALL SELECT 'y', 2"
    let table = try await self.trace.run(["sql", "FILE", query])
    #expect(table.status == 0)
    let lines = table.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { $0.count <= 210 })
    #expect(lines[1].hasPrefix(String(repeating: "x", count: 199) + "…  1"))
    let csv = try await self.trace.run(["sql", "FILE", query, "--format", "csv"])
    #expect(csv.stdout.contains(String(repeating: "x", count: 100_000) + ",1\n"))
  }
}
