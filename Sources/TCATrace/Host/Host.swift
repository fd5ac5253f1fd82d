// NB: What the recorder needs of its host that the two hosts' public APIs do not share: the
// only file of this module that knows which host it is built for. `Composable` reports the
// route each action takes and keeps shared values' earlier values; on pointfreeco's TCA,
// routes come from `TCABoundaries`' scoping reducers and shared values are not tracked.

#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif
import ActionObservation

/// The runtime the recorder is built against, as a session's `recorder_version` says it:
/// `0.1.0` on `Composable`, `0.1.0+ComposableArchitecture` on pointfreeco's TCA (semantic
/// versioning's build metadata). `tcatrace test` imports the module it names.
enum RecordingHost {
  static var versionSuffix: String {
    #if ComposableArchitecture
      "+ComposableArchitecture"
    #else
      ""
    #endif
  }
}

extension Effect {
  /// How many effects this is, as a route step counts them: `Composable` counts each merged
  /// effect; on TCA, which merges effects into one, it is 0 for `.none` and 1 otherwise.
  var effectCount: Int {
    #if ComposableArchitecture
      self.cannotSendActions ? 0 : 1
    #else
      self.operationCount
    #endif
  }

  #if ComposableArchitecture
    /// Whether this is `.none`: TCA's `Effect` keeps its operation private, and only says what
    /// it is through reflection.
    var cannotSendActions: Bool {
      guard let operation = Mirror(reflecting: self).children.first?.value else { return false }
      return String(describing: operation) == "none"
    }
  #endif
}

/// Runs `body`, a reducer call, for `action` from `stateBefore`, and tells the route the action
/// took and the effects each reducer along it returned itself.
///
/// `Composable`'s `Scope`, `ifLet` and `forEach` report the route as they run (see
/// `collectingActionRoute(_:effectCount:)`). On TCA the route is read from the action and the
/// state (``RouteDerivation``), and which reducer along it returned which effects is not known
/// (TCA merges them into one): every count is 0, so no rule judges a feature by the effects
/// it returned.
func collectingRoute<State, Action>(
  of action: Action, from stateBefore: State, _ body: () -> Effect<Action>
) -> (effect: Effect<Action>, route: [ActionRoute], ownEffectCounts: [Int]) {
  #if ComposableArchitecture
    let effect = body()
    let route = RouteDerivation.route(of: action, in: stateBefore)
    return (effect, route, Array(repeating: 0, count: route.count + 1))
  #else
    let (effect, route, counts) = collectingActionRoute(body, effectCount: { $0.effectCount })
    return (effect, route, counts)
  #endif
}

/// Runs `body`, which records an action, so that shared values compare their values before the
/// action with now: `Composable`'s store kept the former (see `SharedChangeTracker`).
func comparingSharedValues(_ body: () -> Void) {
  #if ComposableArchitecture
    body()
  #else
    if let sharedChanges = SharedChangeTracker.current {
      sharedChanges.comparing(body)
    } else {
      body()
    }
  #endif
}

#if ComposableArchitecture
  /// A TCA `BindingAction` as `Composable`'s reads, `.set(\.displayName, "Blob")`; `nil` for
  /// any other value. TCA's prints its key path whole (`\State.displayName`).
  func renderedBindingAction(_ value: Any) -> String? {
    guard String(reflecting: type(of: value)).hasPrefix("ComposableArchitecture.BindingAction<")
    else { return nil }
    let children = Mirror(reflecting: value).children
    guard
      let keyPath = children.first(where: { $0.label == "keyPath" })?.value as? AnyKeyPath,
      let bound = children.first(where: { $0.label == "value" })?.value
    else { return nil }
    return ".set(\\.\(KeyPathNames.name(of: keyPath)), \(StateDiff.render(bound)))"
  }

  extension PresentationState: _TransparentStateWrapper {
    package var wrappedState: Any { self.wrappedValue as Any }
  }
#endif
