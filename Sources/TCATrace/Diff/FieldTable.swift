@_spi(Reflection) import Swift

/// The stored properties of a struct type, with a typed comparison for each, built once per
/// type: what the state diff uses instead of `Mirror`.
///
/// NB: `Mirror` resolves each field's type from its mangled name on every reflection, and the
/// diff then compares fields through `any Equatable` casts; for a state of ten fields that is
/// tens of microseconds per action. A table of key paths, built once per type with the
/// standard library's reflection SPI, compares each field with its own type's `==` and looks
/// into a field only when it differs.
struct FieldTable: @unchecked Sendable {
  // NB: `@unchecked`: the closures only capture key paths, which are immutable.
  struct Field {
    /// The property's name, without a property wrapper's leading underscore.
    let name: String
    /// `old.field == new.field` when the field's type is `Equatable`; `nil` when it is not.
    let isEqual: (Any, Any) -> Bool?
    /// The field's value.
    let value: (Any) -> Any
  }

  let fields: [Field]

  private static let cache = Locked<[ObjectIdentifier: FieldTable?]>([:])

  /// The table of `value`'s type, or `nil` when `Mirror` does not show it as a plain struct
  /// (collections, dictionaries and other types with custom mirrors, enums, classes), or the
  /// reflection SPI does not describe all its fields.
  static func table(for value: Any) -> FieldTable? {
    let key = ObjectIdentifier(type(of: value))
    if let cached = self.cache.withLock({ $0[key] }) { return cached }
    var table: FieldTable?
    // NB: Decided once per type, from its first value: a type's mirror does not change.
    if !(value is any CustomReflectable) {
      let mirror = Mirror(reflecting: value)
      if mirror.displayStyle == .struct {
        let built = Self.table(of: type(of: value))
        if built?.fields.count == mirror.children.count { table = built }
      }
    }
    self.cache.withLock { $0[key] = .some(table) }
    return table
  }

  private static func table(of type: Any.Type) -> FieldTable? {
    Self.build(type)
  }

  private static func build<Root>(_: Root.Type) -> FieldTable? {
    var fields: [Field] = []
    let complete = _forEachFieldWithKeyPath(of: Root.self) { name, keyPath in
      let name = String(cString: name)
      fields.append(
        Field(
          name: name.hasPrefix("_") ? String(name.dropFirst()) : name,
          isEqual: Self.comparison(keyPath),
          value: { ($0 as! Root)[keyPath: keyPath] }
        )
      )
      return true
    }
    // NB: Only a table that covers every stored property may stand in for `Mirror`.
    guard complete, !fields.isEmpty else { return nil }
    return FieldTable(fields: fields)
  }

  private static func comparison<Root>(_ keyPath: PartialKeyPath<Root>) -> (Any, Any) -> Bool? {
    guard let equatable = type(of: keyPath).valueType as? any Equatable.Type else {
      return { _, _ in nil }
    }
    return Self.typedComparison(keyPath, equatable)
  }

  private static func typedComparison<Root, Value: Equatable>(
    _ keyPath: PartialKeyPath<Root>, _: Value.Type
  ) -> (Any, Any) -> Bool? {
    let keyPath = keyPath as! KeyPath<Root, Value>
    return { ($0 as! Root)[keyPath: keyPath] == ($1 as! Root)[keyPath: keyPath] }
  }
}
