/// The kind of a type's metadata, as the Swift runtime's ABI records it in its first word.
///
/// NB: This folder is the one place that reads the runtime's own layouts — metadata, value
/// witness tables, type descriptors (`EnumWitnesses`, `EnumFieldRecords`, `TupleMetadata`) —
/// each stating the places it reads and asserting in debug builds what it relies on. Values are
/// read elsewhere only through typed pointers of their own types, at offsets the standard
/// library gives (`MemoryLayout.offset(of:)`, `_forEachField`).
package enum MetadataKind {
  package static let `struct`: UInt = 0x200
  package static let `enum`: UInt = 0x201
  package static let optional: UInt = 0x202
  package static let tuple: UInt = 0x301
  package static let existential: UInt = 0x303
  /// A constrained existential, `any Collection<Int>` (the runtime's `ExtendedExistential`).
  package static let extendedExistential: UInt = 0x307

  /// The kind of `type`'s metadata.
  package static func of(_ type: Any.Type) -> UInt {
    unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
  }
}
