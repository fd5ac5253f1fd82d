import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ObservableState`: conforms a state struct or enum to `ObservableState` and `Observable`, and
/// gives it the identity (`_$id`) and `_$willModify()` that TCA's macro gives it.
///
/// NB: Unlike TCA's, it leaves stored properties stored (no per-property access tracking): with
/// no UI to observe them here, tracking would only rename the stored properties (`_count`),
/// which every reflection-based reader of state (CustomDump, the recorder's diff) would show.
public enum ObservableStateMacro {}

extension ObservableStateMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      return self.enumMembers(of: enumDecl)
    }
    let kind =
      declaration.is(ClassDeclSyntax.self)
      ? "class"
      : declaration.is(ActorDeclSyntax.self) ? "actor" : nil
    if let kind, let name = declaration.asProtocol((any NamedDeclSyntax).self)?.name.text {
      throw DiagnosticsError(diagnostics: [
        Diagnostic(
          node: node,
          message: MacroExpansionErrorMessage(
            "'@ObservableState' cannot be applied to \(kind) type '\(name)'"
          )
        )
      ])
    }
    let existing = Set(
      declaration.memberBlock.members.compactMap {
        $0.decl.as(VariableDeclSyntax.self)?.singleName
          ?? $0.decl.as(FunctionDeclSyntax.self)?.name.text
      }
    )
    var decls: [DeclSyntax] = []
    if !existing.contains("_$observationRegistrar") {
      decls.append("var _$observationRegistrar = Composable.ObservationStateRegistrar()")
    }
    if !existing.contains("_$id") {
      decls.append(
        """
        public var _$id: Composable.ObservableStateID {
        _$observationRegistrar.id
        }
        """
      )
    }
    if !existing.contains("_$willModify") {
      decls.append(
        """
        public mutating func _$willModify() {
        _$observationRegistrar._$willModify()
        }
        """
      )
    }
    return decls
  }

  /// An enum's identity is its case's, tagged with the case's position; `_$willModify` passes
  /// on to the case's value.
  private static func enumMembers(of enumDecl: EnumDeclSyntax) -> [DeclSyntax] {
    let elements = enumDecl.memberBlock.members.flatMap {
      $0.decl.as(EnumCaseDeclSyntax.self)?.elements.map { $0 } ?? []
    }
    guard !elements.isEmpty else { return [] }
    var ids: [String] = []
    var willModifies: [String] = []
    for (tag, element) in elements.enumerated() {
      let name = element.name.text
      if let parameters = element.parameterClause?.parameters, parameters.count == 1 {
        let label =
          parameters.first?.firstName.map {
            $0.tokenKind == .wildcard ? "" : "\($0.text): "
          } ?? ""
        ids.append("case let .\(name)(state):\nreturn ._$id(for: state)._$tag(\(tag))")
        willModifies.append(
          "case var .\(name)(state):\nComposable._$willModify(&state)\nself = .\(name)(\(label)state)"
        )
      } else {
        ids.append("case .\(name):\nreturn Composable.ObservableStateID()._$tag(\(tag))")
        willModifies.append("case .\(name):\nbreak")
      }
    }
    return [
      """
      public var _$id: Composable.ObservableStateID {
      switch self {
      \(raw: ids.joined(separator: "\n"))
      }
      }
      """,
      """
      public mutating func _$willModify() {
      switch self {
      \(raw: willModifies.joined(separator: "\n"))
      }
      }
      """,
    ]
  }
}

extension ObservableStateMacro: MemberAttributeMacro {
  /// Adds no attributes; it flags the property wrappers and attributes that TCA's
  /// `@ObservableState` does not allow, with TCA's messages and fix-its.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard let variable = member.as(VariableDeclSyntax.self) else { return [] }
    let renames = [
      "ObservationIgnored": "ObservationStateIgnored",
      "PresentationState": "Presents",
    ]
    for case .attribute(let attribute) in variable.attributes {
      guard let type = attribute.attributeName.as(IdentifierTypeSyntax.self),
        let rename = renames[type.name.text]
      else { continue }
      context.diagnose(
        Diagnostic(
          node: attribute,
          message: MacroExpansionErrorMessage(
            "'@\(type.name.text)' cannot be used in '@ObservableState'"
          ),
          fixIt: .replace(
            message: MacroExpansionFixItMessage("Use '@\(rename)' instead"),
            oldNode: attribute,
            newNode: attribute.with(
              \.attributeName,
              TypeSyntax(
                type.with(\.name, .identifier(rename, trailingTrivia: type.name.trailingTrivia)))
            )
          )
        )
      )
    }
    return []
  }
}

extension ObservableStateMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    // NB: Asked with no protocols when the type already conforms.
    guard !protocols.isEmpty else { return [] }
    let decl: DeclSyntax = """
      \(raw: declaration.availabilityAttributes)extension \(type.trimmed): \
      Composable.ObservableState, Observation.Observable {}
      """
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}

/// `@ObservationStateIgnored`: marks a property of an `@ObservableState` type as not observed.
/// Properties are not tracked one by one here, so it changes nothing.
public enum ObservationStateIgnoredMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    []
  }
}
