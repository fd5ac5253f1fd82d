@_spi(Reflection) import Swift

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The stored properties of a struct type, with a typed comparison for each, built once per
/// type: what the state diff uses instead of `Mirror`.
///
/// NB: `Mirror` resolves each field's type from its mangled name on every reflection, and the
/// diff then compared fields through `any Equatable` casts; for a state of ten fields that was
/// tens of microseconds per action. A table of key paths, built once per type with the
/// standard library's reflection SPI, casts each side to the struct's type once, compares
/// each field with its own type's `==`, and hands out only the fields that differ.
struct FieldTable: @unchecked Sendable {
  // NB: `@unchecked`: the closure only captures key paths, which are immutable.

  /// A field whose values differ, or whose type is not `Equatable` so that the diff must look.
  struct Difference {
    let name: String
    let old: Any
    let new: Any
    /// `true` when `==` said the values differ; `false` when the type is not `Equatable`.
    let knownUnequal: Bool
  }

  let fieldCount: Int
  /// The fields of two values of the type that differ, in declaration order.
  let differences: (Any, Any) -> [Difference]

  /// The table of `value`'s type, or `nil` when `Mirror` does not show it as a plain struct
  /// (collections, dictionaries and other types with custom mirrors, enums, classes), or the
  /// reflection SPI does not describe all its fields.
  ///
  /// NB: Built once per type: ``NodeKind`` keeps the table.
  static func table(for value: Any) -> FieldTable? {
    var table: FieldTable?
    // NB: Decided once per type, from its first value: a type's mirror does not change.
    if !(value is any CustomReflectable) {
      let mirror = Mirror(reflecting: value)
      if mirror.displayStyle == .struct {
        let valueType: Any.Type = type(of: value)
        let built = Self.build(valueType)
        if built?.fieldCount == mirror.children.count { table = built }
      }
    }
    return table
  }

  private struct Field<Root> {
    let name: String
    let isEqual: (Root, Root) -> Bool?
    let keyPath: PartialKeyPath<Root>
    /// Where the field's bytes are in a value of `Root`, and how many there are.
    let offset: Int
    let size: Int
  }

  private static func build<Root>(_: Root.Type) -> FieldTable? {
    var fields: [Field<Root>] = []
    var layout: [(offset: Int, size: Int)] = []
    let described = _forEachField(of: Root.self) { _, offset, type, _ in
      func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
      layout.append((offset, _openExistential(type, do: size)))
      return true
    }
    let complete = _forEachFieldWithKeyPath(of: Root.self) { name, keyPath in
      let name = String(cString: name)
      let index = fields.count
      guard index < layout.count else { return false }
      fields.append(
        Field(
          name: name.hasPrefix("_") ? String(name.dropFirst()) : name,
          isEqual: Self.comparison(keyPath),
          keyPath: keyPath,
          offset: layout[index].offset,
          size: layout[index].size
        )
      )
      return true
    }
    // NB: Only a table that covers every stored property may stand in for `Mirror`.
    guard described, complete, !fields.isEmpty, fields.count == layout.count else { return nil }
    return FieldTable(fieldCount: fields.count) { old, new in
      let (old, new) = (old as! Root, new as! Root)
      var differences: [Difference] = []
      withUnsafeBytes(of: old) { oldBytes in
        withUnsafeBytes(of: new) { newBytes in
          for field in fields {
            // NB: A field whose bytes are the same on both sides holds the same value (the
            // same scalars, or the same references to the same storage): it did not change,
            // and its type's `==` need not be asked. This skips most fields of most actions.
            if field.size == 0
              || memcmp(oldBytes.baseAddress! + field.offset, newBytes.baseAddress! + field.offset, field.size) == 0
            {
              continue
            }
            let isEqual = field.isEqual(old, new)
            if isEqual == true { continue }
            differences.append(
              Difference(
                name: field.name, old: old[keyPath: field.keyPath], new: new[keyPath: field.keyPath],
                knownUnequal: isEqual == false
              )
            )
          }
        }
      }
      return differences
    }
  }

  private static func comparison<Root>(_ keyPath: PartialKeyPath<Root>) -> (Root, Root) -> Bool? {
    guard let equatable = type(of: keyPath).valueType as? any Equatable.Type else {
      return { _, _ in nil }
    }
    return Self.typedComparison(keyPath, equatable)
  }

  private static func typedComparison<Root, Value: Equatable>(
    _ keyPath: PartialKeyPath<Root>, _: Value.Type
  ) -> (Root, Root) -> Bool? {
    let keyPath = keyPath as! KeyPath<Root, Value>
    return { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
  }
}
