import CSQLite
import Foundation
import TCATraceFile
import TestSupport
import Testing

/// Issue #20, the fuzz target: mutated copies of a recorded trace (bytes flipped, the file cut,
/// values of every type written where the trace holds others) read by every command. None may
/// crash, run past its time limit, exit with anything but 0, 1 or 2, say more than one line
/// when it fails, or create or change anything beside the file.
///
/// The mutations come from fixed seeds (`FuzzTests.seeds`), so a failure is reproduced by
/// running the test again; a new finding's seed can be added to the list.
@Suite(.hangGuard)
struct FuzzTests {
  /// The corpus: seeds of the mutations run in CI, each a few bytes, kept here. Run more with
  /// `TCATRACE_FUZZ_SEEDS=1000 swift test --filter FuzzTests` (seeds 1 to 1000).
  static let seeds: [UInt64] =
    ProcessInfo.processInfo.environment["TCATRACE_FUZZ_SEEDS"].flatMap { UInt64($0) }
    .map { Array(1...max(1, $0)) } ?? Array(1...40)

  static let commands: [[String]] = [
    ["sessions"], ["sessions", "--format", "json"], ["replay"], ["replay", "--format", "jsonl"],
    ["leaks"], ["stats"], ["sql", "SELECT * FROM timeline LIMIT 20"],
    ["sql", "SELECT * FROM leak_report", "--format", "json"],
  ]

  @Test(arguments: FuzzTests.seeds)
  func aMutatedTraceIsHarmless(seed: UInt64) async throws {
    let trace = try await RecordedTrace()
    var random = SplitMix64(seed: seed)
    let name = "mutated.db"
    let path = trace.directory.path(name)
    try FileManager.default.copyItem(atPath: trace.path, toPath: path)
    let mutation = try Self.mutate(path, &random)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let filesBefore = try FileManager.default.contentsOfDirectory(atPath: trace.directory.url.path)
      .sorted()
    let damagedTables = Self.damagedTables(path)
    for command in Self.commands {
      let start = ContinuousClock.now
      let result = try await Product.tcatrace.run(
        [command[0], name] + command.dropFirst() + ["--time-limit", "2"], in: trace.directory.url
      )
      let context = "seed \(seed) (\(mutation)), \(command)"
      #expect(
        !result.wasSignalled, "\(context): signal \(result.status)\n\(result.stderr.prefix(500))")
      #expect([0, 1, 2].contains(result.status), "\(context): exit \(result.status)")
      // NB: The program's own time, from its launch: on a busy machine (load 13-17 on two
      // cores) the wait for a launch, which the suite's programs take one at a time, and a
      // thread took seconds more. A program that never ends is killed by `run`, and signalled.
      #expect(
        result.duration < .seconds(30),
        "\(context): \(result.duration) from launch, \(ContinuousClock.now - start) in all")
      // No partial output with exit 0: a file whose tables SQLite finds damaged is not read
      // as if it were whole.
      if command == ["replay"], let damagedTables, !damagedTables.isEmpty {
        #expect(result.status == 2, "\(context): \(damagedTables) damaged, exit \(result.status)")
      }
      if result.status == 2 {
        #expect(result.stderr.hasPrefix("Error: "), "\(context): \(result.stderr.prefix(300))")
        #expect(
          result.stderr.filter { $0 == "\n" }.count == 1, "\(context): \(result.stderr.prefix(300))"
        )
      }
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(context): the file changed"
      )
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: trace.directory.url.path).sorted()
          == filesBefore,
        "\(context): files appeared beside the trace"
      )
    }
  }

  /// The tables of the trace at `path` that `PRAGMA quick_check` finds damaged; `nil` when it
  /// cannot be asked.
  static func damagedTables(_ path: String) -> [String]? {
    guard let reader = try? TraceReader(path: path) else { return nil }
    var damaged: [String] = []
    for table in ["sessions", "actions", "state_changes", "leaks"] {
      guard let rows = try? reader.query("PRAGMA quick_check(\(table))").rows else { return nil }
      if rows != [[.text("ok")]] { damaged.append(table) }
    }
    return damaged
  }

  /// Mutates the trace at `path` one of three ways; returns what it did.
  static func mutate(_ path: String, _ random: inout SplitMix64) throws -> String {
    let url = URL(fileURLWithPath: path)
    var bytes = [UInt8](try Data(contentsOf: url))
    switch random.next() % 3 {
    case 0:
      let count = 1 + Int(random.next() % 8)
      for _ in 0..<count {
        let index = Int(random.next() % UInt64(bytes.count))
        bytes[index] ^= UInt8(truncatingIfNeeded: 1 + random.next() % 255)
      }
      try Data(bytes).write(to: url)
      return "\(count) bytes flipped"
    case 1:
      let length = Int(random.next() % UInt64(bytes.count))
      try Data(bytes.prefix(length)).write(to: url)
      return "cut at \(length) of \(bytes.count) bytes"
    default:
      let columns = [
        ("actions", "seq"), ("actions", "time_ns"), ("actions", "duration_ns"),
        ("actions", "cause_seq"),
        ("actions", "origin"), ("actions", "category"), ("actions", "feature"),
        ("actions", "payload"),
        ("actions", "session_id"), ("sessions", "name"), ("sessions", "started_at"),
        ("sessions", "dropped_actions"), ("sessions", "backlog_fallbacks"),
        ("state_changes", "kind"),
        ("state_changes", "new_value"),
        ("state_changes", "action_id"), ("leaks", "rule"), ("leaks", "action_id"),
        ("leaks", "detail"),
      ]
      let values = [
        "NULL", "'text'", "1.5", "x'00ff'", "9223372036854775807", "-9223372036854775808", "0",
        "-1",
        "char(27) || '[2J'", "'a' || char(0) || 'b'", "''", "printf('%.*c', 5000, 'x')",
      ]
      let (table, column) = columns[Int(random.next() % UInt64(columns.count))]
      let value = values[Int(random.next() % UInt64(values.count))]
      let sql = "UPDATE \(table) SET \(column) = \(value) WHERE rowid % 3 = \(random.next() % 3)"
      var db: OpaquePointer?
      guard sqlite3_open(path, &db) == SQLITE_OK else { throw Failed() }
      defer { sqlite3_close(db) }
      // NB: A constraint may refuse the value: the file is then unchanged, which is fine.
      sqlite3_exec(db, "PRAGMA ignore_check_constraints = ON; \(sql)", nil, nil, nil)
      return sql
    }
  }

  struct Failed: Error {}
}

/// A small, seedable generator (SplitMix64), so that each mutation is reproduced by its seed.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) {
    self.state = seed
  }

  mutating func next() -> UInt64 {
    self.state &+= 0x9E37_79B9_7F4A_7C15
    var z = self.state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
