import Foundation
import TCATrace

/// The programs scenario 4 compares the reader with: the `tcatrace` command, and the
/// `sqlite3` shell if it is installed.
public struct BenchTools: Sendable {
  public var tcatrace: String?
  public var sqlite3: String?

  public init(tcatrace: String?, sqlite3: String?) {
    self.tcatrace = tcatrace
    self.sqlite3 = sqlite3
  }

  /// `tcatrace` beside `executable` (the products directory), and `sqlite3` on `PATH`.
  public static func locate(besides executable: String) -> BenchTools {
    let fileManager = FileManager.default
    let products = URL(fileURLWithPath: executable).deletingLastPathComponent()
    let tcatrace = products.appendingPathComponent("tcatrace").path
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let sqlite3 = path.split(separator: ":")
      .map { URL(fileURLWithPath: String($0)).appendingPathComponent("sqlite3").path }
      .first { fileManager.isExecutableFile(atPath: $0) }
    return BenchTools(
      tcatrace: fileManager.isExecutableFile(atPath: tcatrace) ? tcatrace : nil, sqlite3: sqlite3
    )
  }
}

extension Scenarios {
  /// Scenario 4: reading a trace of `size.readerActions` actions, each with two state
  /// changes (one in a thousand with a leak): `TraceReader`, `tcatrace replay --format jsonl`
  /// and `tcatrace leaks`, each against the `sqlite3` shell running the same query into
  /// /dev/null.
  public static func readerThroughput(_ size: BenchmarkSize, tools: BenchTools) async throws
    -> ScenarioResult
  {
    let scratch = try Scratch()
    let path = scratch.path("reader.db")
    let writer = try TraceWriter(path: path)
    writer.submit(
      session: SessionRecord(
        name: "bench", rootFeature: "Bench", startedAt: "", recorderVersion: ""))
    for seq in 0..<size.readerActions {
      while !writer.submit(Self.readerRecord(seq)) { await Task.yield() }
    }
    await writer.close(endedAt: "")

    let count = Double(size.readerActions)
    let delegates = Double((0..<size.readerActions).count { Self.category(of: $0) == .delegate })
    var figures: [Figure] = []
    var ratios: [Ratio] = []
    // NB: Each pass reads a million actions; three passes give a stable median.
    let repetitions = min(size.repetitions, 3)
    func samples(_ body: () throws -> Void) rethrows -> [Double] {
      var seconds: [Double] = []
      for _ in 0..<repetitions {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      }
      return seconds
    }
    func rate(_ name: String, actions: Double, _ body: () throws -> Void) rethrows -> Figure {
      let figure = Figure(
        name: name, unit: "actions/s", samples: try samples(body).map { actions / $0 })
      figures.append(figure)
      return figure
    }
    func compare(_ ours: Figure, _ theirs: Figure?) {
      guard let theirs else { return }
      ratios.append(
        Ratio(
          name: "\(ours.name) / sqlite3", value: ours.median / theirs.median, target: .atLeast(0.5))
      )
    }
    func sqlite3(_ name: String, actions: Double, mode: String, _ sql: String) throws -> Figure? {
      guard let shell = tools.sqlite3 else { return nil }
      return try rate("sqlite3 \(name)", actions: actions) {
        try ChildProcess.run(shell, [mode, "-readonly", path, sql])
      }
    }

    // NB: A reader opens a file with no -wal beside it as immutable; so does the shell's
    // `-readonly`, close enough: neither takes locks that matter here.
    let all = try rate("TraceReader, every action", actions: count) {
      let reader = try TraceReader(path: path)
      var seen = 0
      try reader.forEachAction { _ in seen += 1 }
      guard seen == size.readerActions else {
        throw BenchError("read \(seen) of \(size.readerActions) actions")
      }
    }
    compare(
      all,
      try sqlite3(
        "SELECT, every action", actions: count, mode: "-list", Self.timelineSQL(where: nil)))

    let filtered = try rate("TraceReader, --category delegate", actions: delegates) {
      let reader = try TraceReader(path: path)
      var seen = 0
      try reader.forEachAction(matching: TraceFilter(categories: [.delegate])) { _ in seen += 1 }
      guard Double(seen) == delegates else {
        throw BenchError("read \(seen) of \(delegates) delegate actions")
      }
    }
    compare(
      filtered,
      try sqlite3(
        "SELECT, category = 'delegate'", actions: delegates, mode: "-list",
        Self.timelineSQL(where: "a.category IN ('delegate')")
      )
    )

    if let tcatrace = tools.tcatrace {
      let replay = try rate("tcatrace replay --format jsonl", actions: count) {
        try ChildProcess.run(tcatrace, ["replay", path, "--session", "all", "--format", "jsonl"])
      }
      let sqliteJSON = try sqlite3(
        "-json SELECT, every action", actions: count, mode: "-json", Self.timelineSQL(where: nil))
      compare(replay, sqliteJSON)

      // NB: Issue #45: an export writes every action, as `replay` does, against the same rows.
      for format in ["perfetto", "otlp"] {
        let export = try rate("tcatrace export --format \(format)", actions: count) {
          try ChildProcess.run(tcatrace, ["export", path, "--format", format])
        }
        compare(export, sqliteJSON)
      }

      // NB: Issue #58: every command has SQLite check what it reads; on a file this large the
      // check of the tables `replay` reads runs beside the reading, and what it may cost is the
      // wait for the first line. SQLite's check of a whole file is timed on its own, as a rate,
      // for the size up to which a command checks a file whole before it reads it.
      let firstLine = Figure(
        name: "tcatrace replay, first line", unit: "ms",
        samples: try (0..<size.launches).map { _ in
          try Self.firstLine(tcatrace, ["replay", path, "--session", "all"])
        }
      )
      figures.append(firstLine)
      let megabytes = Double(TraceFile.size(path)) / 1_048_576
      figures.append(
        Figure(
          name: "PRAGMA integrity_check, whole file (\(Int(megabytes)) MB)", unit: "MB/s",
          samples: try samples {
            let reader = try TraceReader(path: path)
            try reader.checkIntegrity()
          }.map { megabytes / $0 }
        )
      )

      // NB: `leaks` reads the leaks table, not every action: its time is mostly the
      // process's start-up, so it is compared in milliseconds, with each program's start-up
      // measured too. A launch takes milliseconds: the programs take turns, `size.launches`
      // rounds, so that a busy host weighs on each alike.
      var launches: [(name: String, executable: String, arguments: [String], status: Int32)] = [
        ("tcatrace leaks", tcatrace, ["leaks", path, "--session", "all"], 1),
        ("tcatrace --version (start-up)", tcatrace, ["--version"], 0),
      ]
      if let shell = tools.sqlite3 {
        launches += [
          (
            "sqlite3 leak summary SELECT", shell,
            ["-list", "-readonly", path, Self.leakSummarySQL], 0
          ),
          ("sqlite3 SELECT 1 (start-up)", shell, ["-list", "-readonly", path, "SELECT 1;"], 0),
        ]
      }
      var milliseconds = Array(repeating: [Double](), count: launches.count)
      for _ in 0..<size.launches {
        for (index, launch) in launches.enumerated() {
          let start = DispatchTime.now().uptimeNanoseconds
          try ChildProcess.run(launch.executable, launch.arguments, expecting: launch.status)
          milliseconds[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
      }
      let timed = zip(launches, milliseconds).map { Figure(name: $0.name, unit: "ms", samples: $1) }
      figures += timed
      if tools.sqlite3 != nil {
        let (leaks, start, theirs, theirStart) = (timed[0], timed[1], timed[2], timed[3])
        ratios.append(
          Ratio(
            name: "tcatrace leaks / sqlite3 (rate)", value: theirs.median / leaks.median,
            target: .atLeast(0.5)))
        ratios.append(
          Ratio(
            name: "tcatrace leaks / sqlite3, start-up excluded",
            value: max(theirs.median - theirStart.median, 0)
              / max(leaks.median - start.median, 1e-3)
          )
        )
      }
    }
    return ScenarioResult(name: "reader throughput", figures: figures, ratios: ratios)
  }

  /// What `TraceReader.forEachAction` reads, as one query: each action, its changes and its
  /// leaks.
  static func timelineSQL(where condition: String?) -> String {
    """
    SELECT a.id, a.session_id, a.seq, a.time_ns, a.duration_ns, a.origin, a.cause_seq, a.path,
      a.root_category, a.feature, a.category, a.case_name, a.state_path, a.payload, a.payload_json,
      c.path, c.kind, c.old_value, c.new_value, l.rule, l.feature, l.detail
    FROM actions a
    LEFT JOIN state_changes c ON c.action_id = a.id
    LEFT JOIN leaks l ON l.action_id = a.id
    \(condition.map { "WHERE " + $0 } ?? "")
    ORDER BY a.id, c.position, l.rowid;
    """
  }

  /// What `tcatrace leaks` asks: the leaks grouped by session, rule and feature.
  static let leakSummarySQL = """
    SELECT a.session_id, l.rule, l.feature, count(*), min(a.seq),
      (SELECT l2.detail FROM leaks l2 JOIN actions a2 ON a2.id = l2.action_id
       WHERE a2.session_id = a.session_id AND l2.rule = l.rule AND l2.feature = l.feature
       ORDER BY a2.seq, l2.rowid LIMIT 1)
    FROM leaks l JOIN actions a ON a.id = l.action_id
    GROUP BY a.session_id, l.rule, l.feature
    ORDER BY a.session_id, min(a.seq), l.rule;
    """

  static func category(of seq: Int) -> ActionCategory {
    switch seq % 10 {
    case 0..<6: .view
    case 6..<9: .internal
    default: .delegate
    }
  }

  /// An action of the reader's trace: categories mixed as in an app, two changes, and a
  /// leak in one action of a thousand.
  static func readerRecord(_ seq: Int) -> ActionRecord {
    var record = Self.record(seq)
    let category = Self.category(of: seq)
    record.classification.category = category
    record.classification.caseName =
      ["toggleCompleted", "rowLoaded", "didFinish"][
        category == .view ? 0 : category == .internal ? 1 : 2]
    if seq % 1_000 == 999 {
      record.leaks = [
        Leak(
          rule: .parentReactsToPrivateChildAction, feature: "todos",
          detail: "todos handled rows[id: \(seq % 100)].view")
      ]
    }
    return record
  }

  /// Milliseconds from starting `executable` until its first line of output, after which it
  /// is stopped.
  static func firstLine(_ executable: String, _ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let start = DispatchTime.now().uptimeNanoseconds
    try process.run()
    let reading = output.fileHandleForReading
    while true {
      let data = reading.availableData
      guard !data.isEmpty else {
        throw BenchError("\(executable) \(arguments.joined(separator: " ")) printed no line")
      }
      if data.contains(UInt8(ascii: "\n")) { break }
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    process.terminate()
    try? reading.close()
    process.waitUntilExit()
    return elapsed
  }
}
