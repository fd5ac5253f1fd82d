@testable import TCATrace
import TestSupport
import Testing

@Suite(.hangGuard)
struct EnumReflectionTests {
  enum Shape {
    case point(Int)
    indirect case nested(Shape)
    case labelled(id: Int)
  }

  @Test func aCaseWithOneLabelledValueHasThatValueAsItsPayload() {
    // NB: Swift writes no tuple of one element but an enum case's labelled payload.
    let decomposed = EnumReflection.decompose(Shape.labelled(id: 7))
    #expect(decomposed?.name == "labelled")
    #expect(decomposed?.payload as? Int == 7)
    let nested = EnumReflection.decompose(Shape.nested(.point(4)))
    #expect(nested?.name == "nested")
    #expect(nested.flatMap { $0.payload as? Shape }.map { "\($0)" } == "point(4)")
  }
}
