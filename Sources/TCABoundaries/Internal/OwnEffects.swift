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

/// Tells a recorder the effects a feature with the boundaries returned for an action: itself
/// (`.own`) or in all, its children's included (`.all`).
///
/// On TCA a recorder cannot see which reducer along an action's route returned which effects
/// (TCA merges them): a `BoundingReducer`'s own reduce and `Reduce(view:internal:)` say what
/// they returned themselves, and a feature's `body` what it returned in all.
/// `Composable`'s scoping reducers count them themselves: there this does nothing.
@usableFromInline
func reportEffects<Action>(_ effect: Effect<Action>, of _: Action.Type, _ scope: EffectScope) {
  #if ComposableArchitecture
    guard ActionRouting.collector != nil else { return }
    let (count, actionType) = (effect.effectCount, ObjectIdentifier(Action.self))
    switch scope {
    case .own: ActionRouting.reportOwnEffects(count, actionType: actionType)
    case .all: ActionRouting.reportTotalEffects(count, actionType: actionType)
    }
  #endif
}

/// Which effects ``reportEffects(_:of:_:)`` reports.
@usableFromInline
enum EffectScope {
  case own
  case all
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
      reportEffects(effect, of: Action.self, .all)
      return effect
    }
  }
#endif
