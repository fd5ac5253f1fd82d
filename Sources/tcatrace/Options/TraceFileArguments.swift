import ArgumentParser
import TCATraceFile

/// The trace file every reading command takes first.
struct TraceFileArguments: ParsableArguments {
  @Argument(help: "The trace file (a SQLite file written by a TraceRecorder).")
  var file: String

  @Option(
    name: .customLong("time-limit"),
    help: ArgumentHelp(
      "Stop with an error when reading one row takes longer than this many seconds (0: no limit).",
      discussion: "A file whose tables or views never end cannot hang the command.",
      valueName: "seconds"
    )
  )
  var timeLimit: Double = 10

  @Option(
    name: .customLong("memory-limit"),
    help: ArgumentHelp(
      "Stop with an error when SQLite needs more than this many megabytes of memory to read.",
      discussion:
        "Its temporary data (sorts, views) is kept in memory, never in temp files, so a file or query whose temporary data never stops growing cannot fill the disk.",
      valueName: "MB"
    )
  )
  var memoryLimit: Int = 1024

  func validate() throws {
    guard self.timeLimit >= 0, self.timeLimit.isFinite else {
      throw ValidationError("--time-limit is a number of seconds, 0 or more")
    }
    guard self.memoryLimit >= 16, self.memoryLimit <= 1 << 30 else {
      throw ValidationError("--memory-limit is a number of megabytes, from 16 to \(1 << 30)")
    }
  }

  /// Opens the file read-only.
  func open() throws(TraceFileError) -> TraceReader {
    SQLiteConnection.limitMemory(toBytes: Int64(self.memoryLimit) * 1_048_576)
    let reader = try TraceReader(path: self.file)
    try reader.keepTemporaryDataInMemory()
    if self.timeLimit > 0 {
      reader.rowTimeLimit = .nanoseconds(Int64(min(self.timeLimit * 1e9, Double(Int64.max))))
    }
    return reader
  }

  /// Opens the file, checks it, and runs `body` with it.
  ///
  /// SQLite's `integrity_check` (see `IntegrityCheck`) checks a file of up to
  /// ``checkedWholeUpTo`` bytes whole, before `body` runs: a damaged file ends the command with
  /// that error, whatever table the damage is in, and nothing of it is printed. Checking a
  /// larger file whole would cost a command that reads a little of it (`leaks`, `sessions`)
  /// seconds: there the check covers `tables`, what `body` reads, with their indexes (the whole
  /// file when `tables` is `nil`), so that what is printed comes from pages SQLite has checked.
  ///
  /// - Parameters:
  ///   - tables: The tables `body` reads; `nil`: any of them.
  ///   - alongside: For a large file, whether the check runs on a thread and a connection of
  ///     its own while `body` reads (for tables read whole, which take as long to check as to
  ///     read: the check does not hold up the first line, and the command ends with its error
  ///     after), or with the reading connection after `body` (for small tables, which take less
  ///     time to check than a second connection takes to open).
  ///
  /// When the file was written while `body` read it (a recorder began appending), what was
  /// printed may be torn, and the command ends with that error instead. Both win over an
  /// error of `body`'s, which the change or the damage may explain.
  func read<Result>(
    checking tables: [String]? = nil, alongside: Bool = true, _ body: (TraceReader) throws -> Result
  ) throws -> Result {
    let reader = try self.openChecked(tables, alongside: alongside)
    do {
      let result = try body(reader)
      try reader.verifyRead()
      return result
    } catch {
      try reader.verifyRead()
      throw error
    }
  }

  /// ``read(checking:alongside:_:)`` for a body that waits.
  func read<Result>(
    checking tables: [String]? = nil, alongside: Bool = true,
    _ body: (TraceReader) async throws -> Result
  ) async throws -> Result {
    let reader = try self.openChecked(tables, alongside: alongside)
    do {
      let result = try await body(reader)
      try reader.verifyRead()
      return result
    } catch {
      try reader.verifyRead()
      throw error
    }
  }

  /// The size up to which a file (with its `-wal`) is checked whole before it is read.
  ///
  /// NB: `integrity_check` reads a trace at 80 to 170 MB a second here (Performance.md): up to
  /// this size a command waits about a fifth of a second for it at most.
  static let checkedWholeUpTo = 32 << 20

  /// Opens the file and checks it, or starts checking it; see ``read(checking:alongside:_:)``.
  func openChecked(_ tables: [String]?, alongside: Bool = true) throws(TraceFileError)
    -> TraceReader
  {
    let reader = try self.open()
    if TraceFile.size(self.file) <= Self.checkedWholeUpTo {
      try reader.checkIntegrity()
    } else if let tables, !alongside {
      reader.tablesCheckedAfterReading = tables
    } else {
      reader.integrityCheck = IntegrityCheck(path: self.file, tables: tables)
    }
    return reader
  }
}

/// Which sessions a command reads: `--session 3`, `--session latest`, or all of them.
enum SessionSelector: ExpressibleByArgument, Equatable {
  case all
  case latest
  case id(Int64)

  init?(argument: String) {
    switch argument {
    case "latest": self = .latest
    case "all": self = .all
    default:
      guard let id = Int64(argument), id > 0 else { return nil }
      self = .id(id)
    }
  }

  static var defaultCompletionKind: CompletionKind { .default }

  /// The session's id; `0` for `all` and `latest`.
  var id: Int64 {
    if case let .id(id) = self { return id }
    return 0
  }

  // NB: Spelled out: argument-parser's default, `"\(self)"`, asks the runtime whether the type
  // conforms to four protocols of printing, each a scan of every conformance in the binary.
  var defaultValueDescription: String {
    switch self {
    case .all: "all"
    case .latest: "latest"
    case let .id(id): String(id)
    }
  }

  /// The session id to filter by, or `nil` for all; checks that the session exists.
  func resolve(in reader: TraceReader) throws(TraceFileError) -> Int64? {
    switch self {
    case .all: nil
    case .latest: try reader.latestSession().id
    case let .id(id): try reader.session(id: id).id
    }
  }
}

/// `--session`, shared by the commands that read actions.
struct SessionOptions: ParsableArguments {
  // NB: `.unconditional`: `--session -1` is a wrong id, not a missing one.
  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "The session to read: its id, 'latest', or 'all'.",
      discussion: "'tcatrace sessions FILE' lists the ids.",
      valueName: "id|latest|all"
    )
  )
  var session: SessionSelector = .all
}

/// The formats of commands whose output is data.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
  /// Aligned, readable text; coloured on a terminal.
  case text
  /// One JSON document.
  case json
  /// One JSON object per line.
  case jsonl
}

/// `--session id|latest`, for a command that reads one session.
struct OneSessionArguments: ParsableArguments {
  // NB: `.unconditional`: `--session -1` is a wrong id, not a missing one.
  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp("The session: its id or 'latest'.", valueName: "id|latest")
  )
  var session: SessionSelector = .latest

  func validate() throws {
    if self.session == .all {
      throw ValidationError("--session takes one session: its id, or 'latest'")
    }
  }

  /// The session's id; `nil` for the latest.
  var id: Int64? {
    self.session == .latest ? nil : self.session.id
  }

  /// The session, with its summary (`TraceReader.session(id:)`, a pass over its actions).
  func session(in reader: TraceReader) throws(TraceFileError) -> TraceSession {
    guard let id = self.id else { return try reader.latestSession() }
    return try reader.session(id: id)
  }
}
