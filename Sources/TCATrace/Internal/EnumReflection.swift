import ActionObservation
@_spi(Reflection) import CasePaths
import RuntimeSupport

/// Takes enum values apart without knowing their types: case name and payload.
///
/// NB: What a type's cases are — names, payload types, which are `indirect` — is read from
/// its metadata once and kept. Resolving a payload's type from its mangled name, as projecting
/// through `EnumMetadata.project` does on every call, was a third of recording an action.
enum EnumReflection {
  /// The case name and associated value of `value`, or `nil` when `value` is not an enum.
  ///
  /// The payload is `nil` for a case without associated values, and a tuple for a case with
  /// several.
  static func decompose(_ value: Any) -> (name: String, payload: Any?)? {
    func open<T>(_ value: T) -> (name: String, payload: Any?)? {
      // NB: Optionals are enums to the runtime; they are unwrapped, not taken apart.
      guard let layout = Self.layout(of: T.self) else { return nil }
      var value = value
      return withUnsafeMutableBytes(of: &value) { bytes in
        let place = bytes.baseAddress!
        let tag = layout.tag(of: place)
        guard tag < layout.cases.count else { return nil }
        let enumCase = layout.cases[tag]
        guard let payload = enumCase.payload else { return (enumCase.name, nil) }
        // The payload is read where the case keeps it, and the case is put back.
        defer { layout.witnesses.destructiveInjectEnumData(place, UInt32(tag), layout.metadata) }
        return (enumCase.name, payload.load(layout.projectPayload(place, of: payload)))
      }
    }
    return _openExistential(value, do: open)
  }

  /// The cases of an enum type and the runtime functions that take its values apart.
  final class Layout: @unchecked Sendable {
    // NB: `@unchecked`: immutable once built; the pointers are the type's, which live forever.
    struct Case {
      let name: String
      let payload: Payload?
    }

    struct Payload {
      let isIndirect: Bool
      /// The payload's type: a case with one associated value holds just that value.
      let type: Any.Type
      /// A copy of the payload in place, boxed.
      let load: (UnsafeRawPointer) -> Any
    }

    let metadata: UnsafeRawPointer
    let witnesses: EnumWitnesses
    /// The cases, indexed by tag.
    let cases: [Case]
    /// The size of the enum's values, in bytes.
    let size: Int

    init(metadata: UnsafeRawPointer, witnesses: EnumWitnesses, cases: [Case], size: Int) {
      self.metadata = metadata
      self.witnesses = witnesses
      self.cases = cases
      self.size = size
    }

    /// The tag of the value at `value`, which is left as it is.
    func tag(of value: UnsafeRawPointer) -> Int {
      Int(self.witnesses.getEnumTag(value, self.metadata))
    }

    /// Where the payload of `value`'s case lies, once `value` is projected: a raw copy of an
    /// enum value, which is changed in place and must never be destroyed or used as the enum.
    func projectPayload(
      _ value: UnsafeMutableRawPointer, of payload: Payload
    ) -> UnsafeRawPointer {
      self.witnesses.destructiveProjectEnumData(value, self.metadata)
      return EnumWitnesses.payload(inProjected: value, isIndirect: payload.isIndirect)
    }
  }

  private static let layouts = Locked<[ObjectIdentifier: Layout?]>([:])

  /// The layout of `type`, read the first time it is asked for; `nil` when `type` is not an
  /// enum (an `Optional` is not one here) or its cases cannot be read.
  static func layout(of type: Any.Type) -> Layout? {
    self.layouts.value(for: ObjectIdentifier(type)) { self.readLayout(of: type) }
  }

  private static func readLayout(of type: Any.Type) -> Layout? {
    // NB: `Optional` has a kind of its own.
    guard
      !SignedPointers.forbidLayoutReads,
      MetadataKind.of(type) == MetadataKind.enum,
      let enumMetadata = EnumMetadata(type),
      let fieldRecords = EnumFieldRecords(enumType: type)
    else { return nil }
    var cases: [Layout.Case] = []
    for tag in 0..<UInt32(fieldRecords.count) {
      guard let name = enumMetadata.caseName(forTag: tag) else { return nil }
      // NB: A case with one associated value holds just that value: `Int` for the payload
      // type `(id: Int)` of `case rowTapped(id: Int)`.
      let associatedType = enumMetadata.associatedValueType(forTag: tag)
      let payloadType = TupleMetadata.soleElementType(of: associatedType) ?? associatedType
      let payload: Layout.Payload? =
        payloadType == Void.self
        ? nil
        : Layout.Payload(
          isIndirect: fieldRecords.isIndirect(at: Int(tag)), type: payloadType,
          load: Self.loader(payloadType)
        )
      cases.append(Layout.Case(name: name, payload: payload))
    }
    let witnesses = EnumWitnesses(enumType: type)
    return Layout(
      metadata: witnesses.metadata, witnesses: witnesses, cases: cases, size: witnesses.size
    )
  }

  private static func loader(_ type: Any.Type) -> (UnsafeRawPointer) -> Any {
    func make<T>(_: T.Type) -> (UnsafeRawPointer) -> Any { { $0.load(as: T.self) } }
    return _openExistential(type, do: make)
  }
}

/// Marks `Optional` so that generic code can recognize it.
protocol OptionalProtocol {
  var wrapped: Any? { get }
  static var wrappedType: Any.Type { get }
}

extension Optional: OptionalProtocol {
  var wrapped: Any? {
    self.map { $0 as Any }
  }

  static var wrappedType: Any.Type { Wrapped.self }
}
