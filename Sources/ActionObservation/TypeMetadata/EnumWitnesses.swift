/// The value witnesses that take an enum value apart and put it back together, read from the
/// type's value witness table (their places are fixed by the Swift ABI).
package struct EnumWitnesses {
  package typealias GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  package typealias ProjectEnumData =
    @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
  package typealias InjectEnumData =
    @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void

  package let getEnumTag: GetEnumTag
  package let destructiveProjectEnumData: ProjectEnumData
  package let destructiveInjectEnumData: InjectEnumData
  /// The size of the type's values.
  package let size: Int
  /// The alignment of the type's values, in bytes.
  package let alignment: Int

  package init(metadata: UnsafeRawPointer) {
    let pointerSize = MemoryLayout<UnsafeRawPointer>.size
    let table = metadata.load(fromByteOffset: -pointerSize, as: UnsafeRawPointer.self)
    self.size = table.load(fromByteOffset: 8 * pointerSize, as: Int.self)
    // NB: After size and stride, the flags: their low byte is the alignment mask.
    self.alignment = Int(table.load(fromByteOffset: 10 * pointerSize, as: UInt32.self) & 0xFF) + 1
    // Eight functions, size, stride, flags and extra inhabitants; then the enum witnesses.
    let enumWitnesses = 10 * pointerSize + 2 * 4
    self.getEnumTag = table.load(fromByteOffset: enumWitnesses, as: GetEnumTag.self)
    self.destructiveProjectEnumData = table.load(
      fromByteOffset: enumWitnesses + pointerSize, as: ProjectEnumData.self
    )
    self.destructiveInjectEnumData = table.load(
      fromByteOffset: enumWitnesses + 2 * pointerSize, as: InjectEnumData.self
    )
  }
}
