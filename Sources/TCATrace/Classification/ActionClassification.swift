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
    // the next step goes on from there.
    var next = EnumReflection.decompose(action)

    while let (name, payload) = next {
      append(name)
      let category = ActionCategory(caseName: name)
      if rootCategory == nil { rootCategory = category ?? .unclassified }

      switch category {
      case .view?, .delegate?:
        // The payload is the feature's own view or delegate action: name its case and stop.
        let (caseName, casePayload) = Self.innerCase(of: payload) ?? (name, payload)
        if caseName != name { append(caseName) }
        self.init(
          path: path, rootCategory: rootCategory!, feature: feature, category: category!,
          caseName: caseName, payload: casePayload.map(Self.render)
        )
        return

      case .internal?, .unclassified?, nil:
        // An internal case names one of the feature's internal actions; a case of a plain
        // enum names the action itself. Either may embed a child feature.
        let (fallbackCategory, caseName, casePayload): (ActionCategory, String, Any?)
        if category == .internal {
          guard let payload, let inner = EnumReflection.decompose(payload) else {
            self.init(
              path: path, rootCategory: rootCategory!, feature: feature, category: .internal,
              caseName: name, payload: payload.map(Self.render)
            )
            return
          }
          append(inner.name)
          (fallbackCategory, caseName, casePayload) = (.internal, inner.name, inner.payload)
        } else {
          (fallbackCategory, caseName, casePayload) = (.unclassified, name, payload)
        }

        switch Self.embeddedChild(name: caseName, payload: casePayload) {
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
          self.init(
            path: path, rootCategory: rootCategory!, feature: feature, category: .view,
            caseName: "dismiss", isDismiss: true
          )
          return
        case nil:
          self.init(
            path: path, rootCategory: rootCategory!, feature: feature,
            category: fallbackCategory, caseName: caseName, payload: casePayload.map(Self.render)
          )
          return
        }
      }
    }

    // Not an enum at all (an action that is a struct or a string): one unclassified case.
    self.init(
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
  private static func embeddedChild(name: String, payload: Any?) -> Embedding? {
    guard let payload, let (inner, innerPayload) = EnumReflection.decompose(payload) else {
      return nil
    }
    if ActionCategory(caseName: inner) != nil, inner != "internal" || innerPayload != nil {
      return .child(step: name, pathSuffix: "", action: payload, actionCase: (inner, innerPayload))
    }
    switch inner {
    case "presented":
      guard let innerPayload, let childCase = Self.featureActionCase(innerPayload) else { return nil }
      return .child(step: name, pathSuffix: ".presented", action: innerPayload, actionCase: childCase)
    case "dismiss" where innerPayload == nil:
      return .dismiss(step: name)
    case "element":
      guard
        let innerPayload,
        let (id, action) = Self.element(innerPayload),
        let childCase = Self.featureActionCase(action)
      else { return nil }
      let suffix = "[id: \(ActionRoute.ElementID.describe(id))]"
      return .child(step: name + suffix, pathSuffix: suffix, action: action, actionCase: childCase)
    default:
      return nil
    }
  }

  /// `value` taken apart, when it is a feature's action: its case is a category.
  private static func featureActionCase(_ value: Any) -> (name: String, payload: Any?)? {
    guard
      let actionCase = EnumReflection.decompose(value),
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

  /// The case name and associated value of an enum payload.
  private static func innerCase(of payload: Any?) -> (name: String, payload: Any?)? {
    payload.flatMap(EnumReflection.decompose)
  }

  /// A payload rendered as the state diff renders values: CustomDump's format.
  static func render(_ value: Any) -> String {
    StateDiff.render(value)
  }
}
