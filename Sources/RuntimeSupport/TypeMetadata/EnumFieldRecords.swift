/// The field records of an enum's type descriptor: one per case, in tag order, each with the
/// case's flags.
///
/// NB: Read at the places the Swift ABI fixes (`swift/ABI/Metadata.h`, `Reflection/Records.h`):
/// - an enum's metadata: its kind, then a pointer to its type context descriptor;
/// - the descriptor: flags, parent, name, access function, each 4 bytes, then a relative pointer
///   to the field descriptor, the number of cases with a payload (its low 24 bits), and the
///   number of cases without;
/// - the field descriptor: mangled type name and superclass (4 bytes each), kind and record size
///   (2 each), the number of records (4), then the records: flags, mangled type name and field
///   name, 4 bytes each.
///
/// Debug builds assert that the type is an enum, that a record is that size, and that there is a
/// record for each of the descriptor's cases.
package struct EnumFieldRecords {
  private let start: UnsafeRawPointer
  private let recordSize: Int
  /// The number of cases.
  package let count: Int

  /// `nil` when the type has no field descriptor (an enum imported from C, say).
  package init?(enumType type: Any.Type) {
    assert(MetadataKind.of(type) == MetadataKind.enum, "\(type) is not an enum")
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let descriptor = metadata.load(
      fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self
    )
    let fieldsOffset = 4 * 4
    let relative = descriptor.load(fromByteOffset: fieldsOffset, as: Int32.self)
    guard relative != 0 else { return nil }
    let fields = descriptor + fieldsOffset + Int(relative)
    self.recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    self.count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    self.start = fields + 16
    assert(self.recordSize == 3 * 4, "\(type): a field record of \(self.recordSize) bytes")
    assert(
      self.count
        == Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0xFF_FFFF)
        + Int(descriptor.load(fromByteOffset: 24, as: UInt32.self)),
      "\(type): \(self.count) field records for another number of cases"
    )
  }

  /// Whether the case at `index` is `indirect`: the first flag of its record.
  package func isIndirect(at index: Int) -> Bool {
    assert(0 <= index && index < self.count, "case \(index) of \(self.count)")
    return self.start.load(fromByteOffset: index * self.recordSize, as: UInt32.self) & 0x1 != 0
  }
}
