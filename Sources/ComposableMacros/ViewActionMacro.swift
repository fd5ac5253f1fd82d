import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ViewAction(for: Feature.self)`: conforms the type to `ViewActionSending`, as TCA's macro
/// does, with TCA's diagnostics: no `store` property (an error, fixed by adding
/// `let store: StoreOf<Feature>`), a `store` less visible than the type (an error), and
/// `store.send(…)` or `self.store.send(…)` inside the type (a warning, fixed to `send(…)` when
/// the action is `.view(…)`).
public enum ViewActionMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard
      case let .argumentList(arguments) = node.arguments,
      arguments.count == 1,
      let feature = arguments.first?.expression.as(MemberAccessExprSyntax.self),
      feature.declName.baseName.text == "self",
      let featureType = feature.base?.trimmedDescription
    else { return [] }
    let typeAccess = declaration.modifiers.lazy.compactMap(\.accessLevel).first

    guard let store = declaration.storeProperty else {
      context.diagnose(
        Diagnostic(
          node: declaration,
          message: MacroExpansionErrorMessage(
            """
            '@ViewAction' requires \
            \(declaration.typeName.map { "'\($0)' " } ?? "")to have a 'store' property of type \
            'Store'.
            """
          ),
          fixIt: .replace(
            message: MacroExpansionFixItMessage("Add 'store'"),
            oldNode: declaration,
            newNode: declaration.addingStore(of: featureType, access: typeAccess)
          )
        )
      )
      return []
    }

    self.diagnoseStoreSends(in: declaration, context: context)

    if let typeAccess,
      let storeAccessToken = store.modifiers.lazy.compactMap(\.accessLevelToken).first,
      let storeAccess = AccessLevel(storeAccessToken),
      storeAccess < typeAccess
    {
      var fixed = store
      fixed.modifiers = DeclModifierListSyntax(
        store.modifiers.map {
          $0.accessLevel == nil
            ? $0
            : $0.with(
              \.name,
              .keyword(
                typeAccess.keyword, leadingTrivia: $0.name.leadingTrivia,
                trailingTrivia: $0.name.trailingTrivia
              )
            )
        }
      )
      context.diagnose(
        Diagnostic(
          node: storeAccessToken,
          message: MacroExpansionErrorMessage(
            "'store' variable must be same access level as enclosing type."
          ),
          fixIt: .replace(
            message: MacroExpansionFixItMessage("Add \(typeAccess.rawValue)"),
            oldNode: store,
            newNode: fixed
          )
        )
      )
      return []
    }

    let conformance: DeclSyntax =
      "extension \(type.trimmed): Composable.ViewActionSending {}"
    return [conformance.cast(ExtensionDeclSyntax.self)]
  }

  /// Warns about each `store.send(…)` and `self.store.send(…)` in `syntax`, with a fix-it when
  /// the action is `.view(…)`.
  private static func diagnoseStoreSends(
    in syntax: some SyntaxProtocol, context: some MacroExpansionContext
  ) {
    for child in syntax.children(viewMode: .fixedUp) {
      if let call = child.as(FunctionCallExprSyntax.self), let send = call.viewSend {
        var fixIts: [FixIt] = []
        if call.arguments.count == 1,
          let inner = call.arguments.first?.expression.as(FunctionCallExprSyntax.self),
          inner.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "view",
          inner.calledExpression.as(MemberAccessExprSyntax.self)?.base == nil,
          inner.arguments.count == 1
        {
          var fixed = call
          fixed.calledExpression = send.with(\.leadingTrivia, call.leadingTrivia)
          fixed.arguments = inner.arguments
          fixIts.append(
            .replace(
              message: MacroExpansionFixItMessage("Call 'send' directly with a view action"),
              oldNode: call,
              newNode: fixed
            )
          )
        }
        context.diagnose(
          Diagnostic(
            node: call,
            message: MacroExpansionWarningMessage(
              "Do not use 'store.send' directly when using '@ViewAction'"
            ),
            highlights: [Syntax(call)],
            fixIts: fixIts
          )
        )
      }
      self.diagnoseStoreSends(in: child, context: context)
    }
  }
}

extension FunctionCallExprSyntax {
  /// `send` for a call to `store.send`, `self.send` for one to `self.store.send`; else `nil`.
  fileprivate var viewSend: ExprSyntax? {
    guard let member = self.calledExpression.as(MemberAccessExprSyntax.self),
      member.declName.baseName.text == "send"
    else { return nil }
    if member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "store" {
      return ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier("send")))
    }
    if let store = member.base?.as(MemberAccessExprSyntax.self),
      store.declName.baseName.text == "store",
      store.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    {
      return ExprSyntax(
        MemberAccessExprSyntax(
          base: DeclReferenceExprSyntax(baseName: .keyword(.self)),
          declName: DeclReferenceExprSyntax(baseName: .identifier("send"))
        )
      )
    }
    return nil
  }
}

extension DeclGroupSyntax {
  /// The declaration of the type's `store` property, if it has one.
  fileprivate var storeProperty: VariableDeclSyntax? {
    self.memberBlock.members.lazy.compactMap { member -> VariableDeclSyntax? in
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
          == "store"
      else { return nil }
      return variable
    }.first
  }

  /// The type's name, for messages.
  fileprivate var typeName: String? {
    if let decl = self.as(StructDeclSyntax.self) { return decl.name.text }
    if let decl = self.as(ClassDeclSyntax.self) { return decl.name.text }
    if let decl = self.as(EnumDeclSyntax.self) { return decl.name.text }
    if let decl = self.as(ActorDeclSyntax.self) { return decl.name.text }
    if let decl = self.as(ExtensionDeclSyntax.self) { return decl.extendedType.trimmedDescription }
    return nil
  }

  /// The declaration with `let store: StoreOf<Feature>` as its first member, as visible as the
  /// type.
  fileprivate func addingStore(of feature: String, access: AccessLevel?) -> Self {
    var copy = self
    let indentation = self.memberBlock.members.first?.leadingTrivia ?? "\n  "
    let store: DeclSyntax =
      "\(raw: access.map { "\($0.rawValue) " } ?? "")let store: StoreOf<\(raw: feature)>"
    copy.memberBlock.members.insert(
      MemberBlockItemSyntax(leadingTrivia: indentation, decl: store, trailingTrivia: .newline),
      at: copy.memberBlock.members.startIndex
    )
    return copy
  }
}

/// An access level, ordered from the least visible.
fileprivate enum AccessLevel: String, Comparable {
  case `private`, `fileprivate`, `internal`, `package`, `public`, `open`

  init?(_ token: TokenSyntax) {
    guard case let .keyword(keyword) = token.tokenKind,
      let level = Self.allCases.first(where: { $0.keyword == keyword })
    else { return nil }
    self = level
  }

  static let allCases: [Self] = [.private, .fileprivate, .internal, .package, .public, .open]

  var keyword: Keyword {
    switch self {
    case .private: .private
    case .fileprivate: .fileprivate
    case .internal: .internal
    case .package: .package
    case .public: .public
    case .open: .open
    }
  }

  static func < (lhs: Self, rhs: Self) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

extension DeclModifierSyntax {
  fileprivate var accessLevelToken: TokenSyntax? {
    AccessLevel(self.name) != nil && self.detail == nil ? self.name : nil
  }

  fileprivate var accessLevel: AccessLevel? {
    self.accessLevelToken.flatMap(AccessLevel.init)
  }
}
