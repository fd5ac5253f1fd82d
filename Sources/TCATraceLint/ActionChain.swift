import SwiftSyntax

/// The cases an action pattern or an action expression names, outermost first:
/// `._internal(.userSettings(.view(.tapped)))` is `_internal`, `userSettings`, `view`, `tapped`.
///
/// `presented` (of a presentation action) and `element(id:action:)` (of an identified action)
/// only carry a child's action; they are left out, so a child's steps follow its embedding
/// case directly whatever the container.
struct ActionChain {
  struct Step {
    let name: String
    /// The case's name token: where a finding about this step points.
    let token: TokenSyntax
  }

  var steps: [Step] = []
  /// The indices of the steps whose payload was an `element(id:action:)` or `presented`: the
  /// steps that route to a child in a collection, a stack or a presentation.
  var routingSteps: Set<Int> = []
  /// How the chain ends after its last step: `true` when the last case's payload is
  /// something the syntax does not show (a bound variable, a call); `false` when the case has
  /// no payload, or a literal one.
  var endsOpen = false

  var names: [String] { self.steps.map(\.name) }

  /// The chain of `expression`; empty when it does not start with a case (`.name` or
  /// `Type.name`).
  init(_ expression: ExprSyntax) {
    self.append(expression)
  }

  init(_ pattern: PatternSyntax) {
    self.append(pattern)
  }

  /// The chain of a case key path, `\.internal.refresh`: its components, each a case. What
  /// follows the last one is a value the caller gives (`sending`), never a child's action.
  init(_ keyPath: KeyPathExprSyntax) {
    for component in keyPath.components {
      switch component.component {
      case let .property(property):
        self.steps.append(
          Step(name: property.declName.baseName.text, token: property.declName.baseName))
      case .subscript:
        // NB: `\._internal.rows[id: 1].view.tapped`: an element of a collection of children.
        if !self.steps.isEmpty { self.routingSteps.insert(self.steps.count - 1) }
      default:
        continue
      }
    }
  }

  private mutating func append(_ pattern: PatternSyntax) {
    if let binding = pattern.as(ValueBindingPatternSyntax.self) {
      self.append(binding.pattern)
    } else if let expression = pattern.as(ExpressionPatternSyntax.self) {
      self.append(expression.expression)
    } else if pattern.is(IdentifierPatternSyntax.self) {
      self.endsOpen = !self.steps.isEmpty
    }
  }

  /// The child's action in the arguments of an `(id:action:)` case: the one labelled `action`,
  /// or, of two unlabelled ones, the second when it is a category case.
  private static func elementAction(_ arguments: [LabeledExprSyntax]) -> ExprSyntax? {
    guard arguments.count == 2 else { return nil }
    if arguments[1].label?.text == "action" { return arguments[1].expression }
    guard arguments.allSatisfy({ $0.label == nil }) else { return nil }
    let second = arguments[1].expression
    let name =
      second.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)?
      .declName.baseName.text
      ?? second.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    return name.flatMap(Boundary.childCategoryKind) != nil ? second : nil
  }

  private mutating func append(_ expression: ExprSyntax) {
    if let call = expression.as(FunctionCallExprSyntax.self) {
      guard let member = call.calledExpression.as(MemberAccessExprSyntax.self) else {
        self.endsOpen = !self.steps.isEmpty
        return
      }
      let name = member.declName.baseName
      let arguments = Array(call.arguments)
      switch name.text {
      case "element" where arguments.contains { $0.label?.text == "action" }:
        if !self.steps.isEmpty { self.routingSteps.insert(self.steps.count - 1) }
        if let action = arguments.first(where: { $0.label?.text == "action" }) {
          self.append(action.expression)
        }
      case "presented" where arguments.count == 1 && !self.steps.isEmpty:
        self.routingSteps.insert(self.steps.count - 1)
        self.append(arguments[0].expression)
      default:
        self.steps.append(Step(name: name.text, token: name))
        // NB: A case that embeds a child has one unlabelled associated value, the child's
        // action; a labelled one, or several, are the action's own values: the chain ends.
        // Except for the embedding of a child in a collection before `IdentifiedAction`,
        // `rows(id:action:)`, which a pattern may match without labels: `.rows(id, .view)`.
        if let first = arguments.first, arguments.count == 1, first.label == nil {
          self.append(first.expression)
        } else if let action = Self.elementAction(arguments) {
          self.routingSteps.insert(self.steps.count - 1)
          self.append(action)
        }
      }
    } else if let member = expression.as(MemberAccessExprSyntax.self) {
      // NB: `.tapped`, `Feature.Action.view`: a case without arguments. A base that is itself
      // a case (`.some.view`) does not occur in action patterns.
      self.steps.append(Step(name: member.declName.baseName.text, token: member.declName.baseName))
    } else if let pattern = expression.as(PatternExprSyntax.self) {
      self.append(pattern.pattern)
    } else if expression.is(DiscardAssignmentExprSyntax.self)
      || expression.is(NilLiteralExprSyntax.self)
      || expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self)
      || expression.is(StringLiteralExprSyntax.self) || expression.is(BooleanLiteralExprSyntax.self)
      || expression.is(ArrayExprSyntax.self) || expression.is(DictionaryExprSyntax.self)
    {
      // A wildcard or a literal payload: the chain is complete.
    } else if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
      let only = tuple.elements.first
    {
      self.append(only.expression)
    } else {
      self.endsOpen = !self.steps.isEmpty
    }
  }
}

/// The names that mark an action's category in the boundaries pattern.
enum Boundary {
  static let view = "view"
  static let delegate = "delegate"
  static let internalNames: Set<String> = ["_internal", "internal"]

  static func isBoundary(_ name: String) -> Bool {
    name == view || name == delegate || internalNames.contains(name)
  }

  /// The case of `BindableAction`: a view action, which a child embeds at its top level.
  static let binding = "binding"

  /// The cases that are values of types every app uses (`Result`, `Optional`), not the action
  /// of a child: `._internal(.loaded(.success(items)))` is the feature's own action.
  static let valueCases: Set<String> = ["success", "failure", "some", "none"]

  /// The name's category when it follows a case that embeds a child: a boundary category, or
  /// `binding`, the child's view action.
  static func childCategoryKind(_ name: String) -> String? {
    if name == view || name == binding { return view }
    if name == delegate { return delegate }
    if internalNames.contains(name) { return "internal" }
    return nil
  }
}

extension ActionChain {
  /// A step that embeds a child feature: a case that is not a category, followed by one
  /// (`userSettings` in `._internal(.userSettings(.delegate))`); and the child's category step.
  struct Embedding {
    /// 1 for a direct child, 2 for a grandchild, …
    let depth: Int
    let child: Step
    let category: Step

    /// Whether the category is one of the child's own: `view` (or `binding`) or internal.
    var isPrivate: Bool {
      Boundary.childCategoryKind(self.category.name).map { $0 != Boundary.delegate } ?? false
    }

    /// The category as a message says it: "a view action", "an internal action", "a binding
    /// action, a view action,".
    var kindDescription: String {
      switch Boundary.childCategoryKind(self.category.name) {
      case Boundary.view?:
        self.category.name == Boundary.binding
          ? "a binding action, a view action," : "a view action"
      case "internal"?: "an internal action"
      default: "a delegate action"
      }
    }
  }

  var embeddings: [Embedding] {
    var result: [Embedding] = []
    for index in self.steps.indices.dropLast()
    where !Boundary.isBoundary(self.steps[index].name)
      && Boundary.childCategoryKind(self.steps[index + 1].name) != nil
    {
      result.append(
        Embedding(
          depth: result.count + 1, child: self.steps[index], category: self.steps[index + 1]))
    }
    return result
  }

  /// The category of the action the chain names, at the feature that owns it (the deepest one
  /// it reaches): `view`, `delegate` or `_internal`; `nil` when the syntax cannot tell, as in
  /// `._internal(.login(action))`, where `login` may embed a child whose action is a variable.
  var ownerCategory: Step? {
    guard let last = self.steps.lastIndex(where: { Boundary.isBoundary($0.name) }) else {
      return nil
    }
    // NB: A category step must be the first step or follow an embedding case.
    guard last == 0 || !Boundary.isBoundary(self.steps[last - 1].name) else { return nil }
    let category = self.steps[last]
    // NB: `.internal(.appDelegate(.didFinishLaunching))`: a case, then a case that is not a
    // category: the first embeds a child whose action has no categories, and the call routes
    // to it. A `Result`'s or an `Optional`'s case is a value of the feature's own action.
    if Boundary.internalNames.contains(category.name), self.steps.count > last + 2,
      !Boundary.isBoundary(self.steps[last + 1].name),
      !Boundary.isBoundary(self.steps[last + 2].name),
      !Boundary.valueCases.contains(self.steps[last + 2].name)
    {
      return nil
    }
    if Boundary.internalNames.contains(category.name), self.endsOpen {
      if last + 1 == self.steps.count - 1 { return nil }
      // NB: `._internal(.path(.element(id: id, action: .settings(action))))`: after a routing
      // step come the cases of an enum reducer (a destination, a stack's path), and then a
      // child's action the syntax does not show.
      if let route = self.routingSteps.min(), route == last + 1 {
        return nil
      }
    }
    return category
  }

  /// The step after `step`, if any.
  func step(after step: Step) -> Step? {
    guard let index = self.steps.firstIndex(where: { $0.token.id == step.token.id }),
      index + 1 < self.steps.count
    else { return nil }
    return self.steps[index + 1]
  }

  /// The chain up to and including `step`, in source form: `._internal(.userSettings(.view))`.
  func rendered(through step: Step) -> String {
    var names: [String] = []
    for candidate in self.steps {
      names.append(candidate.name)
      if candidate.token.id == step.token.id { break }
    }
    return names.reversed().reduce("") { inner, name in
      inner.isEmpty ? ".\(name)" : ".\(name)(\(inner))"
    }
  }
}
