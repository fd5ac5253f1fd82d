extension TraceReader {
  /// Opens the trace at `path`, checks it, reads it with `body`, and then checks that what
  /// `body` read is the file as it was: the way to read a file that a recorder may begin
  /// writing, or that may be damaged, checked as `tcatrace` checks one. (The commands also
  /// limit the time a row may take and the memory SQLite may use: set ``rowTimeLimit`` in
  /// `body` for the first.)
  ///
  /// ```swift
  /// let sessions = try TraceReader.read(path: "session.db") { try $0.sessions() }
  /// ```
  ///
  /// SQLite's `integrity_check` checks a file of up to 32 MB whole before `body` runs (a
  /// fifth of a second at most); a larger one is checked whole on a thread and a connection of
  /// its own while `body` reads, and the read waits for that check to end. After `body`, a file
  /// a recorder began writing meanwhile throws `.changedWhileReading` (what was read may be
  /// torn: read it again), and damage the check found throws `.corrupt`. Both win over an
  /// error of `body`'s, which they may explain.
  ///
  /// - Throws: `TraceFileError` as ``init(path:live:)`` does, of kind `.corrupt` or
  ///   `.changedWhileReading` as above, or what `body` throws.
  public static func read<Result>(
    path: String, _ body: (TraceReader) throws -> Result
  ) throws -> Result {
    let reader = try TraceReader(path: path)
    try reader.startChecking()
    return try reader.finishReading(body)
  }

  /// ``read(path:_:)`` for a body that waits.
  public static func read<Result>(
    path: String, _ body: (TraceReader) async throws -> Result
  ) async throws -> Result {
    let reader = try TraceReader(path: path)
    try reader.startChecking()
    return try await reader.finishReading(body)
  }

  /// The size up to which a file (with its `-wal`) is checked whole before it is read.
  ///
  /// NB: `integrity_check` reads a trace at 80 to 170 MB a second here (Performance.md): up to
  /// this size a read waits about a fifth of a second for it at most.
  package static let checkedWholeUpTo = 32 << 20

  /// Checks the file whole now when it is at most ``checkedWholeUpTo``; else checks `tables`
  /// (the whole file when `nil`): on a thread and a connection of its own while the file is
  /// read when `alongside`, or with the reading connection once reading ends (for small
  /// tables, which take less time to check than a second connection takes to open). What the
  /// later checks find, ``verifyRead()`` throws.
  ///
  /// - Throws: `TraceFileError` of kind `.corrupt` when the file, checked now, is damaged.
  package func startChecking(
    tables: [String]? = nil, alongside: Bool = true
  ) throws(TraceFileError) {
    if TraceFile.size(self.path) <= Self.checkedWholeUpTo {
      do {
        try self.checkIntegrity()
      } catch {
        // NB: A recorder that began writing the file as it was checked is no damage.
        try self.checkUnchanged()
        throw error
      }
    } else if let tables, !alongside {
      self.tablesCheckedAfterReading = tables
    } else {
      self.integrityCheck = IntegrityCheck(path: self.path, tables: tables)
    }
  }

  /// Runs `body` with this reader, then throws what ``verifyRead()`` finds, which wins over an
  /// error of `body`'s.
  package func finishReading<Result>(_ body: (TraceReader) throws -> Result) throws -> Result {
    let result: Result
    do {
      result = try body(self)
    } catch {
      try self.verifyRead()
      throw error
    }
    try self.verifyRead()
    return result
  }

  /// ``finishReading(_:)`` for a body that waits.
  package func finishReading<Result>(
    _ body: (TraceReader) async throws -> Result
  ) async throws -> Result {
    let result: Result
    do {
      result = try await body(self)
    } catch {
      try self.verifyRead()
      throw error
    }
    try self.verifyRead()
    return result
  }
}
