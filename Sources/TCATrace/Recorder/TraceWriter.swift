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

  /// A writer appending to the trace at `path`, creating it if needed, and keeping it within
  /// `sizeLimit` when given.
  package convenience init(path: String, sizeLimit: TraceSizeLimit? = nil) throws(TraceFileError) {
    self.init(
      path: path, connection: try TraceFile.openForWriting(path: path), sizeLimit: sizeLimit)
  }

  /// Records written per transaction, at the most.
  package static let batchSize = 512
  /// How long a record may wait for its batch to fill, in seconds: 2 ms.
  ///
  /// NB: What a process killed from outside loses is what its writer had not committed: the
  /// actions of its last `maxDelay` and of the transaction being written, when the writer's
  /// thread runs; more when it is kept from running. A commit in WAL mode with
  /// `synchronous=NORMAL` is in the operating system's hands once written, without `fsync`. An
  /// app sends a tap's few actions and waits for the next frame, so its batches are small
  /// either way; a burst still fills batches of `batchSize` while the previous one is written.
  package static let maxDelay = 0.002

  private let condition = NSCondition()
  /// The session to write before the pending actions.
  private var pendingSession: SessionRecord?
  /// What a debugger did, to write after the pending actions: at most `maxPendingEvents`.
  private var pendingEvents: [DebuggerEventRecord] = []
  static let maxPendingEvents = 1_024
  /// The records waiting, in chunks of up to `batchSize`.
  ///
  /// NB: Chunks, not one buffer: a buffer that grew while the writer lagged behind a burst of
  /// actions copied every waiting record to fresh memory at each doubling, on the store's
  /// thread; a full chunk stays where it is.
  ///
  /// NB: `@exclusivity(unchecked)`, as the other state `submit` touches: each is only read and
  /// changed under `condition`'s lock, and the checks of its accesses cost the store's thread
  /// about 220 instructions an action.
  @exclusivity(unchecked) private var pending: [[ActionRecord]] = []
  @exclusivity(unchecked) private var pendingCount = 0
  /// Chunks the writer emptied, with their capacity, for `submit` to fill again; at most
  /// `maxSpareChunks`, so an idle recorder keeps little memory.
  @exclusivity(unchecked) private var spareChunks: [[ActionRecord]] = []
  static let maxSpareChunks = 8
  @exclusivity(unchecked) private var isClosing = false
  private var flushRequests = 0
  private var flushedGeneration = 0
  @exclusivity(unchecked) private var failure: TraceFileError? {
    didSet { self.hasFailure = self.failure != nil }
  }
  /// Whether `failure` is set, kept beside it. NB: `failure == nil` compared two optional
  /// errors with the error's `==`, and `case .some = failure` copied it (about 250
  /// instructions), at every action handed over.
  @exclusivity(unchecked) private var hasFailure = false
  /// Called once, when an error stops the writer.
  private var failureHandler: (@Sendable (Failure) -> Void)?
  /// The failure, once the handler has been told of it.
  private var failureIsReported = false
  @exclusivity(unchecked) private var dropped = 0
  private var finishContinuations: [CheckedContinuation<Void, Never>] = []
  /// Who waits for a flush, with the flush request that answers them.
  private var flushWaiters: [(generation: Int, continuation: CheckedContinuation<Void, Never>)] = []
  private var isFinished = false
  /// Whether the app asked the writer to let go of the file (``suspend(waitingUpTo:)``).
  private var suspensionRequested = false
  /// Whether the writer has let go of it: written what was submitted, checkpointed and closed.
  private var isSuspended = false
  let capacity: Int

  private var connection: SQLiteConnection?
  /// The file's rows, written; made once the file is open.
  private var rows: TraceRowWriter?
  private var sessionID: Int64?
  /// What ties the flight journal to the session's row (`FlightJournal.stamp(startedAt:)`).
  private var sessionStamp: UInt64 = 0
  /// The session's id once its row is committed, for other threads; guarded by `condition`.
  private var committedSessionID: Int64?
  /// The seq of the last action committed; guarded by `condition`.
  private var committedSeq: Int?
  /// The state after the last action written, whose JSON the next action's changes start from.
  private var lastState: Any?
  /// What following the state's JSON learned of its types.
  private let jsonTypes = JSONDiffTypes()

  /// The recorder's flight journal: told what is committed, and removed once the session has
  /// ended (or was never begun, the file refused).
  private let flight: FlightRecorder?

  /// The recorder's analysis backlog, whose fallbacks the session's end counts; `nil` when the
  /// store's thread analyses every action (the count is then not kept).
  ///
  /// NB: A recorder's own: the count is the backlog's since it was made. The count is read once
  /// the last action the writer was handed is written; an action the store's thread analysed as
  /// the recorder closed, and then did not hand over, may be counted or not.
  private let backlog: AnalysisBacklog?

  /// What stopped the writer.
  struct Failure: Sendable {
    var error: TraceFileError
    /// The seq of the first action the writer could not write; `nil` when none was lost.
    var firstLostSeq: Int?
    /// Whether the file could not be opened, or was found damaged before anything was written
    /// to it.
    var whileOpening: Bool
  }

  /// A writer for the trace at `path`.
  ///
  /// - Parameter connection: The trace, opened. When `nil`, the writer's thread opens it,
  ///   waiting as long as another connection holds a lock the opening needs, while the
  ///   records submitted wait (up to `capacity`). Either way the thread checks the file with
  ///   ``TraceFile/prepareForAppending(_:)`` before writing to it, and writes nothing to a
  ///   damaged file, nor changes it.
  /// - Parameter sizeLimit: The bytes the file and its WAL stay within, when given: the writer
  ///   removes the oldest sessions, then the oldest actions of its own, as it writes (see
  ///   ``TraceSizeLimit``).
  /// - Parameter batchDelay: How long a record may wait for its batch to fill, in seconds;
  ///   ``maxDelay`` but for the benchmark that compares another.
  /// - Parameter backlog: The recorder's analysis backlog, when the store's thread hands
  ///   actions over unanalysed: the session's end counts its fallbacks
  ///   (`sessions.backlog_fallbacks`).
  init(
    path: String, connection: SQLiteConnection?, sizeLimit: TraceSizeLimit? = nil,
    capacity: Int = 65_536, batchDelay: Double = TraceWriter.maxDelay,
    flight: FlightRecorder? = nil, backlog: AnalysisBacklog? = nil
  ) {
    self.path = path
    self.flight = flight
    self.backlog = backlog
    self.capacity = capacity
    self.batchDelay = batchDelay
    self.sizeLimit = sizeLimit
    // NB: Stored, not captured by the thread's closure: the closure outlives the session
    // (until the thread object goes), and a connection it held would not be closed — nor its
    // WAL folded into the file and deleted — before the process ends.
    self.connection = connection
    let thread = Thread { [self] in
      Self.yieldToTheApp()
      self.open()
      self.run()
    }
    thread.name = Self.threadName
    thread.qualityOfService = .utility
    thread.start()
  }

  /// The name of the writer's thread.
  package static let threadName = "TCATrace writer"

  /// The nice value of the writer's thread on Linux: where the thread shares a core with the
  /// app's, the app's runs first.
  package static let niceValue: Int32 = 10

  /// Lowers the calling thread's priority below the app's threads.
  ///
  /// NB: The writer is behind the store whenever actions come fast, busy all the while. Where
  /// it shares the store's core as an equal it takes half of it; below the app's threads, the
  /// store keeps the core (Performance.md measures both). Apple's threads take a quality of
  /// service (above); on Linux, a nice value is
  /// a thread's own, and `setpriority` with `who` 0 sets the calling thread's (Foundation's
  /// `Thread` keeps a quality of service there, and does nothing with it). Foundation does
  /// not give the kernel the thread's name on Linux either; it is given here, so that `top -H`
  /// and `/proc` show it.
  private static func yieldToTheApp() {
    #if os(Linux)
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceValue)
      // NB: `pthread_setname_np` is a GNU extension Swift's Glibc leaves out; the kernel
      // takes the name the calling thread writes to its `comm`.
      let comm = Glibc.open("/proc/thread-self/comm", O_WRONLY)
      if comm >= 0 {
        _ = Self.threadName.utf8CString.withUnsafeBufferPointer {
          Glibc.write(comm, $0.baseAddress, $0.count - 1)
        }
        Glibc.close(comm)
      }
    #endif
  }

  private let path: String
  private let sizeLimit: TraceSizeLimit?
  private let batchDelay: Double

  /// Hands the session's row to the writer, to be written before the actions that follow.
  package func submit(session: SessionRecord) {
    self.condition.lock()
    defer { self.condition.unlock() }
    guard !self.hasFailure, !self.isClosing else { return }
    self.pendingSession = session
    self.condition.signal()
  }

  /// Hands what a debugger did to the writer, to be written after the actions handed over
  /// before it.
  package func submit(event: DebuggerEventRecord) {
    self.condition.lock()
    defer { self.condition.unlock() }
    guard !self.hasFailure, !self.isClosing, self.pendingEvents.count < Self.maxPendingEvents
    else { return }
    self.pendingEvents.append(event)
    self.condition.signal()
  }

  /// Hands `record` to the writer. Returns `false` when it was dropped: the buffer is full, or
  /// the file has failed.
  @discardableResult
  package func submit(_ record: consuming ActionRecord) -> Bool {
    self.condition.lock()
    defer { self.condition.unlock() }
    guard !self.hasFailure, !self.isClosing, self.pendingCount < self.capacity else {
      self.dropped += 1
      return false
    }
    if self.pending.isEmpty || self.pending[self.pending.count - 1].count >= Self.batchSize {
      self.pending.append(self.spareChunks.popLast() ?? Self.newChunk())
    }
    // NB: Moved, not copied: a copy retained each string of the record, and released them
    // again as the parameter ended.
    self.pending[self.pending.count - 1].append(consume record)
    self.pendingCount += 1
    if self.pendingCount == 1 || self.pendingCount >= Self.batchSize {
      self.condition.signal()
    }
    return true
  }

  private static func newChunk() -> [ActionRecord] {
    var chunk: [ActionRecord] = []
    chunk.reserveCapacity(Self.batchSize)
    return chunk
  }

  /// Calls `handler` once, when an error stops the writer: however the failure happens (the
  /// opening, the last writes, or closing), it is told; on the writer's thread, or at once
  /// when the writer has already failed.
  func onFailure(_ handler: @escaping @Sendable (Failure) -> Void) {
    self.condition.lock()
    self.failureHandler = handler
    let report = self.failure.flatMap { _ in self.takeFailureReport() }
    self.condition.unlock()
    report?()
  }

  /// Records `failure` as what stopped the writer, unless something did already; returns the
  /// call that reports it, to be made once `condition` is unlocked. Called with it locked.
  private func fail(_ failure: Failure) -> (@Sendable () -> Void)? {
    guard !self.hasFailure else { return nil }
    self.failure = failure.error
    self.pendingFailure = failure
    return self.takeFailureReport()
  }

  private var pendingFailure: Failure?

  private func takeFailureReport() -> (@Sendable () -> Void)? {
    guard !self.failureIsReported, let handler = self.failureHandler,
      let failure = self.pendingFailure
    else { return nil }
    self.failureIsReported = true
    return { handler(failure) }
  }

  /// Whether an error stopped the writer.
  var hasFailed: Bool {
    self.condition.lock()
    defer { self.condition.unlock() }
    return self.hasFailure
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

  /// Waits, suspended, until everything submitted before this call is written.
  package func flushed() async {
    await self.suspend { continuation in
      self.flushRequests += 1
      self.flushWaiters.append((self.flushRequests, continuation))
    }
  }

  /// Writes what is pending, ends the session, closes the file, and stops the thread.
  package func close(endedAt: String) async {
    await self.suspend { continuation in
      self.finishContinuations.append(continuation)
      self.endedAt = endedAt
      self.isClosing = true
    }
  }

  /// Suspends until the writer's thread resumes the continuation `register` hands it (with
  /// the lock held), or at once when the thread has finished.
  private func suspend(_ register: (CheckedContinuation<Void, Never>) -> Void) async {
    await withCheckedContinuation { continuation in
      self.condition.lock()
      if self.isFinished {
        self.condition.unlock()
        continuation.resume()
        return
      }
      register(continuation)
      self.condition.broadcast()
      self.condition.unlock()
    }
  }

  /// Writes what was submitted before this call, folds the WAL into the file and closes it, so
  /// that the app holds no lock on it and the file alone is complete: for an app about to be
  /// suspended. Records submitted meanwhile wait (up to `capacity`) until ``resume()``.
  ///
  /// Blocks the calling thread until that is done, or `timeout` seconds have passed.
  ///
  /// - Returns: Whether the file was closed in time (or the writer had stopped).
  @discardableResult
  func suspend(waitingUpTo timeout: Double) -> Bool {
    self.condition.lock()
    defer { self.condition.unlock() }
    self.suspensionRequested = true
    self.condition.broadcast()
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !self.isSuspended, !self.isFinished, !self.hasFailure {
      if !self.condition.wait(until: deadline) { return self.isSuspended || self.isFinished }
    }
    return true
  }

  /// Opens the file again after ``suspend(waitingUpTo:)``, and writes what waited; returns at
  /// once.
  func resume() {
    self.condition.lock()
    self.suspensionRequested = false
    self.condition.broadcast()
    self.condition.unlock()
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

  /// Opens the file if the writer was not given it open, and checks it before anything is
  /// appended; a failure stops the writer before it writes.
  private func open() {
    var connection = self.connection
    self.connection = nil
    do throws(TraceFileError) {
      while true {
        do throws(TraceFileError) {
          if connection == nil { connection = try TraceFile.openForWriting(path: self.path) }
          try TraceFile.prepareForAppending(connection!)
          // NB: What the processes that recorded before this one and ended left in their
          // journals comes first, in its sessions; the limit then keeps the whole within it.
          TraceFile.foldFlightJournals(connection!)
          try self.sizeLimit?.prepare(connection!)
          break
        } catch  where error.isBusy {
          // NB: Each try waits for the lock up to the busy timeout; a writer asked to close
          // stops trying.
          self.condition.lock()
          let closing = self.isClosing
          self.condition.unlock()
          if closing { throw error }
        }
      }
      self.connection = connection
    } catch {
      // NB: Nothing is written beside a file the writer refuses: its folder is as it was.
      self.flight?.end()
      self.condition.lock()
      let report = self.fail(Failure(error: error, firstLostSeq: nil, whileOpening: true))
      self.condition.unlock()
      report?()
    }
  }

  private func run() {
    while true {
      self.condition.lock()
      // NB: While suspended, nothing is written until the app returns or the recorder closes.
      while self.isSuspended
        ? self.suspensionRequested && !self.isClosing
        : self.pending.isEmpty && self.pendingSession == nil && self.pendingEvents.isEmpty
          && !self.isClosing
          && self.flushRequests == self.flushedGeneration && !self.suspensionRequested
      {
        self.condition.wait()
      }
      if self.isSuspended {
        self.condition.unlock()
        self.open()
        self.condition.lock()
        self.isSuspended = false
        self.condition.unlock()
        continue
      }
      // Give a batch up to `batchDelay` to fill, unless asked to flush, close or suspend.
      let deadline = Date(timeIntervalSinceNow: self.batchDelay)
      while self.pendingCount < Self.batchSize, !self.isClosing, !self.suspensionRequested,
        self.flushRequests == self.flushedGeneration
      {
        if !self.condition.wait(until: deadline) { break }
      }
      let suspending = self.suspensionRequested && !self.isClosing
      let session = self.pendingSession
      self.pendingSession = nil
      var events: [DebuggerEventRecord] = []
      swap(&events, &self.pendingEvents)
      var batch: [[ActionRecord]] = []
      swap(&batch, &self.pending)
      self.pendingCount = 0
      let closing = self.isClosing
      let flushGeneration = self.flushRequests
      let alreadyFailed = self.hasFailure
      self.condition.unlock()

      // NB: What the store's thread handed over unanalysed is analysed here, before the
      // transaction, and its leaks reported from here; also when nothing more can be written.
      for index in batch.indices {
        batch[index].withUnsafeMutableBufferPointer { records in
          for record in records.indices where records[record].deferred != nil {
            RecordAnalysis.analyse(&records[record])
          }
        }
      }
      var writeError: TraceFileError?
      if !alreadyFailed, session != nil || !batch.isEmpty || !events.isEmpty {
        do throws(TraceFileError) {
          try self.write(session, batch, events)
        } catch {
          writeError = error
        }
      }

      let lostActions = writeError == nil ? 0 : batch.reduce(0) { $0 + $1.count }
      let firstLostSeq = writeError == nil ? nil : batch.first?.first.map(\.seq)
      // NB: The records are destroyed here, on this thread, and their chunks kept for reuse.
      for index in batch.indices { batch[index].removeAll(keepingCapacity: true) }

      self.condition.lock()
      self.spareChunks.append(
        contentsOf: batch.prefix(Self.maxSpareChunks - self.spareChunks.count))
      batch = []
      var reportFailure: (@Sendable () -> Void)?
      if let writeError, !self.hasFailure {
        self.dropped += lostActions
        reportFailure = self.fail(
          Failure(error: writeError, firstLostSeq: firstLostSeq, whileOpening: false))
      }
      self.flushedGeneration = flushGeneration
      let flushed = self.flushWaiters.filter { $0.generation <= flushGeneration }.map(
        \.continuation)
      self.flushWaiters.removeAll { $0.generation <= flushGeneration }
      let done =
        closing && self.pending.isEmpty && self.pendingSession == nil && self.pendingEvents.isEmpty
      if done {
        let (dropped, endedAt) = (self.dropped, self.endedAt)
        self.condition.unlock()
        reportFailure?()
        self.finishSession(endedAt: endedAt, dropped: dropped)
        self.condition.lock()
        self.isFinished = true
        let continuations = self.finishContinuations + self.flushWaiters.map(\.continuation)
        self.finishContinuations = []
        self.flushWaiters = []
        self.condition.broadcast()
        self.condition.unlock()
        for continuation in flushed + continuations { continuation.resume() }
        return
      }
      if suspending, !self.hasFailure {
        self.condition.unlock()
        self.letGoOfTheFile()
        self.condition.lock()
        self.isSuspended = true
      }
      self.condition.broadcast()
      self.condition.unlock()
      for continuation in flushed { continuation.resume() }
      reportFailure?()
    }
  }

  /// Folds the WAL into the file and closes it, for a suspension: no lock is held, and the file
  /// alone holds what was written.
  private func letGoOfTheFile() {
    if let connection = self.connection {
      // NB: Closing the last connection checkpoints again and deletes the WAL.
      try? connection.checkpointTruncatingWAL()
    }
    self.rows = nil
    self.connection = nil
  }

  private func rowWriter(_ connection: SQLiteConnection) throws(TraceFileError) -> TraceRowWriter {
    if let rows = self.rows { return rows }
    let rows = try TraceRowWriter(connection: connection)
    self.rows = rows
    return rows
  }

  /// The id of the session in the file, once its row is written; `nil` before, or when the
  /// file could not be written.
  package var writtenSessionID: Int64? {
    self.condition.lock()
    defer { self.condition.unlock() }
    return self.committedSessionID
  }

  /// The seq of the last action committed to the file: a reader that opens it sees it. `nil`
  /// before the first.
  package var writtenSeq: Int? {
    self.condition.lock()
    defer { self.condition.unlock() }
    return self.committedSeq
  }

  private func write(
    _ session: SessionRecord?, _ batch: [[ActionRecord]], _ events: [DebuggerEventRecord] = []
  ) throws(TraceFileError) {
    guard let connection = self.connection else { return }
    let rows = try self.rowWriter(connection)
    try connection.transaction(.takingTheWriteLock) { () throws(TraceFileError) in
      if let session {
        self.sessionID = try rows.beginSession(
          name: session.name, rootFeature: session.rootFeature, startedAt: session.startedAt,
          recorderVersion: session.recorderVersion)
        self.sessionStamp = FlightJournal.stamp(startedAt: session.startedAt)
      }
      if let sessionID = self.sessionID {
        // NB: The records are read where they lie: copying one retains each of its strings,
        // whose counts the store's thread touches too.
        for chunk in batch {
          try chunk.withUnsafeBufferPointer { (records) throws(TraceFileError) in
            for index in records.indices {
              try Self.write(
                records.baseAddress! + index, sessionID: sessionID, rows: rows,
                lastState: &self.lastState, jsonTypes: self.jsonTypes
              )
            }
          }
        }
        for event in events {
          try rows.insertDebuggerEvent(
            sessionID: sessionID, afterSeq: event.afterSeq, timeNs: event.timeNs,
            kind: event.kind.name, toSeq: event.toSeq, ignoredActions: event.ignoredActions)
        }
        // NB: In the batch's transaction: what is committed is within the limit.
        if let sizeLimit = self.sizeLimit, !self.sizeLimitIsGivenUp {
          try self.keep(
            within: sizeLimit, rows: rows, connection: connection, session: sessionID)
        }
      }
    }
    let lastSeq = batch.last?.last?.seq
    if session != nil || lastSeq != nil {
      self.condition.lock()
      if session != nil { self.committedSessionID = self.sessionID }
      if let lastSeq, self.sessionID != nil { self.committedSeq = lastSeq }
      self.condition.unlock()
      if let sessionID = self.sessionID {
        self.flight?.committed(sessionID: sessionID, stamp: self.sessionStamp, seq: lastSeq)
      }
    }
    self.sizeLimit?.checkpointIfNeeded(connection, path: self.path)
  }

  /// Whether the size limit was given up: a session whose state could not be rebuilt where it
  /// was to be cut. The file then grows as it would without a limit; the batches are kept.
  private var sizeLimitIsGivenUp = false

  private func keep(
    within sizeLimit: TraceSizeLimit, rows: TraceRowWriter, connection: SQLiteConnection,
    session: Int64
  ) throws(TraceFileError) {
    try connection.execute("SAVEPOINT size_limit")
    do throws(TraceFileError) {
      try sizeLimit.keepWithin(rows, session: session, path: self.path)
    } catch  where error.kind == .corrupt {
      self.sizeLimitIsGivenUp = true
      try connection.execute("ROLLBACK TO size_limit")
    }
    try connection.execute("RELEASE size_limit")
  }

  private static func write(
    _ record: UnsafePointer<ActionRecord>, sessionID: Int64, rows: TraceRowWriter,
    lastState: inout Any?, jsonTypes: JSONDiffTypes
  ) throws(TraceFileError) {
    let causeSeq: Int?
    switch record.pointee.origin {
    case .send: causeSeq = nil
    case let .effect(cause): causeSeq = cause
    }
    // NB: Read once: each read of a record's classification copied the record, and then the
    // classification.
    let classification = record.pointee.classification
    let actionID = try rows.insertAction(
      sessionID: sessionID, seq: record.pointee.seq, timeNs: record.pointee.timeNs,
      durationNs: record.pointee.durationNs, causeSeq: causeSeq, path: classification.path,
      rootCategory: classification.rootCategory.rawValue, feature: classification.featurePath,
      category: classification.category.rawValue, caseName: classification.caseName,
      statePath: record.pointee.statePath, payload: classification.payload,
      payloadJSON: record.pointee.payloadJSON,
      jsonChanges: Self.jsonChanges(record, lastState: &lastState, types: jsonTypes),
      atOnce: record.pointee.atOnce, fromDebugger: record.pointee.fromDebugger)
    for position in record.pointee.changes.indices {
      try rows.insertChange(
        actionID: actionID, position: position, path: record.pointee.changes[position].path,
        kind: record.pointee.changes[position].kind.rawValue,
        old: record.pointee.changes[position].old, new: record.pointee.changes[position].new,
        rebuild: record.pointee.changes[position].rebuild?.json,
        shared: record.pointee.changes[position].sharedPath)
    }
    for snapshot in record.pointee.states {
      var tree = StateTree.node(of: snapshot.value)
      snapshot.redact(&tree, snapshot.value)
      try rows.insertState(
        sessionID: sessionID, seq: snapshot.seq, tree: tree.json,
        json: TraceJSON.encode(snapshot.value).map { snapshot.redactJSON($0, snapshot.value) })
      snapshot.built(tree.nodeCount)
    }
    for leak in record.pointee.leaks {
      try rows.insertLeak(
        actionID: actionID, rule: leak.rule.rawValue, feature: leak.feature, detail: leak.detail)
    }
  }

  /// The changes of the state's JSON that the action `record` made (see ``JSONDiff``), from
  /// `lastState`, the state after the action before, which it then replaces; `nil` when the
  /// state is not `Encodable`, or when its JSON could not be followed.
  private static func jsonChanges(
    _ record: UnsafePointer<ActionRecord>, lastState: inout Any?, types: JSONDiffTypes
  ) -> String? {
    guard let after = record.pointee.stateAfter else { return nil }
    if let initial = record.pointee.states.first(where: { $0.seq == 0 }) {
      lastState = initial.value
    }
    defer { lastState = after.value }
    guard let before = lastState,
      let (changes, values) = JSONDiff.changes(from: before, to: after.value, types: types)
    else {
      return nil
    }
    return StateJSONChange.text(of: after.redact(changes, values, before, after.value))
  }

  private func finishSession(endedAt: String?, dropped: Int) {
    if let connection = self.connection, let sessionID = self.sessionID, self.error == nil {
      do throws(TraceFileError) {
        try self.rowWriter(connection).endSession(
          id: sessionID, endedAt: endedAt, droppedActions: dropped,
          backlogFallbacks: self.backlog?.countedFallbacks)
      } catch {
        self.condition.lock()
        let report = self.fail(Failure(error: error, firstLostSeq: nil, whileOpening: false))
        self.condition.unlock()
        report?()
      }
    }
    // NB: Closing the last connection checkpoints the WAL into the file and deletes it, so
    // the file alone holds the session.
    self.rows = nil
    self.connection = nil
    // NB: The journal holds nothing more: the session is in the file. After a failed write it
    // holds the actions lost, and is left for `tcatrace` to read.
    self.condition.lock()
    let failed = self.hasFailure
    self.condition.unlock()
    if failed {
      self.flight?.letGo()
    } else {
      self.flight?.end()
    }
  }
}
