@_spi(Reflection) import CasePaths

/// Takes enum values apart without knowing their types: case name and payload.
enum EnumReflection {
  /// The case name and associated value of `value`, or `nil` when `value` is not an enum.
  ///
  /// The payload is `nil` for a case without associated values, and a tuple for a case with
  /// several.
  static func decompose(_ value: Any) -> (name: String, payload: Any?)? {
    func open<T>(_ value: T) -> (name: String, payload: Any?)? {
      // NB: Optionals are enums to the runtime; they are unwrapped, not taken apart.
      guard let metadata = EnumMetadata(T.self), !Self.isOptional(T.self) else {
        return nil
      }
      guard let enumCase = Self.enumCase(T.self, metadata, tag: metadata.tag(of: value)) else { return nil }
      // NB: A case without a payload is not projected: projecting resolves the payload's type
      // from its mangled name, every time.
      guard enumCase.hasPayload else { return (enumCase.name, nil) }
      let payload = EnumMetadata.project(value)
      if let payload, type(of: payload) == Void.self { return (enumCase.name, nil) }
      return (enumCase.name, payload)
    }
    return _openExistential(value, do: open)
  }

  private struct CaseKey: Hashable {
    let type: ObjectIdentifier
    let tag: UInt32
  }

  private struct Case {
    let name: String
    let hasPayload: Bool
  }

  private static let cases = Locked<[CaseKey: Case?]>([:])

  /// The name of the case with `tag`, and whether it has a payload, remembered per type and tag.
  private static func enumCase(_ type: Any.Type, _ metadata: EnumMetadata, tag: UInt32) -> Case? {
    let key = CaseKey(type: ObjectIdentifier(type), tag: tag)
    if let known = self.cases.withLock({ $0[key] }) { return known }
    let enumCase = metadata.caseName(forTag: tag).map {
      Case(name: $0, hasPayload: metadata.associatedValueType(forTag: tag) != Void.self)
    }
    self.cases.withLock { $0[key] = .some(enumCase) }
    return enumCase
  }

  private static let optionalTypes = Locked<[ObjectIdentifier: Bool]>([:])

  /// Whether `type` is an `Optional`, remembered per type: a conformance lookup per value
  /// was a tenth of classifying an action.
  private static func isOptional(_ type: Any.Type) -> Bool {
    let key = ObjectIdentifier(type)
    if let known = self.optionalTypes.withLock({ $0[key] }) { return known }
    let isOptional = type is any OptionalProtocol.Type
    self.optionalTypes.withLock { $0[key] = isOptional }
    return isOptional
  }
}

/// Marks `Optional` so that generic code can recognize it.
protocol OptionalProtocol {
  var wrapped: Any? { get }
}

extension Optional: OptionalProtocol {
  var wrapped: Any? {
    self.map { $0 as Any }
  }
}
