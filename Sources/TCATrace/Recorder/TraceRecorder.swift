#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif
import ActionObservation
import Dispatch
import Foundation
import IssueReporting
import RuntimeSupport

/// Records a store's actions into a trace file.
///
/// ```swift
/// let recorder = try TraceRecorder(path: "session.db")
/// let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
///   AppFeature()
/// }
/// await store.send(.view(.onAppear)).finish()
/// try await recorder.close()
/// ```
///
/// A recorder records one session of one store. The store's thread classifies each action,
/// diffs the state and checks the boundary rules; a background thread writes the rows in
/// batched transactions, each committed once it has waited 2 ms for more actions to join it:
/// what the writer has committed survives the app being killed. One file holds many sessions:
/// a recorder on an existing trace appends a session.
///
/// The recorder never stops the app it records: if the file cannot be written (no
/// permission, a full disk), it reports one issue, stops recording, and the store goes on.
///
/// In an app on iOS, tvOS or visionOS, the recorder lets go of the file when the app enters the
/// background: it writes what is pending, folds the WAL into the file and closes it, waiting
/// up to ``suspensionTimeout`` for that, so that a trace copied off the device then is complete
/// and no lock is held while the app is suspended. It opens the file again when the app
/// returns; actions recorded meanwhile wait in memory. On macOS it does the same as the app
/// quits.
public final class TraceRecorder: Sendable {
  /// What a detected boundary leak does, besides being recorded.
  public enum LeakPolicy: Sendable {
    /// Only record it.
    case recordOnly
    /// Record it and report it with `reportIssue`: a test failure, or a runtime warning in
    /// an app.
    case reportIssue
    /// Record it, write everything recorded so far, and stop the process — in debug builds;
    /// release builds report it instead. For CI runs that must not pass with a leak.
    case stopInDebug
  }

  /// The trace file's path: in an app, a relative path given is resolved in its Documents
  /// directory (see ``init(path:sizeLimit:session:policy:redacting:fileID:filePath:line:column:)``).
  public let path: String
  /// What a detected leak does.
  public let policy: LeakPolicy
  /// The bytes the trace file and its `-wal` stay within, as the recorder writes; `nil` when
  /// the file may grow without a limit. A limit below 256 KiB is raised to it.
  public let sizeLimit: Int?

  let writer: TraceWriter?
  /// The flight journal the store's thread writes each action into before its reducer runs
  /// (see `FlightJournal`); `nil` when it could not be made, or another's must be kept.
  private let flight: FlightRecorder?
  private let sessionName: String?
  private let state = Locked(RecorderState())
  private let timing: TraceTiming
  private let redactor: Redactor
  private let keyframes: KeyframeClock
  /// Whether an action's analysis may wait for the writer's thread (see ``AnalysisBacklog``):
  /// not where a leak must be reported on the store's thread, in tests and with
  /// ``LeakPolicy/stopInDebug``.
  private let analysesOnWritersThread: Bool
  /// The actions whose analysis waits for the writer's thread.
  package let backlog: AnalysisBacklog
  private let synchronousSends = SynchronousSends()
  /// The app's lifecycle notifications the recorder observes, until it closes.
  private let lifecycleObservation = Locked<AppLifecycle.Observation?>(nil)
  /// The stream of the session to `tcatrace serve --live`, when the environment names one
  /// (`TCATRACE_DEBUGGER`) or the store does; from the session's start.
  private let liveStream = Locked<LiveStream?>(nil)
  /// The server the environment names, streamed to when the session begins unless the store
  /// names another.
  private let environmentDebugger = Locked<TraceDebugger?>(nil)

  /// How long the app's thread waits, as the app leaves the foreground, for the recorder to
  /// write what is pending and close the file: 2 seconds, well within the time iOS gives an
  /// app that enters the background.
  public static let suspensionTimeout: Duration = .seconds(2)
  /// What the recorder analyses each action with, on the store's thread or the writer's.
  private let analysis: RecordAnalysis

  /// The TCATrace version written into each session.
  public static let version = "0.1.0"

  /// Opens `path` for recording, creating it if needed; a file that already holds sessions gets
  /// one more.
  ///
  /// - Parameters:
  ///   - path: The trace file. A relative path is in the app's Documents directory in an app
  ///     (iOS, tvOS, watchOS, visionOS, and a macOS app bundle), where the working directory is
  ///     `/`; elsewhere (a command-line program, tests, Linux) in the working directory.
  ///     ``path`` says where it is.
  ///   - sizeLimit: The bytes the file and its `-wal` stay within, for a recorder left on in
  ///     every QA build. As it writes, the recorder removes the file's oldest sessions, then
  ///     the oldest actions of its own (keeping the state before those left, so that every
  ///     state after them rebuilds); the session counts them (`tcatrace sessions`' `TRIMMED`).
  ///     A quarter of the limit is the WAL's, between checkpoints; a limit below 256 KiB is
  ///     raised to it. Default: `nil`, no limit.
  ///   - session: The session's name. Default: the root feature's type name and the start time.
  ///   - policy: What a detected leak does. Default: ``LeakPolicy/reportIssue``.
  ///   - redacting: Values to keep out of the trace; see ``TraceRedaction``. Default: none.
  ///     Types conforming to ``TraceRedacted`` are redacted always.
  /// Opening never waits on the caller's thread: when another process holds the file locked,
  /// the recorder's writer thread opens it once it can, and the actions recorded meanwhile
  /// wait for it.
  ///
  /// - Throws: `TraceFileError` when `path` holds something that must not be appended to: a
  ///   directory, a file that is not SQLite, a SQLite database that is not a trace, a trace
  ///   whose header is damaged, or one from a newer TCATrace. The file is left untouched. When
  ///   the file cannot be created or written, or its writer finds it damaged further in (it
  ///   runs `PRAGMA quick_check` before it appends), the recorder does not throw: it reports
  ///   one issue and records nothing, so the app goes on, and the file is left untouched.
  public convenience init(
    path: String,
    sizeLimit: Int? = nil,
    session: String? = nil,
    policy: LeakPolicy = .reportIssue,
    redacting redactions: [TraceRedaction] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) throws {
    try self.init(
      path: path, sizeLimit: sizeLimit, session: session, policy: policy, redacting: redactions,
      timing: .measured, fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// A recorder as ``init(path:sizeLimit:session:policy:redacting:fileID:filePath:line:column:)``
  /// makes, with the flight journal or without it: for a benchmark of what the journal costs a
  /// store on a host outside this package (`Tests/RealTCA/bench.sh journal`). Not for apps: the
  /// journal is what a crash leaves.
  @_spi(Benchmarks)
  public convenience init(
    path: String, sizeLimit: Int? = nil, policy: LeakPolicy = .reportIssue, flightJournal: Bool
  ) throws {
    try self.init(
      path: path, sizeLimit: sizeLimit, policy: policy, timing: .measured,
      flightJournal: flightJournal)
  }

  /// A recorder with a chosen source of times; `.fixed` makes traces reproducible for tests.
  /// `backlog` is the recorder's own: the session's end writes the fallbacks it counted.
  package init(
    path: String,
    sizeLimit: Int? = nil,
    session: String? = nil,
    policy: LeakPolicy = .reportIssue,
    redacting redactions: [TraceRedaction] = [],
    timing: TraceTiming,
    keepsStates: Bool = true,
    writerDelay: Double = TraceWriter.maxDelay,
    flightJournal: Bool = true,
    directory: String? = TracePath.platformDirectory,
    lifecycle: AppLifecycle = .platform,
    analysesOnWritersThread: Bool? = nil,
    backlog: AnalysisBacklog = AnalysisBacklog(),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) throws {
    let path = TracePath.resolve(path, in: directory)
    self.path = path
    self.policy = policy
    let limit = sizeLimit.map(TraceSizeLimit.init(bytes:))
    self.sizeLimit = limit?.bytes
    self.sessionName = session
    self.timing = timing
    self.redactor = Redactor(redactions: redactions)
    self.keyframes = KeyframeClock(isEnabled: keepsStates)
    self.backlog = backlog
    // NB: A leak is reported where its action was sent when that matters: in a test, whose
    // issue belongs to the test that sent it, and when it stops the process (which writes what
    // is pending first: on the writer's thread, that would wait for itself).
    self.analysesOnWritersThread =
      policy != .stopInDebug
      && (analysesOnWritersThread
        ?? (policy == .recordOnly || (policy == .reportIssue && !isTesting)))
    // NB: Where the store's thread analyses every action, no backlog is asked: its count
    // would say nothing.
    let countedBacklog = self.analysesOnWritersThread ? backlog : nil
    func openJournal() -> FlightRecorder? {
      flightJournal ? FlightRecorder.open(tracePath: path) : nil
    }
    do {
      // NB: Opening does not wait for a lock another process holds: the caller is the app's
      // main thread. Then the writer's thread opens the file, waiting, while the store goes on.
      // NB: The journal is made once the file is known to be a trace to append to: nothing is
      // written beside a file the recorder refuses.
      let connection = try TraceFile.openForWriting(path: path, waiting: false)
      let flight = openJournal()
      self.flight = flight
      self.writer = TraceWriter(
        path: path, connection: connection, sizeLimit: limit, batchDelay: writerDelay,
        flight: flight, backlog: countedBacklog)
    } catch  where error.isBusy {
      let flight = openJournal()
      self.flight = flight
      self.writer = TraceWriter(
        path: path, connection: nil, sizeLimit: limit, batchDelay: writerDelay, flight: flight,
        backlog: countedBacklog)
    } catch let error {
      self.flight = nil
      switch error.kind {
      case .notWritable, .sqlite, .notFound:
        self.writer = nil
        self.state.withLock { $0.hasReportedFailure = true }
        reportIssue(
          Self.cannotRecordMessage(path: path, error: error),
          fileID: fileID, filePath: filePath, line: line, column: column
        )
      case .isDirectory, .notSQLite, .notATrace, .newerSchema, .corrupt, .notInFile,
        .changedWhileReading:
        throw error
      }
    }
    self.analysis = RecordAnalysis(
      policy: policy, timing: timing, redactor: self.redactor, keyframes: self.keyframes,
      backlog: backlog, writer: self.writer)
    // NB: Weak: the writer outlives a recorder that is never closed, to finish its session.
    self.writer?.onFailure { [weak self] failure in
      self?.reportWriterFailureOnce(failure)
    }
    if self.writer != nil, let debugger = TraceDebugger.fromEnvironment {
      if let debugger {
        self.environmentDebugger.withLock { $0 = debugger }
      } else {
        reportIssue(
          """
          TCATrace does not stream to tcatrace serve: \(TraceDebugger.environmentVariable) is not \
          HOST:PORT:SECRET, the line 'tcatrace serve --live' prints. The app goes on, recording \
          to its own file.
          """)
      }
    }
    if self.writer != nil {
      let observation = lifecycle.observe(
        leave: { [weak self] in self?.appIsLeaving() },
        return: { [weak self] in self?.appIsReturning() }
      )
      self.lifecycleObservation.withLock { $0 = observation }
    }
  }

  /// Streams the session to `debugger`, as the session begins.
  private func streamLive(to debugger: TraceDebugger, writer: TraceWriter) {
    let stream = LiveStream(
      address: debugger, tracePath: self.path, app: ProcessInfo.processInfo.processName,
      sessionID: { [weak writer] in writer?.writtenSessionID },
      report: { message in reportIssue(message) })
    self.liveStream.withLock { $0 = stream }
  }

  /// Lets go of the file as the app leaves the foreground: see ``suspensionTimeout``.
  private func appIsLeaving() {
    // NB: The live stream stops reading the file first: the writer closes it, and must be its
    // last connection.
    self.liveStream.withLock { $0 }?.pauseNow()
    let (seconds, attoseconds) = Self.suspensionTimeout.components
    self.writer?.suspend(waitingUpTo: Double(seconds) + Double(attoseconds) / 1e18)
  }

  private func appIsReturning() {
    self.writer?.resume()
    self.liveStream.withLock { $0 }?.resume()
  }

  private static func cannotRecordMessage(path: String, error: TraceFileError) -> String {
    if error.kind == .corrupt {
      return """
        TCATrace does not append to '\(path)': it \(error.message). The app goes on without \
        recording; record to a new file.
        """
    }
    if error.isBusy {
      return """
        TCATrace cannot record to '\(path)': another process kept it locked until the recorder \
        closed (\(error.message)). The app goes on without recording.
        """
    }
    return """
      TCATrace cannot record to '\(path)': \(error.message). The app goes on without recording; \
      choose a writable path.
      """
  }

  deinit {
    self.lifecycleObservation.withLock { $0?.stop() }
    // NB: A recorder never closed stops streaming, once a read under way has ended: the file
    // is closed behind it.
    self.liveStream.withLock { $0 }?.cancel()
    self.writer?.requestClose(endedAt: self.timing.now())
  }

  /// Waits until everything recorded so far is in the file: a reader that opens it then sees
  /// every action sent before this call. The app is not blocked; the writer's thread writes
  /// what is pending at once rather than when its batch fills.
  ///
  /// ```swift
  /// store.send(.view(.onAppear))
  /// await recorder.flush()
  /// let reader = try TraceReader(path: path, live: true)  // sees `onAppear`
  /// ```
  ///
  /// While the app is in the background, with the file closed, it waits until the app returns.
  public func flush() async {
    await self.writer?.flushed()
  }

  /// Blocks until the writer has written what was recorded before: for the benchmark that
  /// counts what an app's taps cost on either host, each written before the next, as a writer
  /// that keeps up writes them. Not for apps: it blocks the caller's thread.
  @_spi(Benchmarks)
  public func waitUntilWritten() {
    self.writer?.flush()
  }

  /// The seq of the last action the writer committed to the file, `nil` before the first: for
  /// the benchmark of what a kill loses, and the app `KillTests` kills.
  package var writtenSeq: Int? {
    self.writer?.writtenSeq
  }

  /// Writes everything recorded, ends the session and closes the file. After this the file is
  /// complete and self-contained (no `-wal` beside it).
  ///
  /// - Throws: The `TraceFileError` that stopped recording, if one did; the actions recorded
  ///   before it are in the file.
  public func close() async throws {
    self.lifecycleObservation.withLock { $0?.stop() }
    guard let writer = self.writer else { return }
    // NB: The live stream stops reading the file while the writer closes it: the writer must
    // be its last connection, to leave no `-wal`. Then it reads the closed file and sends the
    // rest and the session's end, waiting up to 2 s (not at all when no server is connected).
    let stream = self.liveStream.withLock { $0 }
    await stream?.pause()
    await writer.close(endedAt: self.timing.now())
    await stream?.finish(within: .seconds(2))
    if let error = writer.error { throw error }
  }

  // MARK: - Sessions and actions

  /// Starts this recorder's session for a store whose root feature is `rootFeature`.
  ///
  /// - Returns: `false` when a session was already started: a recorder records one store.
  /// - Parameter debugger: Where to stream the session; `nil`: where `TCATRACE_DEBUGGER` says,
  ///   if it is set.
  func beginSession(rootFeature: String, debugger: TraceDebugger? = nil) -> Bool {
    let started: Bool = self.state.withLock { state in
      guard state.session == nil else { return false }
      state.session = SessionState(
        rootFeature: rootFeature, startNanoseconds: DispatchTime.now().uptimeNanoseconds
      )
      return true
    }
    guard started else { return false }
    let startedAt = self.timing.now()
    self.writer?.submit(
      session: SessionRecord(
        name: self.sessionName ?? "\(rootFeature) \(startedAt)",
        rootFeature: rootFeature,
        startedAt: startedAt,
        recorderVersion: Self.version + RecordingHost.versionSuffix
      )
    )
    if let writer = self.writer,
      let debugger = debugger ?? self.environmentDebugger.withLock({ $0 })
    {
      self.streamLive(to: debugger, writer: writer)
    }
    return true
  }

  /// The session's root feature, once a session has started.
  var rootFeature: String? {
    self.state.withLock { $0.session?.rootFeature }
  }

  /// An action a reducer modifier records, as ``modifierAction(_:_:_:)`` found it and
  /// ``prepare(_:as:start:into:)`` left it for ``record(taking:of:_:as:mayCauseActions:)``: what
  /// the recorder knows of the session and the types is read once an action.
  struct ModifierAction {
    fileprivate let session: SessionState
    fileprivate let types: RecordedTypes
    fileprivate var prepared: PreparedAction?

    /// Where the event of the action lies in the memory the modifier makes it in.
    var eventLayout: EventLayout { self.types.event }
  }

  /// Analyses the event at `place`, an `ActionEvent<State, Action>` of the action `action`
  /// prepared, in memory its layout allocated (``EventLayout/allocate()``), and hands it to the
  /// writer; or hands the writer the event to analyse, with its memory; reports leaks per
  /// ``policy``. Called on the store's thread, as the store processes each action.
  ///
  /// - Parameter mayCauseActions: Whether the effects the reducer returned may send actions
  ///   (see ``SynchronousSends``).
  /// - Returns: Whether the event was taken, with its memory: the caller then neither
  ///   destroys it nor frees it.
  func record<State, Action>(
    taking place: UnsafeMutableRawPointer, of _: State.Type, _: Action.Type,
    as action: inout ModifierAction?, mayCauseActions: Bool
  ) -> Bool {
    // NB: Taken out of the optional, not copied: a copy retains each of its values.
    guard var action = action.take() else { return false }
    assert(action.types.event.isLayout(of: ActionEvent<State, Action>.self))
    self.flight?.returned(seq: action.types.event.id(at: place))
    var took = false
    _ = self.submit(
      at: place, ownsMemory: true, types: action.types, session: action.session,
      prepared: &action.prepared, mayCauseActions: mayCauseActions, took: &took
    ) {
      // NB: Named as its type only where there is something to redact: each use of the event
      // type in code that is not specialized looks its metadata up.
      self.analysis.redact(
        &$0, event: place.assumingMemoryBound(to: ActionEvent<State, Action>.self).pointee)
    }
    return took
  }

  /// The session, and what is known of the types of events of `State` and `Action`; `nil`
  /// before the session has begun, or once recording has stopped.
  ///
  /// - Parameter known: What ``nextModifierEvent()`` read of the recording, which is not read
  ///   again: `nil` to read it now.
  private func recording<State, Action>(
    _: State.Type, _: Action.Type, known: ModifierEvent.Recording? = nil
  ) -> (SessionState, RecordedTypes)? {
    // NB: Once the file has failed nothing more is written, so nothing more is analysed: the
    // store's thread does no work for a recording that has stopped. The recorder learns of the
    // failure when the writer refuses an action, and reports it then, once.
    let (session, knownTypes, hasStopped) =
      known.map { (Optional($0.session), $0.types, $0.hasStopped) }
      ?? self.state.withLock { ($0.session, $0.types, $0.hasReportedFailure) }
    guard let session, !hasStopped else { return nil }
    // NB: What is known is only used for the types it was learnt from: a recorder given to two
    // reducers' `recording(to:)` sees events of two types.
    let types =
      knownTypes.flatMap { $0.isFor(State.self, Action.self) ? $0 : nil }
      ?? self.learnTypes(ActionEvent<State, Action>.self)
    return (session, types)
  }

  /// The recording of the action ``nextModifierEvent()`` numbered as `event`, for
  /// ``prepare(_:as:start:into:)`` to prepare once the modifier has made its event's memory;
  /// `nil` before the session has begun, or once recording has stopped: the action is then not
  /// recorded.
  func modifierAction<State, Action>(
    _ event: ModifierEvent, _: State.Type, _: Action.Type
  ) -> ModifierAction? {
    guard self.writer != nil,
      let (session, types) = self.recording(State.self, Action.self, known: event.recording)
    else { return nil }
    return ModifierAction(session: session, types: types, prepared: nil)
  }

  /// Classifies and encodes the action `event` numbers as its reducer is about to run, on the
  /// store's thread, and writes it into the flight journal: what the record of the action is
  /// made of once the reducer has returned, and what the journal keeps if the process ends in
  /// it.
  func prepare<Action>(
    _ action: Action, as event: ModifierEvent, start: UInt64, into modifier: inout ModifierAction
  ) {
    var prepared = self.prepare(
      action, seq: event.id, origin: event.origin, start: start, types: modifier.types,
      session: modifier.session)
    if event.fromDebugger { prepared.fromDebugger = true }
    modifier.prepared = prepared
  }

  private func prepare<Action>(
    _ action: Action, seq: Int, origin: ActionOrigin, start: UInt64, types: RecordedTypes,
    session: SessionState
  ) -> PreparedAction {
    let classification = withUnsafePointer(to: action) { pointer in
      types.actionClassifier?.prepare(at: UnsafeRawPointer(pointer), value: { action })
        ?? PreparedClassification(ActionClassification(action))
    }
    var payloadJSON = types.actionIsEncodable == false ? nil : TraceJSON.encode(action)
    // NB: A `TraceRedacted` value renders as the marker in the payload, but not in its JSON.
    var secrets: [Any] = []
    if let json = payloadJSON {
      secrets = Redactor.redactedValues(in: action)
      if !secrets.isEmpty { payloadJSON = Redactor.scrubbing(json, of: secrets) }
    }
    // NB: Values the recorder redacts are known once the reducer has returned (a state path's
    // value after it): until then, the journal holds no payload.
    self.flight?.begin(
      seq: seq, origin: origin,
      timeNs: self.timing.time(id: seq, timestamp: start, sessionStart: session.startNanoseconds),
      classification: classification, payloadJSON: payloadJSON,
      withheld: !self.redactor.isEmpty)
    // NB: Made last, so that the classification is moved into it, not copied (a retain of the
    // kept classification and of the payload, and their release).
    return PreparedAction(
      seq: seq, classification: classification, payloadJSON: payloadJSON, secrets: secrets)
  }

  #if !ComposableArchitecture
    /// The observer of the store this recorder's session records, for ``RecordingStore`` on
    /// `Composable` (TCA's `Store` has none): it learns the store's types now, and then reads
    /// nothing shared for each action.
    ///
    /// NB: A store hands its observer one action at a time, on its thread: `hasStopped` is only
    /// read and set there.
    func storeObserver<State, Action>(
      _: State.Type, _: Action.Type, fromDebugger: (@Sendable () -> Bool)? = nil
    ) -> (
      observer: @Sendable (UnsafeMutablePointer<ActionEvent<State, Action>>) -> Bool,
      willReduce: (@Sendable (Int, Action, ActionOrigin, UInt64) -> Void)?
    ) {
      guard self.writer != nil, let session = self.state.withLock({ $0.session }) else {
        return ({ _ in false }, nil)
      }
      let types = self.learnTypes(ActionEvent<State, Action>.self)
      let store = StoreRecording()
      return (
        { event in
          guard !store.hasStopped else { return false }
          assert(types.event.isLayout(of: ActionEvent<State, Action>.self))
          // NB: Read through its layout, not as an `ActionEvent<State, Action>`: each use of that
          // type in code that is not specialized looks its metadata up.
          let place = UnsafeRawPointer(event)
          let id = types.event.id(at: place)
          // NB: Moved out of the box, not copied: a copy retains each of its strings.
          var prepared: PreparedAction?
          swap(&prepared, &store.prepared)
          if prepared?.seq != id {
            prepared = nil
          } else {
            self.flight?.returned(seq: id)
          }
          // NB: The event is the recorder's to take: handed to the writer's thread unanalysed,
          // it is moved there, not copied.
          var took = false
          // NB: An action whose reducers returned no effect sends none: it opens no turn.
          let submitted = self.submit(
            at: UnsafeMutableRawPointer(event), ownsMemory: false, types: types,
            session: session, prepared: &prepared,
            mayCauseActions: types.event.returnedEffects(at: place),
            took: &took
          ) {
            self.analysis.redact(&$0, event: event.pointee)
          }
          if !submitted { store.hasStopped = true }
          return took
        },
        { id, action, origin, start in
          guard !store.hasStopped else { return }
          store.prepared = self.prepare(
            action, seq: id, origin: origin, start: start, types: types, session: session)
          if let fromDebugger, fromDebugger() { store.prepared?.fromDebugger = true }
        }
      )
    }

    /// What the recorder keeps of a store between its actions; only touched on the store's
    /// thread.
    private final class StoreRecording: @unchecked Sendable {
      /// Whether the recording has stopped.
      var hasStopped = false
      /// The action being reduced, prepared.
      var prepared: PreparedAction?
    }
  #endif

  /// Analyses the event at `place`, of the types `types` describes, and hands it to the writer;
  /// or hands the writer the event to analyse, while its backlog is within its bounds, and then
  /// `took` is set: the event is moved from `place`, or, when `place` is memory its layout
  /// allocated (`ownsMemory`), taken with it.
  ///
  /// - Parameter mayCauseActions: Whether the action's effects may send actions (see
  ///   ``SynchronousSends``).
  /// - Returns: `false` when the writer has failed: the recording has stopped.
  private func submit(
    at place: UnsafeMutableRawPointer, ownsMemory: Bool, types: RecordedTypes,
    session: SessionState, prepared: inout PreparedAction?, mayCauseActions: Bool, took: inout Bool,
    redact: (inout ActionRecord) -> Void
  ) -> Bool {
    guard let writer = self.writer else { return false }
    let forced = self.keyframes.takeForced()
    if self.analysesOnWritersThread,
      let submitted = self.submitUnanalysed(
        at: place, ownsMemory: ownsMemory, types: types, session: session, prepared: &prepared,
        forced: forced, mayCauseActions: mayCauseActions, to: writer)
    {
      took = true
      return submitted
    }
    // NB: The event's values are read where they lie, and analysed by code that is not
    // generic: each generic function reading an event looked up the event type's metadata.
    // The record is built, redacted and handed over inside the closure: returned from it, it
    // would be copied out and destroyed, a retain and a release of each of its strings.
    return types.event.withValues(at: place) { values in
      let id = values.id
      var record = self.analysis.analysedRecord(
        id: id, origin: values.origin, route: values.route,
        ownEffectCounts: values.ownEffectCounts, timestamp: values.timestamp,
        duration: values.duration, action: values.action,
        actionValue: { values.actionValue() }, before: values.stateBefore, after: values.stateAfter,
        types: types, session: session, prepared: &prepared,
        atOnce: self.synchronousSends.isAtOnce(
          id: id, origin: values.origin, mayCauseActions: mayCauseActions)
      )
      // NB: Redaction happens before the record is handed over: a secret never reaches the
      // writer's queue. Whole states are redacted by the writer, as it builds their trees,
      // before it writes them. What redacts reads the event as its type: only when there is
      // something to redact.
      self.analysis.finish(
        &record, values: values, types: types, secrets: prepared?.secrets, forced: forced,
        redact: redact)
      // NB: The first action analysed kept the state before it: later ones may wait.
      if self.analysesOnWritersThread { self.backlog.open() }
      let leaks = record.leaks
      let classification = leaks.isEmpty ? nil : record.classification
      // NB: Moved to the writer, not copied: a copy retains each of the record's strings, and
      // the record's end releases them (about 600 instructions).
      guard self.hand(consume record, to: writer) else { return false }
      if let classification {
        for leak in leaks {
          self.analysis.handle(
            leak, classification: classification, seq: id, rootFeature: session.rootFeature)
        }
      }
      return true
    }
  }

  /// Hands `record` to the writer; reports, once, that it could not take it.
  ///
  /// - Returns: `false` when the writer has failed: the recording has stopped.
  private func hand(_ record: consuming ActionRecord, to writer: TraceWriter) -> Bool {
    let seq = record.seq
    guard writer.submit(consume record) else {
      self.keyframes.dropped()
      self.reportWriterProblemOnce(writer, seq: seq)
      return !writer.hasFailed
    }
    return true
  }

  /// Hands the writer the action of the event at `place` unanalysed, with the event (moved from
  /// `place`, or taken with its memory when `ownsMemory`) for its thread to analyse
  /// (``RecordAnalysis/analyse(_:)``), and `prepared`, moved; `nil`, with nothing handed over,
  /// when the backlog is at its bounds, before the session's first action has been analysed, or
  /// when the state may hold a `Shared` value.
  ///
  /// What the store's thread does for such an action does not grow with its state: it moves
  /// the event, or takes it (its states' storage is neither copied nor retained), finds whether
  /// an effect sent the action at once, and hands it over.
  ///
  /// - Returns: `false` when the writer has failed: the recording has stopped.
  private func submitUnanalysed(
    at place: UnsafeMutableRawPointer, ownsMemory: Bool, types: RecordedTypes,
    session: SessionState, prepared: inout PreparedAction?, forced: Bool, mayCauseActions: Bool,
    to writer: TraceWriter
  ) -> Bool? {
    // NB: A `Shared` value's reference holds its value before the action only until the next
    // action: a state that may hold one, in a process that has one, is analysed at once. On
    // TCA, that the process has one is learnt from the states the recorder reads: while none
    // has been seen, the state after the action is read for one too (its parts that may hold
    // one), or the first action that made one would be deferred.
    #if ComposableArchitecture
      if types.state.mayHoldShared, sharedValuesExist.loadRelaxed() == 0 {
        _ = types.event.withValues(at: place) {
          SharedValuesBefore.values(in: types.state.load($0.stateAfter))
        }
      }
    #endif
    guard !types.state.mayChangeUnseen else {
      self.backlog.bypass()
      return nil
    }
    let bytes =
      types.event.byteCount + (prepared?.payloadJSON?.utf8.count ?? 0)
      + AnalysisBacklog.bytesPerRecord + self.keyframes.stateSize * AnalysisBacklog.bytesPerNode
    guard self.backlog.admit(bytes: bytes) else { return nil }
    let (id, origin) = types.event.withValues(at: place) { ($0.id, $0.origin) }
    let deferred = self.analysis.deferred(
      event: ownsMemory ? place : types.event.move(from: place),
      types: types, session: session, forced: forced,
      atOnce: self.synchronousSends.isAtOnce(
        id: id, origin: origin, mayCauseActions: mayCauseActions),
      bytes: bytes)
    swap(&deferred.prepared, &prepared)
    return self.hand(ActionRecord(seq: id, deferred: deferred), to: writer)
  }

  /// Finds out, once, what the recorder needs to know of its store's types.
  private func learnTypes<State, Action>(_: ActionEvent<State, Action>.Type) -> RecordedTypes {
    // NB: An existential action type's values have types of their own; each is asked.
    let action = Action.self as Any.Type
    let isExistential = MetadataKind.of(action) == MetadataKind.existential
    let types = RecordedTypes(
      stateType: State.self, actionType: Action.self,
      state: NodeKind.of(State.self),
      actionIsEncodable: isExistential ? nil : action is any Encodable.Type,
      actionClassifier: ActionClassifier.of(action),
      event: EventLayout(ActionEvent<State, Action>.self)
    )
    self.state.withLock { $0.types = types }
    return types
  }

  /// Reports, once, the error that stopped the writer: called by the writer's thread as it
  /// fails, so that a failure of the last writes, or of closing, is reported too.
  private func reportWriterFailureOnce(_ failure: TraceWriter.Failure) {
    let shouldReport = self.state.withLock { state in
      defer { state.hasReportedFailure = true }
      return !state.hasReportedFailure
    }
    guard shouldReport else { return }
    if failure.whileOpening {
      reportIssue(Self.cannotRecordMessage(path: self.path, error: failure.error))
      return
    }
    let position = failure.firstLostSeq.map { " at action #\($0)" } ?? " as it ended the session"
    reportIssue(
      """
      TCATrace stopped recording to '\(self.path)'\(position): \(failure.error). The app goes \
      on; the trace holds the actions written before.
      """
    )
  }

  private func reportWriterProblemOnce(_ writer: TraceWriter, seq: Int) {
    let error = writer.error
    let shouldReport = self.state.withLock { state in
      if error != nil {
        defer { state.hasReportedFailure = true }
        return !state.hasReportedFailure
      }
      defer { state.hasReportedDrop = true }
      return !state.hasReportedDrop
    }
    guard shouldReport else { return }
    if let error {
      reportIssue(
        """
        TCATrace stopped recording to '\(self.path)' at action #\(seq): \(error). The app goes \
        on; the trace holds the actions written before.
        """
      )
    } else {
      reportIssue(
        """
        TCATrace is dropping actions from action #\(seq): the writer cannot keep up with the \
        store (\(writer.capacity) actions waiting). The count is written to the session.
        """
      )
    }
  }

  /// An action a reducer modifier is about to reduce, as ``nextModifierEvent()`` numbered it.
  struct ModifierEvent {
    var id: Int
    var origin: ActionOrigin
    /// Whether the debugger sent it (see ``debuggerWillSend()``).
    var fromDebugger: Bool
    /// What the recorder knew of the recording, once the session has begun (see
    /// ``beginSession(rootFeature:debugger:)``); `nil` before.
    var recording: Recording?

    struct Recording {
      var session: SessionState
      var types: RecordedTypes?
      var hasStopped: Bool
    }
  }

  /// Numbers the actions of a store that a reducer modifier records, and remembers which
  /// action's effect sent the next actions.
  ///
  /// - Returns: The action's seq and origin, whether the debugger sent it, and what is known of
  ///   the recording: read under the one lock, which ``modifierAction(_:_:_:)`` then does not
  ///   take again.
  func nextModifierEvent() -> ModifierEvent {
    self.state.withLock { state in
      state.modifierSeq += 1
      let origin: ActionOrigin =
        state.pendingCauses.isEmpty ? .send : .effect(cause: state.pendingCauses.removeFirst())
      let fromDebugger = state.debuggerIsSending && origin == .send
      state.debuggerIsSending = false
      return ModifierEvent(
        id: state.modifierSeq, origin: origin, fromDebugger: fromDebugger,
        recording: state.session.map {
          ModifierEvent.Recording(
            session: $0, types: state.types, hasStopped: state.hasReportedFailure)
        })
    }
  }

  /// The next action the store reduces is one the page of `tcatrace serve --live` sent.
  func debuggerWillSend() {
    self.state.withLock { $0.debuggerIsSending = true }
  }

  func modifierEffectWillSend(cause: Int) {
    self.state.withLock { $0.pendingCauses.append(cause) }
  }

  /// The seq of the last action a reducer modifier recorded; 0 before the first.
  var lastModifierSeq: Int {
    self.state.withLock { $0.modifierSeq }
  }

  /// An action an effect sent was not reduced (a locked store ignored it): the cause its effect
  /// left for it is not the next action's. On the store's thread, as the store receives it: an
  /// effect's cause is taken by the action it sends as soon as the store receives it, so one
  /// waiting then is this action's.
  func discardPendingCause() {
    self.state.withLock { state in
      if !state.pendingCauses.isEmpty { state.pendingCauses.removeFirst() }
    }
  }

  // MARK: - Driving

  /// Whether the session streams to a `tcatrace serve --live` server.
  var isStreamingLive: Bool {
    self.liveStream.withLock { $0 } != nil
  }

  /// Sets what does the page's commands for the store this recorder records.
  func drive(with driver: @escaping LiveStream.LiveDriver) {
    self.liveStream.withLock { $0 }?.drive(with: driver)
  }

  /// Writes what a debugger did to the store, after the action `afterSeq`, the last it
  /// recorded. On the store's thread.
  func record(
    debuggerEvent kind: DebuggerEventRecord.Kind, afterSeq: Int, toSeq: Int? = nil,
    ignored: Int? = nil
  ) {
    guard let writer = self.writer, let session = self.state.withLock({ $0.session }) else {
      return
    }
    writer.submit(
      event: DebuggerEventRecord(
        afterSeq: afterSeq,
        timeNs: max(
          0,
          self.timing.time(
            id: afterSeq, timestamp: DispatchTime.now().uptimeNanoseconds,
            sessionStart: session.startNanoseconds)),
        kind: kind, toSeq: toSeq, ignoredActions: ignored))
  }

  /// The store's state was replaced between two actions (a debugger's jump): the next action
  /// keeps the state after it whole, for its changes are from the state replaced, and rebuilding
  /// a later state must not cross the jump. On the store's thread.
  func stateWasReplaced() {
    self.keyframes.dropped()
  }

}

private struct RecorderState {
  var session: SessionState?
  var types: RecordedTypes?
  var hasReportedFailure = false
  var hasReportedDrop = false
  var modifierSeq = 0
  var pendingCauses: [Int] = []
  /// Whether the next action is the debugger's.
  var debuggerIsSending = false
}

/// An action as the store's thread found it before its reducer ran (see
/// ``TraceRecorder/prepare(_:seq:origin:start:types:session:)``).
struct PreparedAction {
  var seq: Int
  /// Whether the page of `tcatrace serve --live` sent it.
  var fromDebugger = false
  var classification: PreparedClassification
  /// The action's JSON, its `TraceRedacted` values scrubbed.
  var payloadJSON: String?
  /// Its `TraceRedacted` values, found when it has JSON.
  var secrets: [Any]
}

struct SessionState: Equatable, Sendable {
  var rootFeature: String
  var startNanoseconds: UInt64
}
