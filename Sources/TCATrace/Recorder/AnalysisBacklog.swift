import RuntimeSupport

/// The actions whose analysis waits for the writer's thread.
///
/// Where the writer keeps up, which it does with the actions an app sends (a tap's few, a
/// timer's one a frame, typing's one a keystroke), the store's thread hands each action over
/// unanalysed, with its event (moved out of `Composable`'s store, or out of the memory TCA's
/// reducer modifier made it in): classifying what was not classified before the reducer ran, the
/// diff of the states, the leak rules, redaction and the kept states are the writer's work (see
/// `RecordAnalysis.analyse(_:)`). The backlog is bounded, so that a store that outruns the
/// writer (a burst of actions back to back) does not hold ever more states alive: past
/// ``maxActions`` actions (1,024 by default), or ``maxBytes`` bytes by its estimate (16 MiB),
/// the store's thread analyses an action itself, as it does when the backlog is off, and the
/// backlog counts it (``fallbacks``).
package final class AnalysisBacklog: Sendable {
  /// The most actions waiting for their analysis, by default.
  package static let defaultMaxActions = 1_024
  /// The most bytes the actions waiting hold, by estimate, by default: 16 MiB.
  package static let defaultMaxBytes = 16 << 20
  /// What an action waiting holds besides its event and its JSON, estimated: its record and
  /// what it points to.
  static let bytesPerRecord = 512
  /// What a node of the state costs an action waiting, estimated: the store copies the
  /// storage it changes while the state before is held, and a node of a kept state tree is
  /// about this size.
  static let bytesPerNode = 16

  /// The most actions waiting for their analysis.
  let maxActions: Int
  /// The most bytes the actions waiting hold, by estimate.
  let maxBytes: Int

  private let actions = AtomicWord()
  private let bytes = AtomicWord()
  private let isOpen = AtomicWord()
  private let admittedCount = AtomicWord()
  private let fallbackCount = AtomicWord()
  private let isBypassed = AtomicWord()

  package init(
    maxActions: Int = AnalysisBacklog.defaultMaxActions,
    maxBytes: Int = AnalysisBacklog.defaultMaxBytes
  ) {
    self.maxActions = maxActions
    self.maxBytes = maxBytes
  }

  /// Lets actions wait: once the session's first action is analysed, with the state before it.
  func open() {
    if self.isOpen.loadRelaxed() == 0 { self.isOpen.storeRelaxed(1) }
  }

  /// Whether an action of `bytes` may wait for its analysis; if so, it is counted until
  /// ``release(bytes:)``. Past a bound, the store's thread analyses it, and it is counted as a
  /// fallback.
  func admit(bytes: Int) -> Bool {
    guard self.isOpen.loadRelaxed() != 0 else { return false }
    guard Int(self.actions.loadRelaxed()) < self.maxActions,
      Int(self.bytes.loadRelaxed()) + bytes <= self.maxBytes
    else {
      self.fallbackCount.addRelaxed(1)
      return false
    }
    self.actions.addRelaxed(1)
    self.bytes.addRelaxed(bytes)
    self.admittedCount.addRelaxed(1)
    return true
  }

  /// The store's thread analysed an action without asking: its state may hold a `Shared`
  /// value. The fallbacks then say less than they seem to: they are not counted
  /// (``countedFallbacks``).
  func bypass() {
    if self.isBypassed.loadRelaxed() == 0 { self.isBypassed.storeRelaxed(1) }
  }

  /// An action that waited has been analysed, or dropped.
  func release(bytes: Int) {
    self.actions.addRelaxed(-1)
    self.bytes.addRelaxed(-bytes)
  }

  /// The actions waiting for their analysis.
  package var count: Int { Int(self.actions.loadRelaxed()) }

  /// The actions the store's thread handed over unanalysed, in all.
  package var admitted: Int { Int(self.admittedCount.loadRelaxed()) }

  /// The actions the store's thread analysed because the backlog was at a bound.
  package var fallbacks: Int { Int(self.fallbackCount.loadRelaxed()) }

  /// The fallbacks, as the session's end writes them (`sessions.backlog_fallbacks`): `nil` when
  /// the store's thread analysed actions without asking (``bypass()``), whose count would read
  /// as if the writer's thread had analysed them.
  package var countedFallbacks: Int? {
    self.isBypassed.loadRelaxed() != 0 ? nil : self.fallbacks
  }
}

/// What the writer's thread needs to analyse an action the store's thread handed over: its
/// event, and what the recorder knew of it.
///
/// NB: Used again once its action is analysed (``RecordAnalysis/deferred(event:types:session:forced:atOnce:bytes:)``):
/// made on the store's thread and freed on the writer's, each took the allocator's slower path
/// (on glibc, about 250 instructions more an action, on the store's thread).
final class DeferredAnalysis: @unchecked Sendable {
  // NB: `@unchecked`: the event is moved out of the store's memory, or taken with the memory
  // TCA's reducer modifier made it in, on the store's thread, and read on the writer's only
  // after the writer's lock handed its record over; its states are values, which the writer
  // only reads (as it reads the `StateAfterAction`s it follows). Its properties are written
  // only where it is made or taken to be used again, before its record is handed over, and
  // where the writer's thread is done with it (``retire()``), once no other reference is left.

  /// The event, in memory of its own (`EventLayout.allocate()`'s); `nil` once it is destroyed.
  @exclusivity(unchecked) private(set) var event: UnsafeMutableRawPointer?
  @exclusivity(unchecked) private(set) var types: RecordedTypes
  @exclusivity(unchecked) private(set) var session: SessionState
  /// The action as the store's thread prepared it before its reducer ran, moved here.
  @exclusivity(unchecked) var prepared: PreparedAction?
  /// Whether the action keeps the state after it (`KeyframeClock.takeForced()`).
  @exclusivity(unchecked) private(set) var forced: Bool
  /// Whether an effect sent the action at once (`SynchronousSends`), found on the store's
  /// thread.
  @exclusivity(unchecked) private(set) var atOnce: Bool
  /// What the backlog counts of it; 0 once released.
  @exclusivity(unchecked) private var bytes: Int
  /// What analyses it: not the recorder, which must not be kept alive by what its writer holds.
  /// `nil` once retired: what keeps it for use again is held by the analysis.
  @exclusivity(unchecked) private(set) var analysis: RecordAnalysis?

  init(
    event: UnsafeMutableRawPointer, types: RecordedTypes, session: SessionState, forced: Bool,
    atOnce: Bool, bytes: Int, analysis: RecordAnalysis
  ) {
    self.event = event
    self.types = types
    self.session = session
    self.forced = forced
    self.atOnce = atOnce
    self.bytes = bytes
    self.analysis = analysis
  }

  /// Takes the event at `event`, and what the recorder knew of it, in one that was retired.
  func reuse(
    event: UnsafeMutableRawPointer, types: RecordedTypes, session: SessionState, forced: Bool,
    atOnce: Bool, bytes: Int, analysis: RecordAnalysis
  ) {
    self.event = event
    self.analysis = analysis
    // NB: The recorder's types and session, most often the ones it had: not assigned then, for
    // an assignment retains the new values and releases the old.
    if self.types.event !== types.event { self.types = types }
    if self.session != session { self.session = session }
    self.forced = forced
    self.atOnce = atOnce
    self.bytes = bytes
  }

  /// Destroys the event and lets the backlog count it no longer, once its action is analysed:
  /// what is left may be used again (``reuse(event:types:session:forced:atOnce:bytes:analysis:)``).
  func retire() {
    if let event = self.event {
      self.types.event.destroy(event)
      self.event = nil
    }
    if self.bytes != 0 {
      self.analysis?.backlog.release(bytes: self.bytes)
      self.bytes = 0
    }
    self.prepared = nil
    self.analysis = nil
  }

  deinit {
    // NB: On the writer's thread, most often: the states the event held are released there.
    self.retire()
  }
}
