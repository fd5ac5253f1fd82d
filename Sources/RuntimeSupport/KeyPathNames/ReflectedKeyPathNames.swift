@_spi(Reflection) import Swift

/// A wrapper of state a key path reads through: `@Presents var twoFactor` is stored as
/// `_twoFactor: PresentationState<TwoFactorFeature.State>` and read as an optional of it,
/// `@Shared var count` as `_count: Shared<Int>` and read as the value.
package protocol _StateWrapperType {
  /// The type of the value it holds.
  static var wrappedStateType: Any.Type { get }
  /// Whether a key path reads it as an optional of that value (a presentation state), not as
  /// that value (a shared value).
  static var readsAsOptional: Bool { get }
}

extension Optional: _StateWrapperType {
  package static var wrappedStateType: Any.Type { Wrapped.self }
  package static var readsAsOptional: Bool { false }
}

/// Names the computed components of a key path that the program cannot name from its symbols
/// (a stripped build, where they read `<computed 0x… (Type)>`) from the root type's reflection
/// metadata, which stripping keeps: each is a stored property of the type it starts from whose
/// type is the component's (TCA's `@ObservableState` keeps `var login` in `_login`; a
/// presentation state and a shared value are read through, as the state's paths read them).
///
/// A component that more than one property could be (two `String`s) has several candidates:
/// ``candidates(of:root:)`` gives every path, for a caller that tells them apart by values.
package enum ReflectedKeyPathNames {
  /// What a component of a key path's description says.
  private enum Component: Equatable {
    case named(String)
    /// `<computed 0x… (Type)>`: the type's name.
    case computed(type: String)
    /// `?` or `!`.
    case unwrap(Character)
  }

  /// Every path from the root type that `description` (a key path's, `\Root.` removed) may
  /// name, its computed components replaced by names of properties of their type, as the
  /// standard library writes a key path it can name: `login.twoFactor?.code`; `nil` when the
  /// description cannot be read that way.
  package static func candidates(of description: Substring, root: Any.Type) -> [String]? {
    guard let components = self.components(description) else { return nil }
    // NB: What the key path sees at each step: a type, or an optional of it.
    var paths: [(path: [String], type: Any.Type, optional: Bool)] = [([], root, false)]
    for (index, component) in components.enumerated() {
      var next: [(path: [String], type: Any.Type, optional: Bool)] = []
      for current in paths {
        switch component {
        case let .unwrap(marker):
          guard let last = current.path.last else { continue }
          let path = Array(current.path.dropLast()) + [last + String(marker)]
          if current.optional {
            next.append((path, current.type, false))
          } else if let wrapper = current.type as? any _StateWrapperType.Type,
            current.type is any OptionalMarker.Type
          {
            next.append((path, wrapper.wrappedStateType, false))
          } else if index == components.count - 1 {
            // NB: A key path through an optional ends in `?`: its value is an optional.
            next.append((path, current.type, false))
          }
        case let .named(name):
          guard !current.optional else { continue }
          for field in self.fields(of: current.type) where field.name == name {
            next.append((current.path + [name], field.type, false))
          }
        case let .computed(typeName):
          guard !current.optional else { continue }
          for field in self.fields(of: current.type) {
            if Self.isNamed(field.type, typeName) {
              next.append((current.path + [field.name], field.type, false))
            } else if let wrapper = field.type as? any _StateWrapperType.Type,
              !(field.type is any OptionalMarker.Type)
            {
              let wrapped = wrapper.wrappedStateType
              if wrapper.readsAsOptional, Self.isNamed(wrapped, typeName, inOptional: true) {
                next.append((current.path + [field.name], wrapper.wrappedStateType, true))
              } else if !wrapper.readsAsOptional, Self.isNamed(wrapped, typeName) {
                next.append((current.path + [field.name], wrapper.wrappedStateType, false))
              }
            }
          }
        }
      }
      guard !next.isEmpty else { return nil }
      paths = next
    }
    return paths.map { $0.path.joined(separator: ".") }
  }

  /// Whether the standard library names `type` (or an optional of it) `name` in a key path's
  /// description: `State` for `LoginFeature.State`, as `String(describing:)` does; the full
  /// name is taken too.
  private static func isNamed(_ type: Any.Type, _ name: String, inOptional: Bool = false) -> Bool {
    let names = [String(describing: type), String(reflecting: type)]
    return names.contains { inOptional ? "Optional<\($0)>" == name : $0 == name }
  }

  /// The components of a key path's description, `\Root.` removed; `nil` when it holds
  /// anything else (a subscript, a tuple's element).
  private static func components(_ description: Substring) -> [Component]? {
    var components: [Component] = []
    var rest = description
    while !rest.isEmpty {
      if let marker = rest.first, marker == "?" || marker == "!" {
        components.append(.unwrap(marker))
        rest.removeFirst()
        continue
      }
      if rest.first == "." { rest.removeFirst() }
      if rest.hasPrefix("<computed 0x") {
        // NB: The type's name may hold `<>` and parentheses: `(Optional<(Int, Int)>)`.
        guard let open = rest.firstIndex(of: "("),
          let close = rest.firstIndex(
            from: rest.index(after: open), outsideParentheses: { $0 == ")" }),
          rest.index(after: close) < rest.endIndex,
          rest[rest.index(after: close)] == ">"
        else { return nil }
        components.append(.computed(type: String(rest[rest.index(after: open)..<close])))
        rest = rest[rest.index(close, offsetBy: 2)...]
        continue
      }
      let name = rest.prefix { $0 != "." && $0 != "?" && $0 != "!" && $0 != "[" && $0 != "<" }
      guard !name.isEmpty else { return nil }
      components.append(.named(String(name)))
      rest = rest.dropFirst(name.count)
    }
    return components
  }

  /// The stored properties of `type` as the state's paths name them (`_login` as `login`),
  /// without observation machinery (`_$id`); none for a type that is not a struct.
  private static func fields(of type: Any.Type) -> [(name: String, type: Any.Type)] {
    var fields: [(name: String, type: Any.Type)] = []
    _ = _forEachField(of: type) { name, _, type, _ in
      var name = String(cString: name)
      guard !name.hasPrefix("_$") else { return true }
      if name.hasPrefix("_") { name.removeFirst() }
      fields.append((name, type))
      return true
    }
    return fields
  }
}

/// `Optional`, told apart from other state wrappers.
package protocol OptionalMarker {}
extension Optional: OptionalMarker {}
