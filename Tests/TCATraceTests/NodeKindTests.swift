import Composable
import Testing

@testable import TCATrace
import TestSupport

/// Issue #46: which values the diff walks into once shared values exist, because their `==`
/// may not see a shared value change: only those whose types may hold one.
@Suite(.hangGuard)
struct NodeKindTests {
  private struct Row: Equatable, Identifiable {
    var id: Int
    var title: String
  }

  private struct SharingRow: Equatable, Identifiable {
    var id: Int
    @Shared var count: Int
  }

  @Test func identifiedCollectionsMayHoldASharedValueOnlyWhenTheirElementsMay() {
    #expect(!NodeKind.of(IdentifiedArrayOf<Row>.self).mayHoldShared)
    #expect(!NodeKind.of(StackState<Row>.self).mayHoldShared)
    #expect(!NodeKind.of([Row].self).mayHoldShared)
    #expect(NodeKind.of(IdentifiedArrayOf<SharingRow>.self).mayHoldShared)
    #expect(NodeKind.of(StackState<SharingRow>.self).mayHoldShared)
    #expect(NodeKind.of([SharingRow].self).mayHoldShared)
  }
}
