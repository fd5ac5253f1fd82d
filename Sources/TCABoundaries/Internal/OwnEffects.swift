import ActionObservation

#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif

extension Effect {
  /// How many effects this is, as a route step counts them: `Composable` counts each merged
  /// effect; on TCA, which merges effects into one, it is 0 for `.none` and 1 otherwise.
  package var effectCount: Int {
    #if ComposableArchitecture
      self.cannotSendActions ? 0 : 1
    #else
      self.operationCount
    #endif
  }

  #if ComposableArchitecture
    /// Whether this is `.none`: TCA's `Effect` keeps its operation private, and only says what
    /// it is through reflection.
    package var cannotSendActions: Bool {
      guard let operation = Mirror(reflecting: self).children.first?.value else { return false }
      return String(describing: operation) == "none"
    }
  #endif
}

/// Tells a recorder the effects a feature with the boundaries returned itself for an action.
///
/// On TCA a recorder cannot see which reducer along an action's route returned which effects
/// (TCA merges them); a `BoundingReducer`'s own reduce and `Reduce(view:internal:)` say it.
/// `Composable`'s scoping reducers count them themselves: there this does nothing.
@usableFromInline
func reportOwnEffects<Action>(_ effect: Effect<Action>, of _: Action.Type) {
  #if ComposableArchitecture
    guard ActionRouting.collector != nil else { return }
    ActionRouting.reportOwnEffects(effect.effectCount, actionType: ObjectIdentifier(Action.self))
  #endif
}

#if ComposableArchitecture
  extension Reducer where Action: TCAFeatureAction, Body: Reducer<State, Action> {
    /// Runs the feature's `body`, and tells a recorder the effects it returned in all.
    ///
    /// TCA's `Scope`, `ifLet` and `forEach` call a child through this requirement; this is
    /// TCA's own default for a reducer with a `body`, for a feature with the boundaries, plus
    /// the report. Knowing what a feature returned in all, a recorder knows that the feature
    /// above it returned an effect itself when the feature returned none and its parent one,
    /// whatever reducer it was written with.
    @inlinable
    public func _reduce(into state: inout State, action: Action) -> Effect<Action> {
      let effect = self.body._reduce(into: &state, action: action)
      reportTotalEffects(effect, of: Action.self)
      return effect
    }
  }
#endif

/// Tells a recorder the effects a feature with the boundaries returned in all, its children's
/// included (on TCA; `Composable`'s scoping reducers count them themselves).
@usableFromInline
func reportTotalEffects<Action>(_ effect: Effect<Action>, of _: Action.Type) {
  #if ComposableArchitecture
    guard ActionRouting.collector != nil else { return }
    ActionRouting.reportTotalEffects(effect.effectCount, actionType: ObjectIdentifier(Action.self))
  #endif
}
