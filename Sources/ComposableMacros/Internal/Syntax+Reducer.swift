import SwiftSyntax

extension DeclGroupSyntax {
  /// The names of the types nested in this declaration: structs, enums and type aliases.
  var nestedTypeNames: Set<String> {
    Set(
      self.memberBlock.members.compactMap {
        $0.decl.as(StructDeclSyntax.self)?.name.text
          ?? $0.decl.as(EnumDeclSyntax.self)?.name.text
          ?? $0.decl.as(TypeAliasDeclSyntax.self)?.name.text
      }
    )
  }

  /// Whether the declaration's inheritance clause names `name`, bare or qualified by `module`.
  func inherits(_ name: String, module: String) -> Bool {
    self.inheritanceClause?.inheritedTypes.contains {
      let type = $0.type.trimmedDescription
      return type == name || type == "\(module).\(name)"
    } ?? false
  }

  /// The `@available` attributes of the declaration, to repeat on extensions of it.
  var availabilityAttributes: String {
    self.attributes.compactMap {
      guard case .attribute(let attribute) = $0,
        attribute.attributeName.trimmedDescription == "available"
      else { return nil }
      return attribute.trimmedDescription + " "
    }
    .joined()
  }

  /// The `public` or `package` modifier the declaration has, with a space after it, or "".
  var exportedAccess: String {
    for modifier in self.modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.public): return "public "
      case .keyword(.package): return "package "
      default: continue
      }
    }
    return ""
  }
}

extension AttributeListSyntax {
  /// Whether an attribute named `name` (bare, or qualified by any module) is in the list.
  func contains(named name: String) -> Bool {
    self.contains {
      guard case .attribute(let attribute) = $0 else { return false }
      let attributeName = attribute.attributeName.trimmedDescription
      return attributeName == name || attributeName.hasSuffix(".\(name)")
        || attributeName.hasPrefix("\(name)<") || attributeName.contains(".\(name)<")
    }
  }
}

extension VariableDeclSyntax {
  /// The name of a single-binding variable, `var count = 0` → `count`.
  var singleName: String? {
    guard self.bindings.count == 1 else { return nil }
    return self.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
  }

  /// Whether the variable is stored (no getter, no `get`/`set` accessors) and not `static`.
  var isStoredInstanceProperty: Bool {
    guard !self.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) else {
      return false
    }
    return self.bindings.allSatisfy { binding in
      switch binding.accessorBlock?.accessors {
      case .none: true
      case .getter: false
      case .accessors(let accessors):
        accessors.allSatisfy {
          [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
        }
      }
    }
  }
}
