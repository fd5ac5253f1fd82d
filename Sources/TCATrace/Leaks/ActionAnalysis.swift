/// Everything TCATrace derives from one processed action: its classification, the state
/// changes it caused, and the boundary rules it broke.
///
/// ```swift
/// let store = Store(initialState: LeakyParentFeature.State(), observer: { event in
///   let analysis = ActionAnalysis(event, rootName: "LeakyParentFeature")
///   print(analysis.leaks.map(\.rule))
/// }) {
///   LeakyParentFeature()
/// }
/// store.send(._internal(.child(.view(.buttonTapped))))
/// // [.parentReactsToPrivateChildAction]
/// ```
public struct ActionAnalysis: Sendable {
  public var classification: ActionClassification
  public var changes: [StateChange]
  public var leaks: [Leak]

  /// Analyses `event`.
  ///
  /// - Parameters:
  ///   - event: An action as a store processed it.
  ///   - rootName: How leak details name the root feature. Default: the type name of the
  ///     action's enclosing type (`AppFeature` for `AppFeature.Action`).
  public init<State, Action>(_ event: ActionEvent<State, Action>, rootName: String? = nil) {
    self.init(
      event, rootName: rootName, stateKind: NodeKind.of(State.self),
      classifier: ActionClassifier.of(Action.self)
    )
  }

  /// Analyses `event`, whose state's kind and action's classifier the caller knows.
  init<State, Action>(
    _ event: ActionEvent<State, Action>, rootName: String?, stateKind: NodeKind,
    classifier: ActionClassifier?
  ) {
    self.classification = classifier?.classify(event.action) ?? ActionClassification(event.action)
    self.changes = StateDiff.changes(from: event.stateBefore, to: event.stateAfter, kind: stateKind)
    self.leaks = LeakRules.leaks(
      LeakRules.Input(
        classification: self.classification,
        origin: event.origin,
        route: event.route,
        ownEffectCounts: event.ownEffectCounts,
        changes: self.changes,
        rootName: rootName ?? Self.rootName(of: Action.self)
      )
    )
  }

  /// `AppFeature` for `AppFeature.Action`; the type's own name otherwise.
  static func rootName(of actionType: Any.Type) -> String {
    let name = String(reflecting: actionType)
    let parts = name.split(separator: ".")
    // NB: `Module.Feature.Action`: the feature is the part before `Action`.
    if parts.count >= 2, parts.last == "Action" { return String(parts[parts.count - 2]) }
    return String(describing: actionType)
  }
}
