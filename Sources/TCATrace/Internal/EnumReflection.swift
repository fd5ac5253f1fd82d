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
      guard let metadata = EnumMetadata(T.self), !(value is any OptionalProtocol) else {
        return nil
      }
      guard let name = metadata.caseName(forTag: metadata.tag(of: value)) else { return nil }
      let payload = EnumMetadata.project(value)
      if let payload, type(of: payload) == Void.self { return (name, nil) }
      return (name, payload)
    }
    return _openExistential(value, do: open)
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
