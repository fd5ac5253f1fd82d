#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif
import Dispatch

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
  /// `nil` for a ``RecordingStore`` that is not recorded.
  let recorder: TraceRecorder?

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let recorder = self.recorder else { return self.base.reduce(into: &state, action: action) }
    _ = recorder.beginSession(rootFeature: String(describing: Base.self))
    let (id, origin) = recorder.nextModifierEvent()
    let stateBefore = state
    let start = DispatchTime.now().uptimeNanoseconds
    let (effect, route, ownEffectCounts) = collectingRoute(of: action, from: stateBefore) {
      self.base.reduce(into: &state, action: action)
    }
    let end = DispatchTime.now().uptimeNanoseconds
    let event = ActionEvent(
      id: id, action: action, origin: origin, stateBefore: stateBefore, stateAfter: state,
      route: route, ownEffectCounts: ownEffectCounts, timestamp: start, duration: end &- start
    )
    comparingSharedValues { recorder.record(event) }
    // NB: `map`'s transform runs when the effect sends, right before the store receives the
    // action: that is how the next action is known to come from this one's effect.
    return effect.map { action in
      recorder.modifierEffectWillSend(cause: id)
      return action
    }
  }
}
