/// Whether the reads of this folder that follow the runtime's pointers may be made.
///
/// NB: Not on arm64e (an app built with pointer authentication, Xcode's Enhanced Security): the
/// type descriptor's and the value witness table's pointers in a metadata record, and each
/// value witness, are signed there (`swift/ABI/MetadataValues.h`,
/// `SpecialPointerAuthDiscriminators`), and a raw load of one, or a call through one, crashes.
/// Their callers take reflection instead (`EnumReflection`, `EffectNoneTest`). A metadata
/// record's kind, read by ``MetadataKind``, is a plain word there too.
package enum SignedPointers {
  package static var forbidLayoutReads: Bool {
    #if _ptrauth(_arm64e)
      true
    #else
      false
    #endif
  }
}
