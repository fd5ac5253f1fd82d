import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Presents var destination: Destination.State?`: projects the optional as a
/// `PresentationState`, `$destination`, for `ifLet(\.$destination, action: \.destination)`, as
/// TCA's `@Presents` does.
///
/// NB: TCA stores the state in a `PresentationState` (`_destination`) behind accessors; here
/// the optional stays stored, and `$destination` wraps it when read. Key paths, CustomDump and
/// the recorder then see `destination`, and memberwise initializers are unchanged.
public enum PresentsMacro {}

extension PresentsMacro {
  /// The property's name and its wrapped type (`Destination.State` for `Destination.State?`).
  fileprivate static func property(
    _ declaration: some DeclSyntaxProtocol, node: AttributeSyntax
  ) throws -> (name: String, wrapped: String) {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      variable.bindingSpecifier.tokenKind == .keyword(.var),
      variable.isStoredInstanceProperty,
      let name = variable.singleName,
      let binding = variable.bindings.first
    else {
      throw DiagnosticsError(diagnostics: [
        Diagnostic(
          node: node,
          message: MacroExpansionErrorMessage(
            "'@Presents' can only be applied to a stored 'var' of optional type"
          )
        )
      ])
    }
    let type = binding.typeAnnotation?.type
    let wrapped =
      type?.as(OptionalTypeSyntax.self)?.wrappedType.trimmedDescription
      ?? type?.as(IdentifierTypeSyntax.self).flatMap { identifier -> String? in
        guard identifier.name.text == "Optional",
          let argument = identifier.genericArgumentClause?.arguments.first
        else { return nil }
        return argument.trimmedDescription
      }
    guard let wrapped else {
      throw DiagnosticsError(diagnostics: [
        Diagnostic(
          node: node,
          message: MacroExpansionErrorMessage(
            "'@Presents' needs an explicit optional type: 'var \(name): Feature.State?'"
          )
        )
      ])
    }
    return (name, wrapped)
  }
}

extension PresentsMacro: PeerMacro {
  private static let accessKeywords: [TokenKind] = [
    .keyword(.public), .keyword(.package), .keyword(.internal), .keyword(.fileprivate),
    .keyword(.private),
  ]

  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    let (name, wrapped) = try self.property(declaration, node: node)
    let access =
      declaration.as(VariableDeclSyntax.self)?.modifiers
      .filter { self.accessKeywords.contains($0.name.tokenKind) }
      .map { $0.trimmedDescription + " " }
      .joined() ?? ""
    return [
      """
      \(raw: access)var $\(raw: name): Composable.PresentationState<\(raw: wrapped)> {
      get {
      Composable.PresentationState(wrappedValue: self.\(raw: name))
      }
      set {
      self.\(raw: name) = newValue.wrappedValue
      }
      }
      """
    ]
  }
}
