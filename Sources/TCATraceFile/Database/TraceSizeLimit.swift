/// A trace file kept within a number of bytes, its `-wal` included: what a recorder left on in
/// every QA build writes to (`TraceRecorder(path:sizeLimit:)`).
///
/// The limit is shared: a quarter for the WAL, three quarters for the file. After a batch of
/// rows is written, in the same transaction, ``keepWithin(_:session:path:)`` removes the oldest
/// sessions, then the oldest actions of `session` (``TraceRowWriter/trim(session:keepingFrom:path:)``,
/// which keeps the state before those left), until the rows fill about ``lowWater``, whenever
/// the file's pages are more than ``highWater``; then it frees the pages no row fills
/// (`PRAGMA incremental_vacuum`), and the file shrinks at the next checkpoint. After the
/// transaction, ``checkpointIfNeeded(_:path:)`` folds a WAL grown past its share into the file
/// and truncates it. The file, with its WAL, is then within the limit after every checkpoint
/// the writer makes, but where the rows of the session's last action and its kept state alone
/// fill more than the file's share; a reader that holds the file open (`tcatrace serve`
/// following it) can keep a checkpoint from finishing, and the WAL grows until it lets go.
package struct TraceSizeLimit: Sendable, Equatable {
  /// The fewest bytes a limit may be: a limit below it is raised to it. A trace with no rows
  /// fills 68 KiB (seventeen pages of 4 KiB: the schema, with its comments, a page for each
  /// table and index, and the map incremental vacuum keeps); a quarter of the limit is the
  /// WAL's, and a cut stops at three fifths of the rest.
  package static let minimum = 256 * 1024

  /// The bytes the file and its WAL stay within.
  package let bytes: Int

  package init(bytes: Int) {
    self.bytes = max(bytes, Self.minimum)
  }

  /// The WAL's share: after a checkpoint, the WAL is at most this long.
  package var walBytes: Int { self.bytes / 4 }
  /// The file's share.
  package var fileBytes: Int { self.bytes - self.walBytes }
  /// Rows filling more than this are cut down to ``lowWater``: nine tenths of the file's share,
  /// leaving room for the pages a transaction's work allocates before it ends.
  package var highWater: Int { self.fileBytes / 10 * 9 }
  /// Where a cut stops: three fifths of the file's share, so that a file at its limit is cut
  /// once for many batches, not at each.
  package var lowWater: Int { self.fileBytes / 5 * 3 }

  /// Readies the trace `connection` opened for appending (``TraceFile/prepareForAppending(_:)``)
  /// for the limit: the WAL's share as its size after a checkpoint, and incremental auto-vacuum,
  /// which gives freed pages back to the file system. A file made without it (a file not
  /// made by a recorder with a limit) is vacuumed once, whole, to turn it on, after its oldest
  /// sessions are removed down to ``lowWater``: the copy a vacuum writes to the WAL is then
  /// no bigger than that.
  package func prepare(_ connection: SQLiteConnection) throws(TraceFileError) {
    try connection.execute("PRAGMA journal_size_limit = \(self.walBytes)")
    if try connection.integer("PRAGMA auto_vacuum") != Self.incremental {
      try connection.transaction(.takingTheWriteLock) { () throws(TraceFileError) in
        let rows = try TraceRowWriter(connection: connection)
        _ = try self.removeOldestSessions(rows, keeping: nil)
      }
      try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
      try connection.execute("VACUUM")
      try connection.checkpointTruncatingWAL()
    }
  }

  /// Removes the oldest sessions but `kept` while the rows fill more than ``lowWater``; returns
  /// the bytes they fill then.
  private func removeOldestSessions(
    _ rows: TraceRowWriter, keeping kept: Int64?
  ) throws(TraceFileError) -> Int {
    let connection = rows.connection
    var used = try Self.usedBytes(connection)
    let oldest = try connection.prepare("SELECT min(id) FROM sessions WHERE id IS NOT ?1")
    while used > self.lowWater {
      oldest.bind([kept.map { .integer($0) } ?? .null])
      guard try oldest.step(), let id = try oldest.optionalInteger(0) else { break }
      oldest.reset()
      try rows.deleteSession(id)
      used = try Self.usedBytes(connection)
    }
    oldest.reset()
    return used
  }

  /// The bytes of the file's pages, free ones included: its size once checkpointed.
  package static func fileBytes(_ connection: SQLiteConnection) throws(TraceFileError) -> Int {
    let pageSize = try connection.integer("PRAGMA page_size") ?? 4096
    let pages = try connection.integer("PRAGMA page_count") ?? 0
    return Int(clamping: pages * pageSize)
  }

  /// `PRAGMA auto_vacuum`'s value for `INCREMENTAL`.
  package static let incremental: Int64 = 2

  /// The bytes the file's rows fill: its pages but the free ones.
  package static func usedBytes(_ connection: SQLiteConnection) throws(TraceFileError) -> Int {
    let pageSize = try connection.integer("PRAGMA page_size") ?? 4096
    let pages = try connection.integer("PRAGMA page_count") ?? 0
    let free = try connection.integer("PRAGMA freelist_count") ?? 0
    return Int(clamping: (pages - free) * pageSize)
  }

  /// Removes the oldest rows when the file's pages are more than ``highWater``, until they fill
  /// about ``lowWater``: the sessions but `session`, oldest first, then the oldest actions of
  /// `session`, the one being recorded, whose last action is always kept. Runs inside the
  /// writer's transaction.
  ///
  /// - Parameter path: The trace, for the errors of the reads a trim makes.
  /// - Returns: The actions of `session` removed.
  @discardableResult
  package func keepWithin(
    _ rows: TraceRowWriter, session: Int64, path: String
  ) throws(TraceFileError) -> Int {
    let connection = rows.connection
    // NB: The file's pages, free ones included: pages freed without a cut (a kept state
    // replaced, a tree rebalanced) are given back too.
    guard try Self.fileBytes(connection) > self.highWater else { return 0 }
    var used = try self.removeOldestSessions(rows, keeping: session)
    var removed = 0
    // NB: A few cuts at the most: each one estimates the actions to remove from the bytes an
    // action of the session fills on average; the session's kept state, which a cut adds,
    // is among them.
    let extent = try connection.prepare(
      "SELECT min(seq), count(*) FROM actions WHERE session_id = ?1")
    for _ in 0..<4 where used > self.lowWater {
      extent.bind([.integer(session)])
      guard try extent.step(), let first = try extent.optionalInteger(0) else {
        extent.reset()
        break
      }
      let count = Int(clamping: try extent.integer(1))
      extent.reset()
      guard count > 1 else { break }
      let perAction = max(1, used / count)
      let excess = (used - self.lowWater + perAction - 1) / perAction
      let cut = Int(clamping: first) + min(count - 1, max(1, excess))
      let trimmed = try rows.trim(session: session, keepingFrom: cut, path: path)
      guard trimmed > 0 else { break }
      removed += trimmed
      used = try Self.usedBytes(connection)
    }
    try connection.execute("PRAGMA incremental_vacuum")
    return removed
  }

  /// Folds the WAL into the file and truncates it, when it has grown past its share: after the
  /// writer's transaction. A reader in the file can keep the checkpoint from finishing; the
  /// writer does not wait for it (the records behind would wait too), and the next batch's
  /// checkpoint tries again.
  package func checkpointIfNeeded(_ connection: SQLiteConnection, path: String) {
    guard (FileStatus(path + "-wal").map { Int(clamping: $0.size) } ?? 0) > self.walBytes else {
      return
    }
    connection.setBusyTimeout(milliseconds: 0)
    try? connection.checkpointTruncatingWAL()
    connection.setBusyTimeout(milliseconds: SQLiteConnection.busyTimeout)
  }
}
