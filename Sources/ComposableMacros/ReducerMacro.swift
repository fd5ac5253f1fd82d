import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Reducer`: on a struct, the `Reducer` conformance, `@CasePathable` on its `Action` (and on an
/// enum `State`), `@ReducerBuilder` on its `body`; on an enum of features (a destination or a
/// navigation path), the `State` and `Action` enums, the `body` that runs each case's feature,
/// and `scope(_:)`, as TCA's `@Reducer` does.
public enum ReducerMacro {}

extension ReducerMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard !declaration.inherits("Reducer", module: "Composable") else { return [] }
    let conformances =
      declaration.is(EnumDeclSyntax.self)
      ? "Composable.CaseReducer, Composable.Reducer" : "Composable.Reducer"
    let decl: DeclSyntax =
      "\(raw: declaration.availabilityAttributes)extension \(type.trimmed): \(raw: conformances) {}"
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}

extension ReducerMacro: MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    if let enumDecl = member.as(EnumDeclSyntax.self) {
      var names: [String] =
        switch enumDecl.name.text {
        case "State": ["CasePathable", "dynamicMemberLookup"]
        case "Action": ["CasePathable"]
        default: []
        }
      if enumDecl.inherits("CasePathable", module: "CasePaths") {
        names.removeAll { $0 == "CasePathable" }
      }
      names.removeAll { enumDecl.attributes.contains(named: $0) }
      return names.map {
        AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier($0)))
      }
    }
    if let variable = member.as(VariableDeclSyntax.self), let builder = self.builder(for: variable)
    {
      return [builder]
    }
    if let caseDecl = member.as(EnumCaseDeclSyntax.self), caseDecl.elements.count == 1,
      let element = caseDecl.elements.first
    {
      guard let parameters = element.parameterClause?.parameters, parameters.count == 1 else {
        return [AttributeSyntax(attributeName: IdentifierTypeSyntax(name: "ReducerCaseIgnored"))]
      }
      if let type = parameters.first?.type.as(IdentifierTypeSyntax.self), type.isEphemeralState {
        return [AttributeSyntax(attributeName: IdentifierTypeSyntax(name: "ReducerCaseEphemeral"))]
      }
    }
    return []
  }

  /// `@Composable.ReducerBuilder<…>` for a computed `var body: some Reducer<…>` that has no
  /// builder attribute yet.
  private static func builder(for variable: VariableDeclSyntax) -> AttributeSyntax? {
    guard
      variable.bindingSpecifier.tokenKind == .keyword(.var),
      variable.singleName == "body",
      let binding = variable.bindings.first,
      case .getter = binding.accessorBlock?.accessors,
      let arguments = binding.typeAnnotation?.type.as(SomeOrAnyTypeSyntax.self)?.constraint
        .as(IdentifierTypeSyntax.self)?.genericArgumentClause?.arguments,
      !variable.attributes.contains(named: "ReducerBuilder")
    else { return nil }
    let generics =
      arguments.count == 1
      ? "\(arguments.trimmedDescription).State, \(arguments.trimmedDescription).Action"
      : arguments.trimmedDescription
    return AttributeSyntax(
      attributeName: IdentifierTypeSyntax(
        name: .identifier("Composable.ReducerBuilder<\(generics)>"))
    )
  }
}

extension ReducerMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      return self.enumMembers(of: enumDecl, node: node, in: context)
    }
    return self.structMembers(of: declaration, node: node, in: context)
  }

  private static func structMembers(
    of declaration: some DeclGroupSyntax,
    node: AttributeSyntax,
    in context: some MacroExpansionContext
  ) -> [DeclSyntax] {
    if let arguments = node.arguments {
      context.diagnose(
        Diagnostic(
          node: arguments,
          message: MacroExpansionErrorMessage(
            "Argument passed to call that takes no arguments when applied to a struct"
          ),
          fixIt: .replace(
            message: MacroExpansionFixItMessage("Remove '(\(arguments.trimmedDescription))'"),
            oldNode: node,
            newNode: node.with(\.leftParen, nil).with(\.arguments, nil).with(\.rightParen, nil)
          )
        )
      )
    }
    let access = declaration.exportedAccess
    let typeNames = declaration.nestedTypeNames
    let bindings = declaration.memberBlock.members.flatMap {
      $0.decl.as(VariableDeclSyntax.self)?.bindings ?? []
    }
    let hasReduceMethod = declaration.memberBlock.members.contains {
      guard let method = $0.decl.as(FunctionDeclSyntax.self), method.isReduceIntoAction
      else { return false }
      self.diagnoseReduceMethod(method, in: context)
      return true
    }
    let hasExplicitBody =
      hasReduceMethod
      || bindings.contains { binding in
        guard binding.initializer != nil else { return true }
        let name = binding.typeAnnotation?.type.as(SomeOrAnyTypeSyntax.self)?.constraint
          .as(IdentifierTypeSyntax.self)?.name.text
        return ["Reducer", "ReducerOf", "Composable.Reducer", "Composable.ReducerOf"]
          .contains(name ?? "")
      }
    let hasBody =
      hasReduceMethod
      || bindings.contains {
        $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body"
      }

    var decls: [DeclSyntax] = []
    if !typeNames.contains("State") && !hasExplicitBody {
      decls.append(
        """
        @ObservableState
        \(raw: access)struct State: Codable, Equatable, Hashable, Sendable {
        \(raw: access)init() {}
        }
        """
      )
    }
    if !typeNames.contains("Action") && !hasExplicitBody {
      decls.append("\(raw: access)enum Action: Equatable, Hashable, Sendable {}")
    }
    if !hasBody {
      decls.append("\(raw: access)let body = Composable.EmptyReducer<State, Action>()")
    }
    return decls
  }

  /// TCA warns about `reduce(into:action:)` in a `@Reducer`, and offers `body` instead.
  private static func diagnoseReduceMethod(
    _ method: FunctionDeclSyntax, in context: some MacroExpansionContext
  ) {
    let statements =
      method.body?.statements.map(\.trimmedDescription).joined(separator: "\n") ?? ""
    context.diagnose(
      Diagnostic(
        node: method.name,
        message: MacroExpansionWarningMessage(
          """
          'reduce(into:action:)' is deprecated: Reducers should be defined using the 'body' \
          property and a 'Reduce'.
          """
        ),
        fixIt: .replace(
          message: MacroExpansionFixItMessage("Use 'body' instead"),
          oldNode: method,
          newNode: DeclSyntax(
            """
            var body: some Reducer<State, Action> {
            Reduce { state, action in
            \(raw: statements)
            }
            }
            """
          )
          .with(\.leadingTrivia, method.leadingTrivia)
        )
      )
    )
  }

  private static func enumMembers(
    of enumDecl: EnumDeclSyntax,
    node: AttributeSyntax,
    in context: some MacroExpansionContext
  ) -> [DeclSyntax] {
    for member in enumDecl.memberBlock.members {
      guard let ifConfig = member.decl.as(IfConfigDeclSyntax.self) else { continue }
      context.diagnose(
        Diagnostic(
          node: ifConfig,
          message: MacroExpansionErrorMessage(
            "'#if' around the cases of an enum reducer is not supported by Composable's '@Reducer'"
          )
        )
      )
      return []
    }
    let access = enumDecl.exportedAccess
    let typeNames = enumDecl.nestedTypeNames
    let cases = enumDecl.memberBlock.members.flatMap { member -> [ReducerCase] in
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { return [] }
      return caseDecl.elements.map { ReducerCase(element: $0, in: caseDecl) }
    }
    let hasBody = enumDecl.memberBlock.members.contains {
      $0.decl.as(VariableDeclSyntax.self)?.singleName == "body"
    }
    let hasScope = enumDecl.memberBlock.members.contains {
      $0.decl.as(FunctionDeclSyntax.self)?.name.text == "scope"
    }

    var decls: [DeclSyntax] = []
    if !typeNames.contains("State") {
      let conformances = (["Composable.CaseReducerState"] + node.synthesizedConformances("state"))
        .joined(separator: ", ")
      decls.append(
        """
        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        \(raw: access)enum State: \(raw: conformances) {
        \(raw: access)typealias StateReducer = \(enumDecl.name.trimmed)
        \(raw: cases.map(\.stateCase).joined(separator: "\n"))
        }
        """
      )
    }
    if !typeNames.contains("Action") {
      let conformances = node.synthesizedConformances("action")
      decls.append(
        """
        @CasePathable
        \(raw: access)enum Action\(raw: conformances.isEmpty ? "" : ": " + conformances.joined(separator: ", ")) {
        \(raw: cases.map(\.actionCase).joined(separator: "\n"))
        }
        """
      )
    }
    if !hasBody {
      let ifCaseLets = cases.compactMap(\.ifCaseLet)
      let empty = "Composable.EmptyReducer<Self.State, Self.Action>"
      decls.append(
        ifCaseLets.isEmpty
          ? """
          @Composable.ReducerBuilder<Self.State, Self.Action>
          \(raw: access)static var body: \(raw: empty) {
          \(raw: empty)()
          }
          """
          : """
          @Composable.ReducerBuilder<Self.State, Self.Action>
          \(raw: access)static var body: Composable.Reduce<Self.State, Self.Action> {
          Composable.Reduce(
          \(raw: empty)()
          \(raw: ifCaseLets.joined(separator: "\n"))
          )
          }
          """
      )
    }
    if !typeNames.contains("CaseScope") {
      decls.append(
        """
        @dynamicMemberLookup
        \(raw: access)enum CaseScope: Composable._CaseScopeProtocol, CasePaths.CasePathable {
        \(raw: cases.map(\.scopeCase).joined(separator: "\n"))
        \(raw: access)struct AllCasePaths {
        \(raw: cases.compactMap(\.scopeCasePath).joined(separator: "\n"))
        }
        \(raw: access)static var allCasePaths: AllCasePaths { AllCasePaths() }
        }
        """
      )
    }
    if !hasScope {
      decls.append(
        """
        @preconcurrency @MainActor
        \(raw: access)static func scope(_ store: Composable.Store<Self.State, Self.Action>) -> CaseScope {
        switch store.state {
        \(raw: cases.map(\.scopeSwitchCase).joined(separator: "\n"))
        }
        }
        """
      )
    }
    return decls
  }
}

/// One case of an enum reducer and what `@Reducer` makes of it.
private struct ReducerCase {
  enum Kind {
    /// `case detail(DetailFeature)`: a feature, with its state and actions.
    case feature(type: String, reducer: String)
    /// `case alert(AlertState<Alert>)`: state with no reducer of its own (alerts, dialogs).
    case ephemeral(type: String, actionType: String)
    /// Anything else: plain data, kept in `State`, with no actions.
    case ignored
  }

  let name: String
  let element: EnumCaseElementSyntax
  let kind: Kind

  init(element: EnumCaseElementSyntax, in caseDecl: EnumCaseDeclSyntax) {
    self.name = element.name.text
    self.element = element
    let parameters = element.parameterClause?.parameters
    let isIgnored =
      caseDecl.attributes.contains(named: "ReducerCaseIgnored")
      || caseDecl.elements.contains { $0.parameterClause?.parameters.count != 1 }
    guard !isIgnored, let parameter = parameters?.first, parameters?.count == 1 else {
      self.kind = .ignored
      return
    }
    let type = parameter.type
    let identifier = type.as(IdentifierTypeSyntax.self)
    let isEphemeral =
      caseDecl.attributes.contains(named: "ReducerCaseEphemeral")
      || caseDecl.elements.contains {
        $0.parameterClause?.parameters.first?.type.as(IdentifierTypeSyntax.self)?
          .isEphemeralState == true
      }
    if isEphemeral {
      if let identifier, identifier.isEphemeralState,
        let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
        let argument = arguments.first
      {
        self.kind = .ephemeral(
          type: type.trimmedDescription, actionType: argument.trimmedDescription)
      } else if type.is(IdentifierTypeSyntax.self) || type.is(MemberTypeSyntax.self) {
        self.kind = .ephemeral(
          type: type.trimmedDescription, actionType: "\(type.trimmedDescription).Action"
        )
      } else {
        self.kind = .ignored
      }
      return
    }
    guard type.is(IdentifierTypeSyntax.self) || type.is(MemberTypeSyntax.self) else {
      self.kind = .ignored
      return
    }
    self.kind = .feature(
      type: type.trimmedDescription,
      reducer: parameter.defaultValue?.value.trimmedDescription ?? "\(type.trimmedDescription)()"
    )
  }

  /// The label of the single parameter, with its colon: `id: `, or "".
  private var label: String {
    guard let parameters = self.element.parameterClause?.parameters, parameters.count == 1,
      let firstName = parameters.first?.firstName, firstName.tokenKind != .wildcard
    else { return "" }
    return "\(firstName.text): "
  }

  /// The case as written, without a default value.
  private var written: String {
    var element = self.element.trimmed
    if var clause = element.parameterClause {
      for index in clause.parameters.indices {
        clause.parameters[index].defaultValue = nil
      }
      element.parameterClause = clause
    }
    return "case \(element.trimmedDescription)"
  }

  var stateCase: String {
    switch self.kind {
    case .feature(let type, _): "case \(self.name)(\(self.label)\(type).State)"
    case .ephemeral(let type, _): "case \(self.name)(\(self.label)\(type))"
    case .ignored: self.written
    }
  }

  var actionCase: String {
    switch self.kind {
    case .feature(let type, _): "case \(self.name)(\(self.label)\(type).Action)"
    case .ephemeral(_, let actionType): "case \(self.name)(\(actionType))"
    case .ignored: "case \(self.name)(Swift.Never)"
    }
  }

  var ifCaseLet: String? {
    guard case .feature(_, let reducer) = self.kind else { return nil }
    return """
      .ifCaseLet(\\Self.State.Cases.\(self.name), action: \\Self.Action.Cases.\(self.name)) {
      \(reducer)
      }
      """
  }

  var scopeCase: String {
    switch self.kind {
    case .feature(let type, _): "case \(self.name)(Composable.StoreOf<\(type)>)"
    case .ephemeral, .ignored: self.written
    }
  }

  var scopeCasePath: String? {
    let value: String
    switch self.kind {
    case .feature(let type, _):
      value = "Composable.StoreOf<\(type)>"
    case .ephemeral(let type, _):
      value = type
    case .ignored:
      guard let parameters = self.element.parameterClause?.parameters else {
        return """
          var \(self.name): CasePaths.AnyCasePath<CaseScope, Void> {
          CasePaths.AnyCasePath(
          embed: { CaseScope.\(self.name) },
          extract: { guard case .\(self.name) = $0 else { return nil }; return () }
          )
          }
          """
      }
      guard parameters.count == 1, let parameter = parameters.first else { return nil }
      value = parameter.type.trimmedDescription
    }
    return """
      var \(self.name): CasePaths.AnyCasePath<CaseScope, \(value)> {
      CasePaths.AnyCasePath(
      embed: CaseScope.\(self.name),
      extract: { guard case let .\(self.name)(v0) = $0 else { return nil }; return v0 }
      )
      }
      """
  }

  var scopeSwitchCase: String {
    if case .feature = self.kind {
      return """
        case .\(self.name):
        return .\(self.name)(store.scope(state: \\.\(self.name), action: \\.\(self.name))!)
        """
    }
    guard let parameters = self.element.parameterClause?.parameters else {
      return "case .\(self.name):\nreturn .\(self.name)"
    }
    let bound = parameters.indices.enumerated().map { "v\($0.offset)" }
    let passed = zip(parameters, bound).map { parameter, name in
      if let label = parameter.firstName, label.tokenKind != .wildcard {
        return "\(label.text): \(name)"
      }
      return name
    }
    return """
      case let .\(self.name)(\(bound.joined(separator: ", "))):
      return .\(self.name)(\(passed.joined(separator: ", ")))
      """
  }
}

extension AttributeSyntax {
  /// The conformances `@Reducer(state: .equatable, action: .sendable)` asks for, capitalized:
  /// those listed after the `label:` argument up to the next labelled argument.
  fileprivate func synthesizedConformances(_ label: String) -> [String] {
    guard case .argumentList(let arguments) = self.arguments,
      let start = arguments.firstIndex(where: { $0.label?.text == label })
    else { return [] }
    var names: [String] = []
    var index = start
    while index != arguments.endIndex {
      let argument = arguments[index]
      if index != start, argument.label != nil { break }
      if let name = argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text {
        names.append(name.prefix(1).uppercased() + name.dropFirst())
      }
      index = arguments.index(after: index)
    }
    return names
  }
}

extension IdentifierTypeSyntax {
  /// `AlertState` and `ConfirmationDialogState`: state that an enum reducer holds with no
  /// feature of its own.
  var isEphemeralState: Bool {
    ["AlertState", "ConfirmationDialogState"].contains(self.name.text)
  }
}

extension FunctionDeclSyntax {
  /// `func reduce(into state: inout State, action: Action) -> Effect<Action>`.
  fileprivate var isReduceIntoAction: Bool {
    let parameters = self.signature.parameterClause.parameters
    guard self.name.text == "reduce", parameters.count == 2,
      let state = parameters.first, state.firstName.text == "into",
      state.type.as(AttributedTypeSyntax.self)?.specifiers.contains(where: {
        $0.as(SimpleTypeSpecifierSyntax.self)?.specifier.tokenKind == .keyword(.inout)
      }) == true,
      parameters.last?.firstName.text == "action",
      self.signature.effectSpecifiers == nil,
      self.signature.returnClause?.type.is(IdentifierTypeSyntax.self) == true
    else { return false }
    return true
  }
}

/// `@ReducerCaseEphemeral`: marks a case of an enum reducer that holds ephemeral state, such as
/// `AlertState`. It expands to nothing; `@Reducer` reads it.
public enum ReducerCaseEphemeralMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}

/// `@ReducerCaseIgnored`: marks a case of an enum reducer that holds plain data, not a feature.
/// It expands to nothing; `@Reducer` reads it.
public enum ReducerCaseIgnoredMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
