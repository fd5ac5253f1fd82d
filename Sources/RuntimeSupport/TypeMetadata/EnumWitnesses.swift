/// The value witnesses that take an enum value apart and put it back together, read from the
/// type's value witness table.
///
/// NB: Read at the places the Swift ABI fixes (`swift/ABI/ValueWitness.def`): the table's
/// pointer is the word before the metadata; in the table, eight functions, then size and stride
/// (a word each), flags and extra inhabitants (4 bytes each), then, for an enum, the enum
/// witnesses. Debug builds assert that the type is an enum (an `Optional` is one) and that its
/// size, stride and alignment agree.
package struct EnumWitnesses {
  package typealias GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  package typealias ProjectEnumData =
    @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
  package typealias InjectEnumData =
    @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void

  /// The type's metadata, which each witness is called with.
  package let metadata: UnsafeRawPointer
  package let getEnumTag: GetEnumTag
  package let destructiveProjectEnumData: ProjectEnumData
  package let destructiveInjectEnumData: InjectEnumData
  /// The size of the type's values.
  package let size: Int
  /// The alignment of the type's values, in bytes.
  package let alignment: Int

  package init(enumType type: Any.Type) {
    let kind = MetadataKind.of(type)
    assert(kind == MetadataKind.enum || kind == MetadataKind.optional, "\(type) is not an enum")
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    self.metadata = metadata
    let pointerSize = MemoryLayout<UnsafeRawPointer>.size
    let table = metadata.load(fromByteOffset: -pointerSize, as: UnsafeRawPointer.self)
    self.size = table.load(fromByteOffset: 8 * pointerSize, as: Int.self)
    // NB: The flags' low byte is the alignment mask.
    self.alignment = Int(table.load(fromByteOffset: 10 * pointerSize, as: UInt32.self) & 0xFF) + 1
    assert(
      self.alignment.nonzeroBitCount == 1
        && table.load(fromByteOffset: 9 * pointerSize, as: Int.self)
          == max((self.size + self.alignment - 1) / self.alignment * self.alignment, 1),
      "\(type): size \(self.size), alignment \(self.alignment) and stride disagree"
    )
    let enumWitnesses = 10 * pointerSize + 2 * 4
    self.getEnumTag = table.load(fromByteOffset: enumWitnesses, as: GetEnumTag.self)
    self.destructiveProjectEnumData = table.load(
      fromByteOffset: enumWitnesses + pointerSize, as: ProjectEnumData.self
    )
    self.destructiveInjectEnumData = table.load(
      fromByteOffset: enumWitnesses + 2 * pointerSize, as: InjectEnumData.self
    )
  }

  /// Where the payload lies in `value`, a raw copy of an enum value that its type's
  /// ``destructiveProjectEnumData`` has projected: in place, or for an `indirect` case in its
  /// box, after the heap object's header (its metadata and its reference counts, a word each).
  package static func payload(inProjected value: UnsafeMutableRawPointer, isIndirect: Bool)
    -> UnsafeRawPointer
  {
    isIndirect
      ? UnsafeRawPointer(value.load(as: UnsafeRawPointer.self))
        + 2 * MemoryLayout<UnsafeRawPointer>.size
      : UnsafeRawPointer(value)
  }
}
