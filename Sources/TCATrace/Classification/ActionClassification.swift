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
  /// Whether the action is a `PresentationAction.dismiss` of a presented child.
  public var isDismiss: Bool
  /// The innermost case's associated value, rendered with CustomDump; `nil` when it has none.
  public var payload: String?

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
    payload: String? = nil
  ) {
    self.path = path
    self.rootCategory = rootCategory
    self.feature = feature
    self.category = category
    self.caseName = caseName
    self.isDismiss = isDismiss
    self.payload = payload
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
    func append(_ name: String) {
      if !path.isEmpty { path += "." }
      path += name
      lastName = name
    }
    var feature: [String] = []
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
          caseName: caseName, payload: casePayload.map(Self.render)
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
              caseName: name, payload: payload.map(Self.render)
            )
          }
          append(inner.name)
          (fallbackCategory, caseName, casePayload) = (.internal, inner.name, inner.payload)
        } else {
          (fallbackCategory, caseName, casePayload) = (.unclassified, name, payload)
        }
        let caseLevel = trace.levels - 1

        switch Self.embeddedChild(name: caseName, payload: casePayload, trace: &trace) {
        case let .child(step, pathSuffix, child, childCase):
          if pathSuffix.hasPrefix(".") {
            append(String(pathSuffix.dropFirst()))
          } else {
            path += pathSuffix
            lastName? += pathSuffix
          }
          feature.append(step)
          (current, next) = (child, childCase)
        case let .dismiss(step):
          append("dismiss")
          feature.append(step)
          trace.payloadLevel = nil
          return Self(
            path: path, rootCategory: rootCategory!, feature: feature, category: .view,
            caseName: "dismiss", isDismiss: true
          )
        case nil:
          trace.payloadLevel = casePayload == nil ? nil : caseLevel
          return Self(
            path: path, rootCategory: rootCategory!, feature: feature,
            category: fallbackCategory, caseName: caseName, payload: casePayload.map(Self.render)
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
      payload: path.isEmpty ? Self.render(current) : nil
    )
  }

  private enum Embedding {
    /// A child feature: its feature step, what to add to the path right after the embedding
    /// case (`[id: 3]`, `.presented`), the child's action, and that action taken apart.
    case child(
      step: String, pathSuffix: String, action: Any, actionCase: (name: String, payload: Any?)
    )
    /// A presented child being dismissed.
    case dismiss(step: String)
  }

  /// Whether the case `name` with `payload` embeds a child feature's action.
  private static func embeddedChild(
    name: String, payload: Any?, trace: inout ClassificationTrace
  ) -> Embedding? {
    guard let payload, let (inner, innerPayload) = trace.decompose(payload) else {
      return nil
    }
    if ActionCategory(caseName: inner) != nil, inner != "internal" || innerPayload != nil {
      return .child(step: name, pathSuffix: "", action: payload, actionCase: (inner, innerPayload))
    }
    switch inner {
    case "presented":
      guard let innerPayload, let childCase = Self.featureActionCase(innerPayload, trace: &trace)
      else { return nil }
      return .child(step: name, pathSuffix: ".presented", action: innerPayload, actionCase: childCase)
    case "dismiss" where innerPayload == nil:
      return .dismiss(step: name)
    case "element":
      // NB: The element's id is part of the path: the result depends on more than cases.
      trace.isCacheable = false
      guard
        let innerPayload,
        let (id, action) = Self.element(innerPayload),
        let childCase = Self.featureActionCase(action, trace: &trace)
      else { return nil }
      let suffix = "[id: \(ActionRoute.ElementID.describe(id))]"
      return .child(step: name + suffix, pathSuffix: suffix, action: action, actionCase: childCase)
    default:
      return nil
    }
  }

  /// `value` taken apart, when it is a feature's action: its case is a category.
  private static func featureActionCase(
    _ value: Any, trace: inout ClassificationTrace
  ) -> (name: String, payload: Any?)? {
    guard
      let actionCase = trace.decompose(value),
      ActionCategory(caseName: actionCase.name) != nil
    else { return nil }
    return actionCase
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
