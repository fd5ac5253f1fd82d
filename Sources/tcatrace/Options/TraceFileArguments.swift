import ArgumentParser
import TCATraceFile
import TraceFormats

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

  /// How the commands open the file: see `TraceFileAccess`.
  var access: TraceFileAccess {
    TraceFileAccess(file: self.file, timeLimit: self.timeLimit, memoryLimit: self.memoryLimit)
  }

  func open() throws(TraceFileError) -> TraceReader {
    try self.access.open()
  }

  func read<Result>(
    checking tables: [String]? = nil, alongside: Bool = true, _ body: (TraceReader) throws -> Result
  ) throws -> Result {
    try self.access.read(checking: tables, alongside: alongside, body)
  }

  func read<Result>(
    checking tables: [String]? = nil, alongside: Bool = true,
    _ body: (TraceReader) async throws -> Result
  ) async throws -> Result {
    try await self.access.read(checking: tables, alongside: alongside, body)
  }

  func openChecked(_ tables: [String]?, alongside: Bool = true) throws(TraceFileError)
    -> TraceReader
  {
    try self.access.openChecked(tables, alongside: alongside)
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
