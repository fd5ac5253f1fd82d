#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif
import ActionObservation
import Dispatch
import RuntimeSupport

extension Reducer {
  /// Records every action this reducer receives with `recorder`: the form for code that builds
  /// its own `Store`, and the shape an adapter for TCA takes (like `_printChanges()`).
  ///
  /// ```swift
  /// let store = Store(initialState: AppFeature.State()) {
  ///   AppFeature().recording(to: recorder)
  /// }
  /// ```
  ///
  /// Apply it to the root reducer: origins are told apart by watching the effects this reducer
  /// returns, so effects of reducers outside it would be recorded as sends.
  public func recording(to recorder: TraceRecorder) -> _RecordingReducer<Self> {
    _RecordingReducer(base: self, recorder: recorder)
  }
}

/// A reducer that records the actions of its base; built by ``Reducer/recording(to:)``.
public struct _RecordingReducer<Base: Reducer>: Reducer {
  let base: Base
  #if ComposableArchitecture
    /// Counts the effects, for a ``RecordingStore``.
    let effects: RunningEffects<Base.Action>?
    /// Tells `.none` from other effects of the base's actions: found once, not at every action.
    let effectNone: EffectNoneTest
    /// Whether the root's state may present a feature or push one (see ``Presentations``):
    /// found once, not at every action with an effect.
    let rootMayPresent: Bool
  #endif
  /// What records the actions, for a recorder; `nil` for a ``RecordingStore`` that is not
  /// recorded.
  ///
  /// NB: Its type names the effect's type as a type parameter of its own, which its methods
  /// read from the instance: `reduce` here, code that is not specialized, looked
  /// `Effect<Base.Action>`'s metadata up at every action (about 330 instructions on TCA), for
  /// the effect it held. It hands on what the recording returns, and holds none.
  let recording: ReducerRecording<Base, Effect<Base.Action>>?

  #if ComposableArchitecture
    init(base: Base, recorder: TraceRecorder?, effects: RunningEffects<Base.Action>? = nil) {
      self.base = base
      self.effects = effects
      let effectNone = EffectNoneTest.of(Effect<Base.Action>.self)
      let rootMayPresent = Presentations.mayPresent(Base.State.self)
      self.effectNone = effectNone
      self.rootMayPresent = rootMayPresent
      self.recording = Self.recording(of: base, by: recorder) {
        EffectHost(
          effectNone: effectNone,
          isNone: { effectNone.isNone($0) },
          effectCount: { $0.effectCount },
          watched: { effect, recorder, action, id, route, before, after in
            Self.counted(
              Self.watched(effect, by: recorder, cause: id), effects: effects, of: action,
              route: route, from: before, to: after, rootMayPresent: rootMayPresent)
          }
        )
      }
    }
  #else
    init(base: Base, recorder: TraceRecorder?) {
      self.base = base
      self.recording = Self.recording(of: base, by: recorder) {
        EffectHost(
          cannotSendActions: { $0.cannotSendActions },
          effectCount: { $0.effectCount },
          watched: { effect, recorder, _, id, _, _, _ in
            Self.watched(effect, by: recorder, cause: id)
          }
        )
      }
    }
  #endif

  /// The recording of `base`'s actions by `recorder`, whose effects `host` handles; `nil`
  /// without a recorder.
  private static func recording(
    of base: Base, by recorder: TraceRecorder?, host: () -> EffectHost<Base, Effect<Base.Action>>
  ) -> ReducerRecording<Base, Effect<Base.Action>>? {
    recorder.map { recorder in
      ReducerRecording(
        recorder: recorder,
        reduce: { state, action in base.reduce(into: &state, action: action) }, host: host())
    }
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    if let recording = self.recording {
      return recording.reduce(into: &state, action: action)
    }
    return self.reduceUnrecorded(into: &state, action: action)
  }

  /// The base's `reduce`, for a store that is not recorded: on TCA its effects are counted.
  ///
  /// NB: Not inlined: this looks `Effect<Base.Action>`'s metadata up, for the effect it holds,
  /// which `reduce` would otherwise do for every action, recorded too.
  @inline(never)
  private func reduceUnrecorded(into state: inout Base.State, action: Base.Action) -> Effect<
    Base.Action
  > {
    #if ComposableArchitecture
      if self.effects != nil {
        let stateBefore = state
        let effect = self.base.reduce(into: &state, action: action)
        guard !self.effectNone.isNone(effect) else { return effect }
        return Self.counted(
          effect, effects: self.effects, of: action, route: nil, from: stateBefore, to: state,
          rootMayPresent: self.rootMayPresent)
      }
    #endif
    return self.base.reduce(into: &state, action: action)
  }

  /// `effect`, which the action `cause` returned and which may send actions, wrapped so that
  /// each action it sends is known to be its. (An effect that can send none, as most actions'
  /// `.none`, is not given here: it is returned as it is.)
  private static func watched(
    _ effect: Effect<Base.Action>, by recorder: TraceRecorder, cause id: Int
  ) -> Effect<Base.Action> {
    // NB: `map`'s transform runs when the effect sends, right before the store receives the
    // action: that is how the next action is known to come from this one's effect.
    effect.map { action in
      recorder.modifierEffectWillSend(cause: id)
      return action
    }
  }

  #if ComposableArchitecture
    /// `effect`, an effect that may send actions, counted by `effects` while it runs; not when
    /// the action presented a feature or pushed one, whose effect TCA keeps running until it is
    /// dismissed.
    ///
    /// - Parameter route: The action's route from the state before it, when known: an empty one
    ///   went through no child, whose state then need not be read.
    private static func counted(
      _ effect: Effect<Base.Action>, effects: RunningEffects<Base.Action>?,
      of action: Base.Action, route: [ActionRoute]?, from stateBefore: Base.State,
      to stateAfter: Base.State, rootMayPresent: Bool
    ) -> Effect<Base.Action> {
      guard let effects else { return effect }
      let presented =
        route?.isEmpty == true
        ? Presentations.presentedAtRoot(
          before: stateBefore, after: stateAfter, rootMayPresent: rootMayPresent)
        : Presentations.presented(by: action, before: stateBefore, after: stateAfter)
      return presented ? effect : effects.track(effect)
    }
  #endif
}

/// What ``ReducerRecording`` asks of its host's effects, made where their type is known.
struct EffectHost<Base: Reducer, ReducerEffect> {
  #if ComposableArchitecture
    /// Tells `.none` from other effects, at the effect's address.
    let effectNone: EffectNoneTest
    /// Whether the effect is `.none`, where `effectNone` cannot read its layout.
    let isNone: (ReducerEffect) -> Bool
  #else
    /// Whether the effect sends no action.
    let cannotSendActions: (ReducerEffect) -> Bool
  #endif
  /// How many effects the effect is, as a route step counts them.
  let effectCount: (ReducerEffect) -> Int
  /// The effect, which may send actions, watched for the actions it sends (and, on TCA,
  /// counted): given the recorder, the action, its id, its route, and the states before and
  /// after it.
  let watched:
    (
      ReducerEffect, TraceRecorder, Base.Action, Int, [ActionRoute], Base.State, Base.State
    ) -> ReducerEffect
}

/// What ``_RecordingReducer`` does for a recorder: records each action of its base.
///
/// `ReducerEffect` is `Effect<Base.Action>`, a type parameter of its own: its metadata is the
/// instance's, where code that names `Effect<Base.Action>` and is not specialized looks it up
/// each time it runs.
final class ReducerRecording<Base: Reducer, ReducerEffect> {
  let recorder: TraceRecorder
  /// The base reducer's `reduce`.
  let reduceBase: (inout Base.State, Base.Action) -> ReducerEffect
  let host: EffectHost<Base, ReducerEffect>
  /// The root feature's name, for the session: made once, not at every action.
  let rootFeature = rootFeatureName(of: Base.self)
  /// Whether the state's type may hold a shared value, asked once: the values of the shared
  /// ones are read before every action where it may.
  let stateMayHoldShared = NodeKind.of(Base.State.self).mayHoldShared
  /// The classifier of the actions, asked once: on TCA it also keeps the routes that the
  /// action's cases decide.
  let actionClassifier = ActionClassifier.of(Base.Action.self)
  /// The collector of each action's route, which actions take in turn (on TCA).
  let routeCollectors = ReusableRouteCollector()

  init(
    recorder: TraceRecorder,
    reduce: @escaping (inout Base.State, Base.Action) -> ReducerEffect,
    host: EffectHost<Base, ReducerEffect>
  ) {
    self.recorder = recorder
    self.reduceBase = reduce
    self.host = host
  }

  func reduce(into state: inout Base.State, action: Base.Action) -> ReducerEffect {
    let recorder = self.recorder
    let next = recorder.nextModifierEvent()
    if next.recording == nil { _ = recorder.beginSession(rootFeature: self.rootFeature) }
    let (id, origin) = (next.id, next.origin)
    var modifier = recorder.modifierAction(next, Base.State.self, Base.Action.self)
    // NB: No event is made for an action that is not recorded.
    var route: [ActionRoute] = []
    var ownEffectCounts: [Int] = []
    guard let layout = modifier?.eventLayout else {
      var stateBefore = state
      let effect = collectingRoute(
        of: action, from: &stateBefore, classifier: self.actionClassifier,
        collectors: self.routeCollectors, route: &route, ownEffectCounts: &ownEffectCounts,
        effectCount: self.host.effectCount
      ) {
        self.reduceBase(&state, action)
      }
      guard !self.cannotSendActions(effect) else { return effect }
      return self.host.watched(effect, recorder, action, id, route, stateBefore, state)
    }
    // NB: Made in memory the recorder may take, with the event: an event handed to the
    // writer's thread goes there as it is, neither copied (a copy retains each of its values)
    // nor moved. Written a property at a time: building an `ActionEvent` here, in generic code
    // that is not specialized, looked the event type's metadata up (about 340 instructions
    // each time), as a closure returning the effect did `Result`'s (about 460). The state
    // before the action is copied into the event, and read there: copied into a local first,
    // it was copied twice.
    let event = layout.allocate()
    let fields = layout.fields
    let stateBefore = event.eventField(fields.stateBefore, Base.State.self)
    stateBefore.initialize(to: state)
    let sharedValues = SharedValuesBeforeAction(
      in: stateBefore, mayHoldShared: self.stateMayHoldShared)
    // NB: Read once the state before is kept: the action's duration is its preparing and its
    // reducer's, as it was before the event's memory was made first.
    let start = DispatchTime.now().uptimeNanoseconds
    recorder.prepare(action, as: next, start: start, into: &modifier!)
    let effect = collectingRoute(
      of: action, from: stateBefore, classifier: self.actionClassifier,
      collectors: self.routeCollectors, route: &route, ownEffectCounts: &ownEffectCounts,
      effectCount: self.host.effectCount
    ) {
      self.reduceBase(&state, action)
    }
    let end = DispatchTime.now().uptimeNanoseconds
    let sendsNoAction = self.cannotSendActions(effect)
    // NB: Made before the event is handed over, with which the state before goes; the effect
    // is moved, not copied, when it is returned as it is.
    let returned: ReducerEffect
    if sendsNoAction {
      returned = consume effect
    } else {
      returned = self.host.watched(
        effect, recorder, action, id, route, stateBefore.pointee, state)
    }
    event.eventField(fields.id, Int.self).initialize(to: id)
    event.eventField(fields.action, Base.Action.self).initialize(to: action)
    event.eventField(fields.origin, ActionOrigin.self).initialize(to: origin)
    event.eventField(fields.stateAfter, Base.State.self).initialize(to: state)
    event.eventField(fields.route, [ActionRoute].self).initialize(to: consume route)
    event.eventField(fields.ownEffectCounts, [Int].self).initialize(to: consume ownEffectCounts)
    event.eventField(fields.timestamp, UInt64.self).initialize(to: start)
    event.eventField(fields.duration, UInt64.self).initialize(to: end &- start)
    let took = sharedValues.comparing {
      recorder.record(
        taking: event, of: Base.State.self, Base.Action.self, as: &modifier,
        mayCauseActions: !sendsNoAction)
    }
    if !took {
      fields.deinitialize(event, Base.State.self, Base.Action.self)
      layout.deallocate(event)
    }
    return returned
  }

  /// Whether `effect` sends no action.
  @inline(__always)
  private func cannotSendActions(_ effect: ReducerEffect) -> Bool {
    #if ComposableArchitecture
      // NB: The test alone is captured: a closure capturing `self` looks its type's metadata up.
      let test = self.host.effectNone
      return withUnsafePointer(to: effect) { test.isNone(at: $0) } ?? self.host.isNone(effect)
    #else
      self.host.cannotSendActions(effect)
    #endif
  }
}

#if ComposableArchitecture
  /// Counts the effects of a store that are running, so that ``RecordingStore/finish()`` can
  /// wait until there are none: TCA's `Store` does not say.
  final class RunningEffects<Action>: Sendable {
    private let state = Locked((count: 0, waiters: [CheckedContinuation<Void, Never>]()))
    /// What ends a counted effect: made once, not for each effect.
    private let end: Effect<Action>

    init() {
      let state = self.state
      self.end = .run { _ in Self.ended(state) }
    }

    /// `effect`, counted from now until it has completed or been cancelled.
    func track(_ effect: Effect<Action>) -> Effect<Action> {
      self.state.withLock { $0.count += 1 }
      // NB: A concatenated effect runs the next once the first completes or is cancelled. An
      // action an effect sends is reduced before its `send` returns, so the effects it
      // returns are counted before the sending one ends: the count is 0 only when all are done.
      return effect.concatenate(with: self.end)
    }

    private static func ended(
      _ state: Locked<(count: Int, waiters: [CheckedContinuation<Void, Never>])>
    ) {
      let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
        state.count -= 1
        guard state.count == 0 else { return [] }
        defer { state.waiters = [] }
        return state.waiters
      }
      for waiter in waiters { waiter.resume() }
    }

    /// Returns once no effect is running.
    func finished() async {
      await withCheckedContinuation { continuation in
        let isDone = self.state.withLock { state in
          if state.count == 0 { return true }
          state.waiters.append(continuation)
          return false
        }
        if isDone { continuation.resume() }
      }
    }
  }
#endif

extension UnsafeMutableRawPointer {
  /// The property at `offset` (one of ``ActionEventFields``') of the event here, whose memory is
  /// bound to the event type (``EventLayout/allocate()``), and so to its properties' types at
  /// their offsets.
  ///
  /// NB: A pointer, not a value: the caller initializes it with a value it owns, moved in.
  /// Handed to a function that is not specialized, a value was copied once more. In this file,
  /// so that it is inlined: called across modules, it was not.
  fileprivate func eventField<Value>(_ offset: Int, _: Value.Type) -> UnsafeMutablePointer<Value> {
    (self + offset).assumingMemoryBound(to: Value.self)
  }
}
