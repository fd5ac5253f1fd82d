import ActionObservation
import IssueReporting
import RuntimeSupport
import TCATraceFile

/// What a recorder analyses an action with: on the store's thread as the store processes it,
/// or on the writer's thread for an action handed over unanalysed (see ``AnalysisBacklog``).
///
/// NB: Apart from the recorder, which it does not hold: what waits for the writer holds this,
/// and a recorder held by what its own writer holds would never go away, nor close its file,
/// when the app lets go of it.
final class RecordAnalysis: Sendable {
  let policy: TraceRecorder.LeakPolicy
  let timing: TraceTiming
  let redactor: Redactor
  let keyframes: KeyframeClock
  let backlog: AnalysisBacklog
  private let redactState: @Sendable (inout StateNode, Any) -> Void
  private let redactStateJSON: @Sendable (String, Any) -> String
  private let redactJSONChanges: StateAfterAction.Redact
  /// Writes what is pending before a leak stops the process
  /// (``TraceRecorder/LeakPolicy/stopInDebug``).
  private let flushWriter: @Sendable () -> Void
  private let hasCheckedRedactions = Locked(false)
  /// What the writer's thread was done with, for the store's thread to use again
  /// (``deferred(event:types:session:forced:atOnce:bytes:)``): retired, each holds nothing of
  /// this analysis.
  let spareDeferred = RecycledWords(capacity: 32)

  init(
    policy: TraceRecorder.LeakPolicy, timing: TraceTiming, redactor: Redactor,
    keyframes: KeyframeClock, backlog: AnalysisBacklog, writer: TraceWriter?
  ) {
    self.policy = policy
    self.timing = timing
    self.redactor = redactor
    self.keyframes = keyframes
    self.backlog = backlog
    self.redactState = { tree, state in
      if !redactor.isEmpty { redactor.redact(&tree, state: state) }
    }
    // NB: `TraceRedacted` values are redacted with no redaction given: a tree renders them
    // as the marker, but their JSON does not.
    self.redactStateJSON = { json, state in redactor.redact(json: json, state: state) }
    self.redactJSONChanges = { changes, values, before, after in
      redactor.redact(jsonChanges: changes, values: values, before: before, after: after)
    }
    self.flushWriter = { [weak writer] in writer?.flush() }
  }

  /// Redacts `record`, the record of `event`, by the recorder's redactions.
  func redact<State, Action>(
    _ record: inout ActionRecord, event: ActionEvent<State, Action>
  ) {
    self.checkRedactionRootsOnce(stateType: State.self)
    self.redactor.apply(to: &record, event: event)
  }

  /// Keeps the states the action's record keeps, redacts it, and scrubs its JSON of `secrets`
  /// (the action's `TraceRedacted` values; found now when `nil`): what is left of its analysis
  /// once it is classified and diffed.
  func finish(
    _ record: inout ActionRecord, values: EventLayout.Values, types: RecordedTypes,
    secrets: [Any]?, forced: Bool, redact: (inout ActionRecord) -> Void
  ) {
    let states = self.states(
      seq: record.seq, changes: record.changes.count, forced: forced, kind: types.state,
      before: values.stateBefore, after: values.stateAfter
    )
    // NB: The state's JSON is followed on the writer's thread, from each state to the next.
    let stateAfter =
      types.stateIsEncodable && self.keyframes.isEnabled
      ? StateAfterAction(
        value: types.state.load(values.stateAfter), redact: self.redactJSONChanges)
      : nil
    record.keep(states, stateAfter: stateAfter)
    if !self.redactor.isEmpty { redact(&record) }
    if record.payloadJSON != nil {
      Redactor.scrub(&record, of: secrets ?? Redactor.redactedValues(in: values.actionValue()))
    }
  }

  deinit {
    while let spare = self.spareDeferred.take() {
      Unmanaged<DeferredAnalysis>.fromOpaque(UnsafeRawPointer(bitPattern: spare)!).release()
    }
  }

  /// Analyses the action of `record`, which the store's thread handed over unanalysed with its
  /// event: on the writer's thread, before the record is written. The record is
  /// then what the store's thread would have made, and its leaks are reported from here.
  static func analyse(_ record: inout ActionRecord) {
    guard var deferred = record.deferred.take(), let analysis = deferred.analysis else { return }
    analysis.analyse(&record, deferred)
    // NB: Kept for the next action handed over, when nothing else holds it.
    deferred.retire()
    guard isKnownUniquelyReferenced(&deferred) else { return }
    let spare = Unmanaged.passRetained(deferred)
    if !analysis.spareDeferred.give(UInt(bitPattern: spare.toOpaque())) { spare.release() }
  }

  /// What the writer's thread needs to analyse the action of `event`, for the store's thread to
  /// hand it over: one the writer's thread was done with, when there is one.
  func deferred(
    event: UnsafeMutableRawPointer, types: RecordedTypes, session: SessionState, forced: Bool,
    atOnce: Bool, bytes: Int
  ) -> DeferredAnalysis {
    guard let spare = self.spareDeferred.take() else {
      return DeferredAnalysis(
        event: event, types: types, session: session, forced: forced, atOnce: atOnce,
        bytes: bytes, analysis: self)
    }
    let deferred = Unmanaged<DeferredAnalysis>.fromOpaque(UnsafeRawPointer(bitPattern: spare)!)
      .takeRetainedValue()
    deferred.reuse(
      event: event, types: types, session: session, forced: forced, atOnce: atOnce, bytes: bytes,
      analysis: self)
    return deferred
  }

  private func analyse(_ record: inout ActionRecord, _ deferred: DeferredAnalysis) {
    let types = deferred.types
    let session = deferred.session
    types.event.withValues(at: deferred.event!) { values in
      record = self.analysedRecord(
        id: values.id, origin: values.origin, route: values.route,
        ownEffectCounts: values.ownEffectCounts, timestamp: values.timestamp,
        duration: values.duration, action: values.action,
        actionValue: { values.actionValue() }, before: values.stateBefore, after: values.stateAfter,
        types: types, session: session, prepared: &deferred.prepared, atOnce: deferred.atOnce
      )
      self.finish(
        &record, values: values, types: types, secrets: deferred.prepared?.secrets,
        forced: deferred.forced
      ) { record in
        self.checkRedactionRootsOnce(stateType: types.state.type)
        self.redactor.apply(
          to: &record, stateBefore: types.state.load(values.stateBefore),
          stateAfter: types.state.load(values.stateAfter), action: values.actionValue())
      }
      for leak in record.leaks {
        self.handle(
          leak, classification: record.classification, seq: record.seq,
          rootFeature: session.rootFeature)
      }
    }
  }

  /// The whole states to keep with the action `seq`; see ``KeyframeClock``.
  func states(
    seq: Int, changes: Int, forced: Bool, kind: NodeKind, before: UnsafeRawPointer,
    after: UnsafeRawPointer
  ) -> [StateSnapshot] {
    self.keyframes.snapshots(
      seq: seq, changes: changes, forced: forced, before: { kind.load(before) },
      after: { kind.load(after) },
      redact: self.redactState, redactJSON: self.redactStateJSON
    )
  }

  /// The record of one action, from its values in place: classified, diffed and checked.
  func analysedRecord(
    id: Int, origin: ActionOrigin, route: [ActionRoute], ownEffectCounts: [Int],
    timestamp: UInt64, duration: UInt64, action: UnsafeRawPointer, actionValue: () -> Any,
    before: UnsafeRawPointer, after: UnsafeRawPointer, types: RecordedTypes, session: SessionState,
    prepared: inout PreparedAction?, atOnce: Bool
  ) -> ActionRecord {
    // NB: The prepared action's JSON is moved out of it, not copied: a copy retains its
    // string, and the prepared action's end releases it. Its classification is made whole here,
    // from the one the classifier keeps, on the thread that analyses the action.
    var classification: ActionClassification
    var payloadJSON: String?
    var fromDebugger = false
    if prepared != nil {
      classification = prepared!.classification.take()
      payloadJSON = prepared!.payloadJSON.take()
      fromDebugger = prepared!.fromDebugger
    } else {
      classification =
        types.actionClassifier?.classify(at: action, value: actionValue)
        ?? ActionClassification(actionValue())
      payloadJSON = types.actionIsEncodable == false ? nil : TraceJSON.encode(actionValue())
    }
    var record = ActionRecord(
      seq: id,
      timeNs: self.timing.time(
        id: id, timestamp: timestamp, sessionStart: session.startNanoseconds),
      durationNs: self.timing.duration(id: id, measured: duration),
      origin: origin,
      classification: consume classification,
      statePath: "",
      payloadJSON: consume payloadJSON,
      changes: [],
      leaks: [],
      atOnce: atOnce
    )
    let (changes, leaks, statePath) = ActionAnalysis.analyse(
      before: before, after: after, stateKind: types.state,
      classification: &record.classification, origin: origin, route: route,
      ownEffectCounts: ownEffectCounts, rootName: session.rootFeature
    )
    record.changes = changes
    record.leaks = leaks
    record.statePath = statePath
    // NB: The page of `tcatrace serve --live` sends what the person at it chose, from outside
    // the app's features: no boundary of the app's code is crossed.
    if fromDebugger {
      record.fromDebugger = true
      record.leaks = []
    }
    return record
  }

  /// Reports, once, the state redactions rooted at another type than the store's state: they
  /// would redact nothing.
  func checkRedactionRootsOnce(stateType: Any.Type) {
    guard !self.redactor.redactions.isEmpty else { return }
    let isFirst = self.hasCheckedRedactions.withLock { hasChecked in
      defer { hasChecked = true }
      return !hasChecked
    }
    guard isFirst else { return }
    for redaction in self.redactor.redactions {
      if case let .state(root, _, path) = redaction.kind, root != stateType {
        let (rootName, stateName) = (String(reflecting: root), String(reflecting: stateType))
        reportIssue(
          """
          TraceRedaction.state(\\\(rootName).\(path)) starts at '\(rootName)', but the recorded \
          store's state is '\(stateName)', so it redacts nothing. Start the key path at \(stateName).
          """
        )
      }
    }
  }

  func handle(
    _ leak: Leak, classification: ActionClassification, seq: Int, rootFeature: String
  ) {
    let feature = leak.feature.isEmpty ? rootFeature : leak.feature
    let message = """
      Boundary leak (\(leak.rule.rawValue)) in \(feature): \(leak.detail). Action #\(seq): \
      \(classification.path)
      """
    switch self.policy {
    case .recordOnly:
      break
    case .reportIssue:
      reportIssue(message)
    case .stopInDebug:
      #if DEBUG
        self.flushWriter()
        fatalError(message)
      #else
        reportIssue(message)
      #endif
    }
  }
}
