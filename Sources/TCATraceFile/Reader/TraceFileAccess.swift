/// How the programs open a trace: read-only, within a time limit for a row and a memory limit,
/// checked for damage before (or while) it is read.
package struct TraceFileAccess: Sendable {
  package var file: String
  /// Seconds one row may take to read; 0: no limit.
  package var timeLimit: Double
  /// Megabytes SQLite may use to read.
  package var memoryLimit: Int

  /// The commands' `--time-limit` when none is given.
  package static let defaultTimeLimit: Double = 10

  package init(file: String, timeLimit: Double = Self.defaultTimeLimit, memoryLimit: Int = 1024) {
    self.file = file
    self.timeLimit = timeLimit
    self.memoryLimit = memoryLimit
  }

  /// Opens the file read-only.
  package func open() throws(TraceFileError) -> TraceReader {
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
  /// `TraceReader.checkedWholeUpTo` bytes whole, before `body` runs: a damaged file ends the
  /// command with that error, whatever table the damage is in, and nothing of it is printed.
  /// Checking a larger file whole would cost a command that reads a little of it (`leaks`,
  /// `sessions`) seconds: there the check covers `tables`, what `body` reads, with their indexes
  /// (the whole file when `tables` is `nil`), so that what is printed comes from pages SQLite
  /// has checked.
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
  /// error of `body`'s, which the change or the damage may explain. It is
  /// `TraceReader.read(path:_:)`, within the commands' limits.
  package func read<Result>(
    checking tables: [String]? = nil, alongside: Bool = true, _ body: (TraceReader) throws -> Result
  ) throws -> Result {
    try self.openChecked(tables, alongside: alongside).finishReading(body)
  }

  /// ``read(checking:alongside:_:)`` for a file its caller has checked (`tcatrace serve` checks
  /// each version of a file once): what was read while the file was written is still refused.
  package func readChecked<Result>(_ body: (TraceReader) throws -> Result) throws -> Result {
    try self.open().finishReading(body)
  }

  /// ``read(checking:alongside:_:)`` for a body that waits.
  package func read<Result>(
    checking tables: [String]? = nil, alongside: Bool = true,
    _ body: (TraceReader) async throws -> Result
  ) async throws -> Result {
    try await self.openChecked(tables, alongside: alongside).finishReading(body)
  }

  /// Opens the file and checks it, or starts checking it; see ``read(checking:alongside:_:)``.
  package func openChecked(_ tables: [String]?, alongside: Bool = true) throws(TraceFileError)
    -> TraceReader
  {
    let reader = try self.open()
    try reader.startChecking(tables: tables, alongside: alongside)
    return reader
  }
}
