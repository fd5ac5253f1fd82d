/// An action taken apart along its case path: which feature owns it and in which category.
///
/// ```swift
/// ActionClassification(AppFeature.Action._internal(.login(._internal(.twoFactor(.view(.codeChanged("1")))))))
/// // path:         "_internal.login._internal.twoFactor.view.codeChanged"
/// // rootCategory: .internal
/// // feature:      ["login", "twoFactor"]
/// // category:     .view
/// // caseName:     "codeChanged"
/// ```
public struct ActionClassification: Hashable, Sendable {
  /// The action's case path, dotted: `_internal.todos._internal.rows[id: 3].view.toggleCompleted`.
  public var path: String
  /// The category of the action's outermost case.
  public var rootCategory: ActionCategory
  /// The chain of embedding cases from the root to the feature that owns the action:
  /// `["login", "twoFactor"]`, `["todos", "rows[id: 3]"]`; empty for the root feature.
  public var feature: [String]
  /// The action's category at the feature that owns it.
  public var category: ActionCategory
  /// The name of the innermost case: `codeChanged`.
  public var caseName: String
  /// Whether the action is a navigation container's own: a `PresentationAction.dismiss`, or a
  /// `StackAction.popFrom(id:)` or `push(id:state:)`. The view sends them, and the container
  /// changes its parent's state for them.
  public var isDismiss: Bool
  /// The innermost case's associated value, rendered with CustomDump; `nil` when it has none.
  public var payload: String?
  /// The depths of ``feature`` (1 for its first step) that are enum reducers
  /// (`@Reducer enum Destination`) rather than features: their cases are the features. A
  /// delegate action of such a case goes to the feature above the enum reducer.
  public var enumReducerDepths: Set<Int>

  /// A classification of nothing: what a record not yet analysed reads as (see `ActionRecord`).
  static var empty: ActionClassification {
    ActionClassification(
      path: "", rootCategory: .unclassified, feature: [], category: .unclassified, caseName: "")
  }

  /// The owning feature's path, dotted: `login.twoFactor`; empty for the root.
  public var featurePath: String {
    self.feature.joined(separator: ".")
  }

  public init(
    path: String,
    rootCategory: ActionCategory,
    feature: [String],
    category: ActionCategory,
    caseName: String,
    isDismiss: Bool = false,
    payload: String? = nil,
    enumReducerDepths: Set<Int> = []
  ) {
    self.path = path
    self.rootCategory = rootCategory
    self.feature = feature
    self.category = category
    self.caseName = caseName
    self.isDismiss = isDismiss
    self.payload = payload
    self.enumReducerDepths = enumReducerDepths
  }
}

extension ActionClassification {
  /// Classifies `action` by reflection.
  ///
  /// Cases named `view`, `delegate` and `_internal`/`internal` set the category; a case of
  /// `InternalAction` (or of a plain enum) whose associated value is itself such an action
  /// embeds a child feature. `presented`/`dismiss` and `element(id:action:)` are looked
  /// through; the element's id becomes part of the path. A plain enum without boundary cases
  /// is `unclassified`.
  public init(_ action: Any) {
    var trace = ClassificationTrace()
    self = Self.classify(action, trace: &trace)
  }

  /// Classifies `action` by reflection, noting in `trace` what the result depended on.
  static func classify(_ action: Any, trace: inout ClassificationTrace) -> Self {
    // NB: The path is built as one string; joining an array of names was a fifth of
    // classifying an action.
    var path = ""
    var lastName: String?
    var feature: [String] = []
    func append(_ name: String) {
      if !path.isEmpty { path += "." }
      path += name
      lastName = name
    }
    /// Adds a child's feature step, and what follows its embedding case in the path: `.presented`
    /// as a case of its own, `[id: 3]` to the case's name.
    func enter(_ step: String, pathSuffix: String) {
      if pathSuffix.hasPrefix(".") {
        append(String(pathSuffix.dropFirst()))
      } else {
        path += pathSuffix
        lastName? += pathSuffix
      }
      feature.append(step)
    }
    var enumReducerDepths: Set<Int> = []
    var rootCategory: ActionCategory?
    var current: Any = action
    // NB: Each action is taken apart once: finding a child takes the child's action apart, and
    // the next step goes on from there. Every level taken apart is the case of the previous
    // level's payload, so `trace.levels - 1` is the level last taken apart.
    var next = trace.decompose(action)

    while let (name, payload) = next {
      append(name)
      let category = ActionCategory(caseName: name)
      if rootCategory == nil { rootCategory = category ?? .unclassified }

      switch category {
      case .view?, .delegate?:
        // The payload is the feature's own view or delegate action: name its case and stop.
        let (caseName, casePayload) = payload.flatMap { trace.decompose($0) } ?? (name, payload)
        if caseName != name { append(caseName) }
        trace.payloadLevel = casePayload == nil ? nil : trace.levels - 1
        return Self(
          path: path, rootCategory: rootCategory!, feature: feature, category: category!,
          caseName: caseName, payload: casePayload.map(Self.render),
          enumReducerDepths: enumReducerDepths
        )

      case .internal?, .unclassified?, nil:
        // An internal case names one of the feature's internal actions; a case of a plain
        // enum names the action itself. Either may embed a child feature.
        let (fallbackCategory, caseName, casePayload): (ActionCategory, String, Any?)
        if category == .internal {
          guard let payload, let inner = trace.decompose(payload) else {
            trace.payloadLevel = payload == nil ? nil : trace.levels - 1
            return Self(
              path: path, rootCategory: rootCategory!, feature: feature, category: .internal,
              caseName: name, payload: payload.map(Self.render),
              enumReducerDepths: enumReducerDepths
            )
          }
          append(inner.name)
          (fallbackCategory, caseName, casePayload) = (.internal, inner.name, inner.payload)
        } else {
          (fallbackCategory, caseName, casePayload) = (.unclassified, name, payload)
        }
        let caseLevel = trace.levels - 1

        switch Self.embeddedChild(name: caseName, payload: casePayload, trace: &trace) {
        case let .child(step, pathSuffix, caseStep, child, childCase):
          enter(step, pathSuffix: pathSuffix)
          if let caseStep {
            append(caseStep)
            enumReducerDepths.insert(feature.count)
            feature.append(caseStep)
          }
          (current, next) = (child, childCase)
        case let .navigation(step, caseName, payload):
          append(caseName)
          feature.append(step)
          trace.payloadLevel = payload == nil ? nil : trace.levels - 1
          return Self(
            path: path, rootCategory: rootCategory!, feature: feature, category: .view,
            caseName: caseName, isDismiss: true, payload: payload.map(Self.render),
            enumReducerDepths: enumReducerDepths
          )
        case let .plain(step, pathSuffix, names, payload):
          enter(step, pathSuffix: pathSuffix)
          names.forEach(append)
          trace.payloadLevel = payload == nil ? nil : trace.levels - 1
          return Self(
            path: path, rootCategory: rootCategory!, feature: feature, category: .unclassified,
            caseName: names.last!, payload: payload.map(Self.render),
            enumReducerDepths: enumReducerDepths
          )
        case nil:
          trace.payloadLevel = casePayload == nil ? nil : caseLevel
          return Self(
            path: path, rootCategory: rootCategory!, feature: feature,
            category: fallbackCategory, caseName: caseName, payload: casePayload.map(Self.render),
            enumReducerDepths: enumReducerDepths
          )
        }
      }
    }

    // Not an enum at all (an action that is a struct or a string): one unclassified case.
    trace.isCacheable = false
    return Self(
      path: path,
      rootCategory: rootCategory ?? .unclassified,
      feature: feature,
      category: .unclassified,
      caseName: lastName ?? String(describing: type(of: current)),
      payload: path.isEmpty ? Self.render(current) : nil,
      enumReducerDepths: enumReducerDepths
    )
  }

  private enum Embedding {
    /// A child feature: its feature step, what to add to the path right after the embedding
    /// case (`[id: 3]`, `.presented`), the case of an enum reducer the child is in (`book` of
    /// `.presented(.book(…))`), the child's action, and that action taken apart.
    case child(
      step: String, pathSuffix: String, caseStep: String?, action: Any,
      actionCase: (name: String, payload: Any?)
    )
    /// A navigation container's own action: a presented child dismissed, a stack popped or
    /// pushed.
    case navigation(step: String, caseName: String, payload: Any?)
    /// A child whose action is a plain enum: its feature step, what to add to the path after
    /// the embedding case, its action's cases from the outside in, and the innermost payload.
    case plain(step: String, pathSuffix: String, names: [String], payload: Any?)
  }

  /// Whether the case `name` with `payload` embeds a child feature's action.
  private static func embeddedChild(
    name: String, payload: Any?, trace: inout ClassificationTrace
  ) -> Embedding? {
    guard let payload, let (inner, innerPayload) = trace.decompose(payload) else {
      return nil
    }
    if ActionCategory(caseName: inner) != nil, inner != "internal" || innerPayload != nil {
      return .child(
        step: name, pathSuffix: "", caseStep: nil, action: payload,
        actionCase: (inner, innerPayload)
      )
    }
    switch inner {
    case "presented":
      guard let innerPayload else { return nil }
      guard let child = Self.featureAction(innerPayload, trace: &trace) else {
        return Self.plainChild(
          step: name, pathSuffix: ".presented", action: innerPayload, trace: &trace)
      }
      return .child(
        step: name, pathSuffix: ".presented", caseStep: child.caseStep, action: child.action,
        actionCase: child.actionCase
      )
    case "dismiss" where innerPayload == nil:
      return .navigation(step: name, caseName: "dismiss", payload: nil)
    case "popFrom", "push":
      // NB: `StackAction`'s own cases, which carry the element's id.
      trace.isCacheable = false
      guard let innerPayload, Self.stackPayload(innerPayload) else { return nil }
      return .navigation(step: name, caseName: inner, payload: innerPayload)
    case "element":
      // NB: The element's id is part of the path: the result depends on more than cases.
      trace.isCacheable = false
      guard let innerPayload, let (id, action) = Self.element(innerPayload) else { return nil }
      let suffix = "[id: \(ActionRoute.ElementID.describe(id))]"
      guard let child = Self.featureAction(action, trace: &trace) else {
        return Self.plainChild(
          step: name + suffix, pathSuffix: suffix, action: action, trace: &trace)
      }
      return .child(
        step: name + suffix, pathSuffix: suffix, caseStep: child.caseStep, action: child.action,
        actionCase: child.actionCase
      )
    default:
      // NB: An enum reducer scoped as a whole (`Scope(state: \.mode, action: \.mode)`): its
      // case holds a feature's action.
      if let innerPayload, let featureCase = trace.decompose(innerPayload) {
        if ActionCategory(caseName: featureCase.name) != nil {
          return .child(
            step: name, pathSuffix: "", caseStep: inner, action: innerPayload,
            actionCase: featureCase
          )
        }
        guard Self.isFeatureAction(payload) else { return nil }
        // NB: The child's case's payload is taken apart again as the child's, a level down.
        trace.levels -= 1
      }
      // A child feature's action without boundary cases (TicTacToe's `.login(.loginResponse)`,
      // a `Scope` or `ifCaseLet` of a feature written as TCA's examples are): the child owns it.
      guard Self.isFeatureAction(payload) else { return nil }
      return .child(
        step: name, pathSuffix: "", caseStep: nil, action: payload,
        actionCase: (inner, innerPayload)
      )
    }
  }

  /// Whether `value` is a feature's action: a value of a type named `Action`, as a reducer's
  /// is (`Login.Action`), not a payload of the feature's own (`Result`, an alert's `Alert`).
  private static func isFeatureAction(_ value: Any) -> Bool {
    String(describing: type(of: value)) == "Action"
  }

  /// A presented or stacked child whose action has no boundary cases (an alert's actions, in
  /// an enum reducer's `alert` case): the route to it is allowed, and its action is
  /// unclassified, named down to its innermost case.
  private static func plainChild(
    step: String, pathSuffix: String, action: Any, trace: inout ClassificationTrace
  ) -> Embedding? {
    // NB: `featureAction` took the first levels apart already: the chain of levels the cache
    // keys results by is not kept here, and the result is not kept.
    trace.isCacheable = false
    var names: [String] = []
    var payload: Any? = action
    while let value = payload, let (name, inner) = trace.decompose(value) {
      names.append(name)
      payload = inner
    }
    guard !names.isEmpty else { return nil }
    return .plain(step: step, pathSuffix: pathSuffix, names: names, payload: payload)
  }

  /// `value` taken apart, when it is a feature's action (its case is a category), or the
  /// action of an enum reducer (`@Reducer enum Destination`) whose case holds one: then
  /// `caseStep` names the case, and `action` is the feature's action in it.
  private static func featureAction(
    _ value: Any, trace: inout ClassificationTrace
  ) -> (caseStep: String?, action: Any, actionCase: (name: String, payload: Any?))? {
    guard let actionCase = trace.decompose(value) else { return nil }
    if ActionCategory(caseName: actionCase.name) != nil {
      return (nil, value, actionCase)
    }
    guard let featureAction = actionCase.payload, let featureCase = trace.decompose(featureAction)
    else { return nil }
    if ActionCategory(caseName: featureCase.name) == nil {
      // NB: An enum reducer's case that holds a feature's action without boundary cases
      // (`.book(Book.Action.tapped)`); another value (an alert's action) is a plain child's.
      guard Self.isFeatureAction(featureAction) else { return nil }
    }
    return (actionCase.name, featureAction, featureCase)
  }

  /// Whether `payload` is a `StackAction`'s `popFrom(id:)` or `push(id:state:)`.
  private static func stackPayload(_ payload: Any) -> Bool {
    payload is StackElementID || Mirror(reflecting: payload).children.first?.label == "id"
  }

  /// The `(id:action:)` payload of an `element` case.
  private static func element(_ payload: Any) -> (id: Any, action: Any)? {
    let children = Array(Mirror(reflecting: payload).children)
    guard
      children.count == 2, children[0].label == "id", children[1].label == "action"
    else { return nil }
    return (children[0].value, children[1].value)
  }

  /// A payload rendered as the state diff renders values: CustomDump's format.
  static func render(_ value: Any) -> String {
    StateDiff.render(value)
  }
}

/// What a classification depended on, besides the action's type: what a cache of
/// classifications needs to know.
///
/// Classifying takes an action apart level by level: level 0 is the action's case, level
/// `i + 1` the case of level `i`'s payload. A result depends on the cases of the levels taken
/// apart, and on the payload it renders — unless it is not cacheable.
struct ClassificationTrace {
  /// How many levels were taken apart.
  var levels = 0
  /// The level whose payload the classification renders; `nil` when it renders none.
  var payloadLevel: Int?
  /// Whether the result depends on nothing but the levels' cases and one payload: not so for
  /// an element's id, or an action that is not an enum.
  var isCacheable = true

  /// `value`, the payload of the level last taken apart, taken apart.
  mutating func decompose(_ value: Any) -> (name: String, payload: Any?)? {
    let decomposed = EnumReflection.decompose(value)
    if decomposed != nil { self.levels += 1 }
    return decomposed
  }
}
