import RuntimeSupport
import TCATraceFile

/// When the recorder keeps a whole state: before the first action, and after an action once the
/// changes since the last kept state add up to a quarter of its size in nodes. Rebuilding any
/// state then reads one kept state and at most a quarter as many changes as it has nodes (a
/// change read costs about what a node read does: a late step costs at most about a quarter
/// more than an early one); keeping one costs about four nodes' worth of work per change
/// recorded, on the writer's thread.
package final class KeyframeClock: @unchecked Sendable {
  // NB: `@unchecked`: `hasInitial` and `changesSince` are only touched on the store's thread,
  // as actions are recorded; `threshold` is locked.

  /// The fewest changes between two kept states, so that a small state is not kept at every
  /// few actions.
  package static let minimumInterval = 1_000

  /// How many of a kept state's nodes make one change of the interval to the next.
  package static let nodesPerChange = 4

  private var hasInitial = false
  private var changesSince = 0
  /// The changes between two keyframes, which the writer sets from the size of the last one
  /// it built, and whether it is building one.
  private let threshold = Locked(Threshold(value: KeyframeClock.minimumInterval, isBuilding: false))
  private struct Threshold {
    var value: Int
    var isBuilding: Bool
  }
  /// The threshold as last read, on the store's thread.
  private var lastThreshold = KeyframeClock.minimumInterval
  /// Whether states are kept at all: the benchmark measures the recorder without them.
  package let isEnabled: Bool

  package init(isEnabled: Bool = true) {
    self.isEnabled = isEnabled
  }

  /// The states to keep with the action `seq`, which made `changes` changes.
  package func snapshots(
    seq: Int, changes: Int, before: () -> Any, after: () -> Any,
    redact: @escaping @Sendable (inout StateNode, Any) -> Void,
    redactJSON: @escaping @Sendable (String, Any) -> String = { json, _ in json }
  ) -> [StateSnapshot] {
    guard self.isEnabled else { return [] }
    // NB: Most actions keep nothing: they cost a sum and a comparison, no allocation. The
    // threshold the writer sets is read only when the count might have reached it.
    self.changesSince += changes
    guard !self.hasInitial || self.changesSince >= self.lastThreshold else { return [] }
    if self.changesSince >= self.lastThreshold {
      // NB: No new keyframe while the last one is still being built: a writer slower than the
      // store (a large state, a busy host) would otherwise be asked for one at every
      // interval, each as slow to build as the last, and fall ever further behind.
      let (threshold, isBuilding) = self.threshold.withLock { ($0.value, $0.isBuilding) }
      self.lastThreshold = threshold
      if isBuilding { return [] }
    }
    var snapshots: [StateSnapshot] = []
    let built: @Sendable (Int) -> Void = { [threshold] size in
      threshold.withLock {
        $0 = Threshold(
          value: max(KeyframeClock.minimumInterval, size / KeyframeClock.nodesPerChange),
          isBuilding: false)
      }
    }
    if !self.hasInitial {
      self.hasInitial = true
      snapshots.append(
        StateSnapshot(seq: 0, value: before(), redact: redact, redactJSON: redactJSON, built: built)
      )
    }
    if self.changesSince >= self.lastThreshold {
      self.changesSince = 0
      snapshots.append(
        StateSnapshot(
          seq: seq, value: after(), redact: redact, redactJSON: redactJSON, built: built))
    }
    // NB: Only a state handed over is being built. Marked when the count had reached the old
    // threshold but not the new one, none would ever be built again.
    guard !snapshots.isEmpty else { return [] }
    self.threshold.withLock { $0.isBuilding = true }
    return snapshots
  }

  /// Whether a kept state is being built: until it is, no other is asked for.
  package var isBuilding: Bool {
    self.threshold.withLock { $0.isBuilding }
  }

  /// The writer dropped an action (its buffer was full), or a debugger replaced the store's
  /// state: the states after it cannot be rebuilt from an earlier one, so the next action that
  /// the writer takes keeps one.
  package func dropped() {
    guard self.isEnabled else { return }
    self.threshold.withLock { $0.isBuilding = false }
    self.changesSince = Int.max / 2
  }
}
