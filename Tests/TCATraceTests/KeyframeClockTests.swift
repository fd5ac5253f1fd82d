import TCATrace
import Testing
import TestSupport

/// Issue #18: when the recorder keeps a whole state.
@Suite(.hangGuard)
struct KeyframeClockTests {
  /// The seqs of the states `clock` asks for over `actions` actions of one change each, the
  /// writer building each at once (its tree `nodes` nodes), or `lag` actions later.
  private func keptSeqs(actions: Int, nodes: Int, lag: Int = 0) -> [Int] {
    let clock = KeyframeClock()
    var kept: [Int] = []
    var building: [(due: Int, snapshot: StateSnapshot)] = []
    for seq in 1...actions {
      for snapshot in clock.snapshots(
        seq: seq, changes: 1, before: { 0 }, after: { seq }, redact: { _, _ in })
      {
        kept.append(snapshot.seq)
        building.append((seq + lag, snapshot))
      }
      while let first = building.first, first.due <= seq {
        first.snapshot.built(nodes)
        building.removeFirst()
      }
    }
    return kept
  }

  /// A writer that keeps up is asked for a state each time the changes since the last add up
  /// to a quarter of its size in nodes: reading any step reads at most that many changes.
  @Test func aStateIsKeptEachTimeTheChangesAddUpToItsSize() {
    #expect(
      self.keptSeqs(actions: 20_000, nodes: 16_000) == [0, 4_000, 8_000, 12_000, 16_000, 20_000])
    // A small state, every 1,000 changes at least.
    #expect(self.keptSeqs(actions: 3_500, nodes: 400) == [0, 1_000, 2_000, 3_000])
  }

  /// No state is asked for while the last is being built; the next is asked for once it is.
  @Test func noStateIsAskedForWhileOneIsBeingBuilt() {
    // Each is asked for by the first action whose count reaches the threshold after the last
    // was built.
    #expect(
      self.keptSeqs(actions: 20_000, nodes: 16_000, lag: 6_000) == [0, 6_002, 12_003, 18_004])
  }
}
