import SwiftSyntax

/// Walks one file's syntax tree and collects the places that break the boundary rules.
///
/// NB: A syntax tree has no comments or string contents in it as code, so neither can be
/// reported; string literals are not even entered, interpolations included.
final class BoundaryVisitor: SyntaxVisitor {
  struct RawFinding {
    let token: TokenSyntax
    let rule: LintRule
    let message: String
  }

  private(set) var findings: [RawFinding] = []
  /// The names that send from an effect in the enclosing effects: `send` in
  /// `.run { send in … }`, and any parameter of type `Send<…>`.
  private var effectSendNames: [Set<String>] = []

  init() {
    super.init(viewMode: .sourceAccurate)
  }

  // MARK: Strings

  override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
    .skipChildren
  }
  override func visit(_ node: RegexLiteralExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  // MARK: Patterns

  override func visit(_ node: SwitchCaseItemSyntax) -> SyntaxVisitorContinueKind {
    self.checkPattern(node.pattern)
    return .visitChildren
  }

  override func visit(_ node: MatchingPatternConditionSyntax) -> SyntaxVisitorContinueKind {
    self.checkPattern(node.pattern)
    return .visitChildren
  }

  override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
    if node.caseKeyword != nil { self.checkPattern(node.pattern) }
    return .visitChildren
  }

  private func checkPattern(_ pattern: PatternSyntax) {
    let chain = ActionChain(pattern)
    let embeddings = chain.embeddings
    // NB: A grandchild's delegate is reached through the child's internal case; that is one
    // finding, the more specific one.
    if let deep = embeddings.first(where: { $0.depth >= 2 && $0.category.name == Boundary.delegate }
    ) {
      let via = embeddings.filter { $0.depth < deep.depth }.map(\.child.name).joined(
        separator: ", ")
      self.findings.append(
        RawFinding(
          token: deep.category.token, rule: .ancestorReactsToGrandchildDelegate,
          message: """
            '\(chain.rendered(through: deep.category))' matches the delegate action of \
            '\(deep.child.name)', \(deep.depth) embeddings down (through '\(via)'); react to \
            the delegate actions of your direct children only
            """
        )
      )
      return
    }
    if let leak = embeddings.first(where: \.isPrivate) {
      self.findings.append(
        RawFinding(
          token: leak.category.token, rule: .parentReactsToPrivateChildAction,
          message: """
            '\(chain.rendered(through: leak.category))' matches \(leak.kindDescription) of the \
            child '\(leak.child.name)'; a parent reacts only to its children's delegate actions
            """
        )
      )
    }
  }

  // MARK: Effects

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
    self.effectSendNames.append(self.sendNames(of: node))
    if Self.isTaskEffect(node) {
      for action in Self.returnedActions(of: node) { self.checkSend(action, from: .effect) }
    }
    return .visitChildren
  }

  /// Whether `closure` is the operation or the `catch:` handler of the effect TCA had before
  /// 1.0, `.task { … }` / `EffectTask.task(operation:catch:)`, which sends the action it
  /// returns. SwiftUI's `.task { … }` modifier returns nothing, so it returns no action.
  private static func isTaskEffect(_ closure: ClosureExprSyntax) -> Bool {
    Self.isEffectArgument(closure, of: "task", labels: [nil, "operation"], trailingLabel: nil)
      || Self.isEffectArgument(closure, of: "task", labels: ["catch"], trailingLabel: "catch")
  }

  /// The actions `closure` returns: its one expression, or what its `return`s return (not
  /// those of closures and functions inside it).
  private static func returnedActions(of closure: ClosureExprSyntax) -> [ExprSyntax] {
    Self.returnedActions(of: closure.statements)
  }

  /// The actions a body of `statements` returns: its one expression, or what its `return`s
  /// return (not those of closures and functions inside it).
  private static func returnedActions(of statements: CodeBlockItemListSyntax) -> [ExprSyntax] {
    if statements.count == 1, let only = statements.first?.item {
      if let expression = only.as(ExprSyntax.self) { return [Self.unwrapped(expression)] }
      if let statement = only.as(ExpressionStmtSyntax.self) {
        return [Self.unwrapped(statement.expression)]
      }
    }
    final class Returns: SyntaxVisitor {
      var expressions: [ExprSyntax] = []
      override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
      override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
      override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
        if let expression = node.expression {
          self.expressions.append(BoundaryVisitor.unwrapped(expression))
        }
        return .skipChildren
      }
    }
    let returns = Returns(viewMode: .sourceAccurate)
    returns.walk(statements)
    return returns.expressions
  }

  /// `expression` without the `await` and `try` before it.
  private static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax {
    if let awaited = expression.as(AwaitExprSyntax.self) {
      return Self.unwrapped(awaited.expression)
    }
    if let tried = expression.as(TryExprSyntax.self) { return Self.unwrapped(tried.expression) }
    return expression
  }

  override func visitPost(_ node: ClosureExprSyntax) {
    self.effectSendNames.removeLast()
  }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    let names = node.signature.parameterClause.parameters
      .filter { Self.isSendType($0.type) }
      .map { ($0.secondName ?? $0.firstName).text }
    self.effectSendNames.append(Set(names))
    // NB: `func load() async -> Action { … return .internal(.loaded(items)) }`: an effect's
    // helper (`.run { send in await send(load()) }`, `.task { await load() }`); a reducer or a
    // view is not `async`.
    if node.signature.effectSpecifiers?.asyncSpecifier != nil,
      let type = node.signature.returnClause?.type, Self.isActionType(type), let body = node.body
    {
      for action in Self.returnedActions(of: body.statements) {
        self.checkSend(action, from: .effect)
      }
    }
    return .visitChildren
  }

  /// `Action`, or a type's `Action` (`Feature.Action`).
  private static func isActionType(_ type: TypeSyntax) -> Bool {
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      return identifier.name.text == "Action"
    }
    if let member = type.as(MemberTypeSyntax.self) { return member.name.text == "Action" }
    return false
  }

  override func visitPost(_ node: FunctionDeclSyntax) {
    self.effectSendNames.removeLast()
  }

  /// The send parameter of an `Effect.run` closure (the first) or of its `catch:` handler (the
  /// second), or the `Send<…>`-typed parameters of any closure.
  private func sendNames(of closure: ClosureExprSyntax) -> Set<String> {
    var names: Set<String> = []
    let parameters: [String]
    switch closure.signature?.parameterClause {
    case let .simpleInput(list)?:
      parameters = list.map(\.name.text)
    case let .parameterClause(clause)?:
      parameters = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
      for parameter in clause.parameters where parameter.type.map(Self.isSendType) == true {
        names.insert((parameter.secondName ?? parameter.firstName).text)
      }
    case nil:
      parameters = ["$0", "$1"]
    }
    if Self.isRunOperation(closure) { names.insert(parameters.first ?? "send") }
    // NB: `catch: { error, send in … }`.
    if Self.isRunCatch(closure), parameters.count == 2 { names.insert(parameters[1]) }
    return names
  }

  /// Whether `closure` is the operation of `.run { … }` / `Effect.run(operation:)`.
  private static func isRunOperation(_ closure: ClosureExprSyntax) -> Bool {
    Self.isEffectArgument(closure, of: "run", labels: [nil, "operation"], trailingLabel: nil)
  }

  /// Whether `closure` is the `catch:` handler of `.run { … } catch: { … }` /
  /// `Effect.run(operation:catch:)`.
  private static func isRunCatch(_ closure: ClosureExprSyntax) -> Bool {
    Self.isEffectArgument(closure, of: "run", labels: ["catch"], trailingLabel: "catch")
  }

  /// Whether `closure` is an argument of `.name(…)` / `Effect.name(…)` labelled with one of
  /// `labels` (`nil`: none), or its trailing closure: the first (`trailingLabel` `nil`) or the
  /// additional one labelled `trailingLabel`.
  private static func isEffectArgument(
    _ closure: ClosureExprSyntax, of name: String, labels: Set<String?>, trailingLabel: String?
  ) -> Bool {
    var call: FunctionCallExprSyntax?
    if trailingLabel == nil, let parent = closure.parent?.as(FunctionCallExprSyntax.self),
      parent.trailingClosure?.id == closure.id
    {
      call = parent
    } else if let trailingLabel,
      let element = closure.parent?.as(MultipleTrailingClosureElementSyntax.self),
      element.label.text == trailingLabel
    {
      call = element.parent?.parent?.as(FunctionCallExprSyntax.self)
    } else if let argument = closure.parent?.as(LabeledExprSyntax.self),
      labels.contains(argument.label?.text),
      let list = argument.parent?.as(LabeledExprListSyntax.self)
    {
      call = list.parent?.as(FunctionCallExprSyntax.self)
    }
    guard let member = call?.calledExpression.as(MemberAccessExprSyntax.self) else { return false }
    return member.declName.baseName.text == name && Self.isEffectBase(member.base)
  }

  /// `nil` (an implicit member: `.run`, `.send`), `Effect` or `Effect<Action>` (or
  /// `EffectTask`, its name before TCA 1.0).
  private static func isEffectBase(_ base: ExprSyntax?) -> Bool {
    guard let base else { return true }
    let names: Set<String> = ["Effect", "EffectTask"]
    if let reference = base.as(DeclReferenceExprSyntax.self) {
      return names.contains(reference.baseName.text)
    }
    if let generic = base.as(GenericSpecializationExprSyntax.self) {
      return generic.expression.as(DeclReferenceExprSyntax.self).map {
        names.contains($0.baseName.text)
      } ?? false
    }
    return false
  }

  /// `Effect`, `Effect<Action>` or `.init`, called as an initializer.
  private static func isEffectInitializer(_ called: ExprSyntax) -> Bool {
    if let member = called.as(MemberAccessExprSyntax.self) {
      return member.base == nil && member.declName.baseName.tokenKind == .keyword(.`init`)
    }
    return Self.isEffectBase(called)
  }

  private static func isSendType(_ type: TypeSyntax) -> Bool {
    var type = type
    if let attributed = type.as(AttributedTypeSyntax.self) { type = attributed.baseType }
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text == "Send" }
    if let member = type.as(MemberTypeSyntax.self) { return member.name.text == "Send" }
    return false
  }

  // MARK: Sends

  /// Who sends an action: an effect (or a reducer, returning `.send`), or code outside both.
  private enum Sender { case effect, outside }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if let actions = Self.bindingSends(node) {
      // NB: What the closure builds its action from is the binding's new value (a `String`,
      // a `Bool`), never a child's action: `{ .internal(.textChanged($0)) }` is not a route.
      for action in actions { self.checkSend(action, from: .outside, payloadIsAValue: true) }
      return .visitChildren
    }
    guard let argument = node.arguments.first else { return .visitChildren }
    let sender: Sender
    if argument.label?.text == "value", node.arguments.count == 1,
      Self.isEffectInitializer(node.calledExpression)
    {
      // `Effect(value: .view(…))`, `.init(value: …)`: the effect form before `.send`.
      sender = .effect
    } else if argument.label != nil {
      return .visitChildren
    } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
      member.declName.baseName.text == "sending",
      member.base != nil, argument.expression.is(KeyPathExprSyntax.self)
    {
      // `$store.name.sending(\.view.nameChanged)`: a binding a view hands to a control.
      sender = .outside
    } else if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
      // `send(…)`: from an effect when an enclosing effect binds that name.
      let name = reference.baseName.text
      if self.effectSendNames.contains(where: { $0.contains(name) }) {
        sender = .effect
      } else if name == "send" {
        sender = .outside
      } else {
        return .visitChildren
      }
    } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
      member.declName.baseName.text == "send"
    {
      // `.send(…)` / `Effect.send(…)` is an effect; `store.send(…)` is a caller outside.
      sender = Self.isEffectBase(member.base) ? .effect : .outside
    } else {
      return .visitChildren
    }

    self.checkSend(argument.expression, from: sender)
    return .visitChildren
  }

  /// The actions a view store's binding sends, `viewStore.binding(get: \.name, send: { .internal(.nameChanged($0)) })`
  /// (or `send: .internal(.focusChanged)`, or the closure trailing): what the closure returns,
  /// or the action given. `nil` when `call` is not such a binding.
  private static func bindingSends(_ call: FunctionCallExprSyntax) -> [ExprSyntax]? {
    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil,
      member.declName.baseName.text == "binding", call.arguments.first?.label?.text == "get"
    else { return nil }
    let send =
      call.arguments.first { $0.label?.text == "send" }?.expression
      ?? call.trailingClosure.map(ExprSyntax.init)
    guard let send else { return nil }
    if let closure = send.as(ClosureExprSyntax.self) { return Self.returnedActions(of: closure) }
    return [send]
  }

  /// Checks the action `expression` (a case expression or a case key path) that `sender` sends.
  ///
  /// - Parameter payloadIsAValue: Whether a payload the syntax does not show is known to be a
  ///   value, not a child's action.
  private func checkSend(
    _ expression: ExprSyntax, from sender: Sender, payloadIsAValue: Bool = false
  ) {
    var chain =
      expression.as(KeyPathExprSyntax.self).map(ActionChain.init) ?? ActionChain(expression)
    if payloadIsAValue { chain.endsOpen = false }
    // NB: A reducer or an effect that sends an embedded child's view or internal action reaches
    // into the child: one finding, the more specific one, also when it is a view action.
    if sender == .effect, let leak = chain.embeddings.first(where: \.isPrivate) {
      self.findings.append(
        RawFinding(
          token: leak.category.token, rule: .childPrivateActionSent,
          message: """
            '\(chain.rendered(through: leak.category))' sends \(leak.kindDescription) of the child \
            '\(leak.child.name)'; a parent does not send its children's private actions: let the \
            child act on its own
            """
        )
      )
      return
    }
    guard let category = chain.ownerCategory else { return }
    // NB: Messages name the action itself: `._internal(.refreshed)`, not `._internal`.
    let action = chain.rendered(through: chain.step(after: category) ?? category)
    switch sender {
    case .effect where category.name == Boundary.view:
      self.findings.append(
        RawFinding(
          token: category.token, rule: .effectSendsViewAction,
          message: """
            an effect sends '\(action)'; view actions come from the \
            view: send an internal action instead
            """
        )
      )
    case .outside where category.name != Boundary.view:
      let kind = category.name == Boundary.delegate ? "delegate" : "internal"
      self.findings.append(
        RawFinding(
          token: category.token, rule: .viewSendsPrivateAction,
          message: """
            '\(action)' sends a feature's \(kind) action from outside \
            its reducer and effects; send a view action instead
            """
        )
      )
    default:
      break
    }
  }
}
