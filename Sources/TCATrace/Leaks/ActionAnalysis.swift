import RuntimeSupport

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
    let rootName = rootName ?? Self.rootName(of: Action.self)
    self = withUnsafePointer(to: event.action) { action in
      withUnsafePointer(to: event.stateBefore) { before in
        withUnsafePointer(to: event.stateAfter) { after in
          ActionAnalysis(
            action: UnsafeRawPointer(action), actionValue: { action.pointee },
            classifier: ActionClassifier.of(Action.self), before: UnsafeRawPointer(before),
            after: UnsafeRawPointer(after), stateKind: NodeKind.of(State.self),
            origin: event.origin, route: event.route, ownEffectCounts: event.ownEffectCounts,
            rootName: rootName
          )
        }
      }
    }
  }

  /// Analyses an action from its values in place: the action at `action`, whose value
  /// `actionValue` boxes, and the states before and after, of `stateKind`'s type.
  init(
    action: UnsafeRawPointer, actionValue: () -> Any, classifier: ActionClassifier?,
    before: UnsafeRawPointer, after: UnsafeRawPointer, stateKind: NodeKind, origin: ActionOrigin,
    route: [ActionRoute], ownEffectCounts: [Int], rootName: String
  ) {
    var classification =
      classifier?.classify(at: action, value: actionValue) ?? ActionClassification(actionValue())
    (self.changes, self.leaks, _) = Self.analyse(
      before: before, after: after, stateKind: stateKind, classification: &classification,
      origin: origin, route: route, ownEffectCounts: ownEffectCounts, rootName: rootName
    )
    self.classification = classification
  }

  /// The analysis of an action from its values in place, as separate values: the recorder
  /// moves each into its record, where copying them out of an `ActionAnalysis` retained and
  /// released each of their strings. With them, the route's state path (`route.statePath`),
  /// which the leak rules read too: read once, it is named once.
  ///
  /// `classification` is the action's, already in its record: a binding action's payload is
  /// named in place (see ``namingBinding(_:changes:statePath:)``). Returned, it was copied into
  /// the record and the returned one destroyed: the optimizer did not move it.
  static func analyse(
    before: UnsafeRawPointer, after: UnsafeRawPointer, stateKind: NodeKind,
    classification: inout ActionClassification, origin: ActionOrigin,
    route: [ActionRoute], ownEffectCounts: [Int], rootName: String
  ) -> (changes: [StateChange], leaks: [Leak], statePath: String) {
    let changes = StateDiff.changes(from: before, to: after, kind: stateKind)
    let statePath = route.statePath
    if let payload = classification.payload, payload.hasPrefix(".set(\\.<computed 0x") {
      classification.payload = Self.namingBinding(
        payload, changes: changes.list, statePath: statePath)
    }
    let leaks = LeakRules.leaks(
      classification,
      origin: origin,
      input: LeakRules.Input(
        classification: classification, origin: origin, route: route, statePath: statePath,
        ownEffectCounts: ownEffectCounts, changes: changes.list,
        sharedPaths: changes.sharedPaths, rootName: rootName
      )
    )
    return (changes.list, leaks, statePath)
  }

  /// A binding action's payload whose key path the program cannot name (`.set(\.<computed 0x…
  /// (String)>, "Blob")`, in a stripped build where its type has several properties of that
  /// type) named from what it did: the one change below the feature's state that set the bound
  /// value (`.set(\.displayName, "Blob")`). As it was when no one change did.
  static func namingBinding(_ payload: String, changes: [StateChange], statePath: String) -> String
  {
    // NB: `.set(\.` key path `, ` value `)`: the key path's `, ` are inside the parentheses
    // around its components' types.
    guard payload.hasSuffix(")") else { return payload }
    let keyPath = payload.index(payload.startIndex, offsetBy: ".set(\\.".count)
    guard let separator = payload.firstIndex(from: keyPath, outsideParentheses: { $0 == "," }),
      payload[payload.index(after: separator)...].hasPrefix(" ")
    else {
      return payload
    }
    let value = payload[
      payload.index(separator, offsetBy: 2)..<payload.index(before: payload.endIndex)]
    let prefix = statePath.isEmpty ? "" : statePath + "."
    let named = changes.filter { $0.new.map { $0 == value } == true && $0.path.hasPrefix(prefix) }
    guard named.count == 1, case let relative = named[0].path.dropFirst(prefix.count),
      !relative.isEmpty,
      !relative.contains("[")
    else { return payload }
    return ".set(\\.\(relative), \(value))"
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
