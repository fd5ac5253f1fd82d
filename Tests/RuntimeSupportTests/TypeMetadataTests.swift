import RuntimeSupport
import TestSupport
import Testing

/// The reads of the runtime's layouts in `RuntimeSupport/TypeMetadata`, against what the
/// standard library says of the same types. (Debug builds also assert each read's invariant
/// wherever the suite takes a value apart.)
@Suite(.hangGuard) struct TypeMetadataTests {
  enum Shape {
    case empty
    case point(Int)
    indirect case nested(Shape)
    case labelled(id: Int)
    case pair(Int, String)
  }

  @Test func anEnumsWitnessesHaveItsSizeAndAlignmentAndItsTags() {
    let witnesses = EnumWitnesses(enumType: Shape.self)
    #expect(witnesses.size == MemoryLayout<Shape>.size)
    #expect(witnesses.alignment == MemoryLayout<Shape>.alignment)
    // NB: Cases with a payload take the first tags, in order; then the others.
    let tags = [Shape.point(1), .nested(.empty), .labelled(id: 2), .pair(3, "x"), .empty].map {
      value in
      withUnsafeBytes(of: value) { witnesses.getEnumTag($0.baseAddress!, witnesses.metadata) }
    }
    #expect(tags == [0, 1, 2, 3, 4])
    let optional = EnumWitnesses(enumType: Int?.self)
    #expect(optional.size == MemoryLayout<Int?>.size)
    #expect(optional.alignment == MemoryLayout<Int?>.alignment)
  }

  @Test func anEnumsFieldRecordsAreItsCasesInTagOrder() throws {
    let records = try #require(EnumFieldRecords(enumType: Shape.self))
    #expect(records.count == 5)
    #expect((0..<records.count).map(records.isIndirect(at:)) == [false, true, false, false, false])
  }

  /// NB: Swift writes no tuple of one element but an enum case's labelled payload, whose sole
  /// element `EnumReflectionTests` checks through the recorder's reflection.
  @Test func aTupleOfSeveralElementsOrNoTupleHasNoSoleElement() {
    #expect(TupleMetadata.soleElementType(of: (Int, String).self) == nil)
    #expect(TupleMetadata.soleElementType(of: Int.self) == nil)
  }
}
