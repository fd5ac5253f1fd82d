/// What the metadata of a tuple type says of its elements.
///
/// NB: Read at the places the Swift ABI fixes (`swift/ABI/Metadata.h`): a tuple's metadata is its
/// kind, the number of elements, a pointer to its labels, then for each element its type's
/// metadata and its offset, in a word (its first 4 bytes: a `uint32_t` on Linux, a word on
/// Apple's platforms, little-endian on both). Debug builds assert that a sole element lies at
/// offset 0.
package enum TupleMetadata {
  /// The type of the one element of `type` (`Int` for `(id: Int)`, the payload type of
  /// `case rowTapped(id: Int)`); `nil` when `type` is not a tuple of one element.
  package static func soleElementType(of type: Any.Type) -> Any.Type? {
    guard MetadataKind.of(type) == MetadataKind.tuple else { return nil }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let word = MemoryLayout<UnsafeRawPointer>.size
    guard metadata.load(fromByteOffset: word, as: Int.self) == 1 else { return nil }
    assert(
      metadata.load(fromByteOffset: 4 * word, as: UInt32.self) == 0,
      "\(type): its sole element is not at offset 0"
    )
    return metadata.load(fromByteOffset: 3 * word, as: Any.Type.self)
  }
}
