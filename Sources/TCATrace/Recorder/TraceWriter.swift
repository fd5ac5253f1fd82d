import Foundation

/// Writes records to a trace file on a thread of its own, in batched transactions, so that the
/// store never waits on the disk.
///
/// NB: The buffer between the store and the writer is bounded. When it is full, records are
/// dropped and counted rather than making the store wait: a trace with a gap is better than an
/// app that stutters. The count is written to the session when the recorder closes.
package final class TraceWriter: @unchecked Sendable {
  // NB: `@unchecked`: every mutable property is guarded by `condition`; the connection is only
  // touched by the writer thread once the thread has started.
  package enum Message {
    case session(SessionRecord)
    case action(ActionRecord)
  }

  /// A writer appending to the trace at `path`, creating it if needed.
  package convenience init(path: String) throws(TraceFileError) {
    self.init(connection: try TraceFile.openForWriting(path: path))
  }

  /// Records written per transaction, at the most.
  package static let batchSize = 512
  /// How long a record may wait for its batch to fill, in seconds.
  static let maxDelay = 0.05

  private let condition = NSCondition()
  private var pending: [Message] = []
  private var isClosing = false
  private var flushRequests = 0
  private var flushedGeneration = 0
  private var failure: TraceFileError?
  private var dropped = 0
  private var finishContinuations: [CheckedContinuation<Void, Never>] = []
  private var isFinished = false
  let capacity: Int

  private var connection: SQLiteConnection?
  private var statements: Statements?
  private var sessionID: Int64?

  init(connection: SQLiteConnection, capacity: Int = 65_536) {
    self.connection = connection
    self.capacity = capacity
    let thread = Thread { [self] in self.run() }
    thread.name = "TCATrace writer"
    thread.start()
  }

  /// Hands `message` to the writer. Returns `false` when it was dropped: the buffer is full,
  /// or the file has failed.
  @discardableResult
  package func submit(_ message: Message) -> Bool {
    self.condition.lock()
    defer { self.condition.unlock() }
    guard self.failure == nil, !self.isClosing else {
      if case .action = message { self.dropped += 1 }
      return false
    }
    guard self.pending.count < self.capacity else {
      self.dropped += 1
      return false
    }
    self.pending.append(message)
    if self.pending.count == 1 || self.pending.count >= Self.batchSize {
      self.condition.signal()
    }
    return true
  }

  /// The error that stopped the writer, if any.
  var error: TraceFileError? {
    self.condition.lock()
    defer { self.condition.unlock() }
    return self.failure
  }

  /// Records dropped so far.
  package var droppedCount: Int {
    self.condition.lock()
    defer { self.condition.unlock() }
    return self.dropped
  }

  /// Blocks until everything submitted before this call is written.
  func flush() {
    self.condition.lock()
    self.flushRequests += 1
    let generation = self.flushRequests
    self.condition.broadcast()
    while self.flushedGeneration < generation, !self.isFinished {
      self.condition.wait()
    }
    self.condition.unlock()
  }

  /// Writes what is pending, ends the session, closes the file, and stops the thread.
  package func close(endedAt: String) async {
    await withCheckedContinuation { continuation in
      self.condition.lock()
      if self.isFinished {
        self.condition.unlock()
        continuation.resume()
        return
      }
      self.finishContinuations.append(continuation)
      self.endedAt = endedAt
      self.isClosing = true
      self.condition.broadcast()
      self.condition.unlock()
    }
  }

  /// Asks the thread to stop without waiting; for a recorder that was never closed.
  func requestClose(endedAt: String) {
    self.condition.lock()
    if self.endedAt == nil { self.endedAt = endedAt }
    self.isClosing = true
    self.condition.broadcast()
    self.condition.unlock()
  }

  private var endedAt: String?

  // MARK: - The writer thread

  private func run() {
    while true {
      self.condition.lock()
      while self.pending.isEmpty, !self.isClosing, self.flushRequests == self.flushedGeneration {
        self.condition.wait()
      }
      // Give a batch up to `maxDelay` to fill, unless asked to flush or close.
      let deadline = Date(timeIntervalSinceNow: Self.maxDelay)
      while self.pending.count < Self.batchSize, !self.isClosing,
        self.flushRequests == self.flushedGeneration
      {
        if !self.condition.wait(until: deadline) { break }
      }
      let batch = self.pending
      self.pending.removeAll(keepingCapacity: true)
      let closing = self.isClosing
      let flushGeneration = self.flushRequests
      let alreadyFailed = self.failure != nil
      self.condition.unlock()

      var writeError: TraceFileError?
      if !alreadyFailed, !batch.isEmpty {
        do throws(TraceFileError) { try self.write(batch) } catch { writeError = error }
      }

      self.condition.lock()
      if let writeError, self.failure == nil {
        self.failure = writeError
        self.dropped += batch.count { if case .action = $0 { true } else { false } }
      }
      self.flushedGeneration = flushGeneration
      let done = closing && self.pending.isEmpty
      if done {
        let (dropped, endedAt) = (self.dropped, self.endedAt)
        self.condition.unlock()
        self.finishSession(endedAt: endedAt, dropped: dropped)
        self.condition.lock()
        self.isFinished = true
        let continuations = self.finishContinuations
        self.finishContinuations = []
        self.condition.broadcast()
        self.condition.unlock()
        for continuation in continuations { continuation.resume() }
        return
      }
      self.condition.broadcast()
      self.condition.unlock()
    }
  }

  private struct Statements {
    let insertSession: SQLiteStatement
    let insertAction: SQLiteStatement
    let insertChange: SQLiteStatement
    let insertLeak: SQLiteStatement
  }

  private func prepareStatements(_ connection: SQLiteConnection) throws(TraceFileError) -> Statements {
    if let statements = self.statements { return statements }
    let statements = Statements(
      insertSession: try connection.prepare(
        """
        INSERT INTO sessions (name, root_feature, started_at, recorder_version)
        VALUES (?1, ?2, ?3, ?4)
        """
      ),
      insertAction: try connection.prepare(
        """
        INSERT INTO actions (
          session_id, seq, time_ns, duration_ns, origin, cause_seq, path, root_category,
          feature, category, case_name, state_path, payload, payload_json
        ) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
        """
      ),
      insertChange: try connection.prepare(
        """
        INSERT INTO state_changes (action_id, position, path, kind, old_value, new_value)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        """
      ),
      insertLeak: try connection.prepare(
        "INSERT INTO leaks (action_id, rule, feature, detail) VALUES (?1, ?2, ?3, ?4)"
      )
    )
    self.statements = statements
    return statements
  }

  private func write(_ batch: [Message]) throws(TraceFileError) {
    guard let connection = self.connection else { return }
    let statements = try self.prepareStatements(connection)
    try connection.execute("BEGIN IMMEDIATE")
    do throws(TraceFileError) {
      for message in batch {
        switch message {
        case let .session(session):
          try statements.insertSession.run([
            .text(session.name), .text(session.rootFeature), .text(session.startedAt),
            .text(session.recorderVersion),
          ])
          self.sessionID = connection.lastInsertRowID
        case let .action(record):
          guard let sessionID = self.sessionID else { continue }
          try self.write(record, sessionID: sessionID, statements: statements, connection: connection)
        }
      }
      try connection.execute("COMMIT")
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }

  private func write(
    _ record: ActionRecord, sessionID: Int64, statements: Statements, connection: SQLiteConnection
  ) throws(TraceFileError) {
    let classification = record.classification
    let (origin, cause): (String, SQLiteValue) =
      switch record.origin {
      case .send: ("send", .null)
      case let .effect(cause): ("effect", .integer(Int64(cause)))
      }
    try statements.insertAction.run([
      .integer(sessionID), .integer(Int64(record.seq)), .integer(record.timeNs),
      .integer(record.durationNs), .text(origin), cause, .text(classification.path),
      .text(classification.rootCategory.rawValue), .text(classification.featurePath),
      .text(classification.category.rawValue), .text(classification.caseName),
      .text(record.statePath), SQLiteValue(classification.payload), SQLiteValue(record.payloadJSON),
    ])
    let actionID = connection.lastInsertRowID
    for (position, change) in record.changes.enumerated() {
      try statements.insertChange.run([
        .integer(actionID), .integer(Int64(position)), .text(change.path),
        .text(change.kind.rawValue), SQLiteValue(change.old), SQLiteValue(change.new),
      ])
    }
    for leak in record.leaks {
      try statements.insertLeak.run([
        .integer(actionID), .text(leak.rule.rawValue), .text(leak.feature), .text(leak.detail),
      ])
    }
  }

  private func finishSession(endedAt: String?, dropped: Int) {
    if let connection = self.connection, let sessionID = self.sessionID, self.error == nil {
      do throws(TraceFileError) {
        let statement = try connection.prepare(
          "UPDATE sessions SET ended_at = ?1, dropped_actions = ?2 WHERE id = ?3"
        )
        try statement.run([SQLiteValue(endedAt), .integer(Int64(dropped)), .integer(sessionID)])
      } catch {
        self.condition.lock()
        if self.failure == nil { self.failure = error }
        self.condition.unlock()
      }
    }
    // NB: Closing the last connection checkpoints the WAL into the file and deletes it, so
    // the file alone holds the session.
    self.statements = nil
    self.connection = nil
  }
}
