import RuntimeSupport
import TCATraceFile

/// When the recorder keeps a whole state: before the first action, and after an action once the
/// changes since the last kept state add up to a quarter of its size in nodes. Rebuilding any
/// state then reads one kept state and at most a quarter as many changes as it has nodes (a
/// change read costs about what a node read does: a late step costs at most about a quarter
/// more than an early one); keeping one costs about four nodes' worth of work per change
/// recorded, on the writer's thread.
package final class KeyframeClock: @unchecked Sendable {
  // NB: `@unchecked`: `forcesNext` is only touched on the store's thread; the rest is locked or
  // atomic. The clock is asked on the thread that analyses each action: the store's, or the
  // writer's (see `TraceRecorder`), so its count is locked.

  /// The fewest changes between two kept states, so that a small state is not kept at every
  /// few actions.
  package static let minimumInterval = 1_000

  /// How many of a kept state's nodes make one change of the interval to the next.
  package static let nodesPerChange = 4

  private let count = Locked(Count())
  private struct Count {
    var hasInitial = false
    var changesSince = 0
    /// The changes between two keyframes, which the writer sets from the size of the last one
    /// it built.
    var threshold = KeyframeClock.minimumInterval
    /// Whether the writer is building one.
    var isBuilding = false
  }
  /// Whether the next action the store's thread hands over keeps the state after it.
  private var forcesNext = false
  /// The nodes of the last state kept, once one is built.
  private let lastSize = AtomicWord()
  /// Whether states are kept at all: the benchmark measures the recorder without them.
  package let isEnabled: Bool

  package init(isEnabled: Bool = true) {
    self.isEnabled = isEnabled
  }

  /// Whether the next action keeps the state after it, because of ``dropped()``; asked once
  /// per action, on the store's thread, as the action is handed over.
  package func takeForced() -> Bool {
    guard self.forcesNext else { return false }
    self.forcesNext = false
    return true
  }

  /// The nodes of the last state kept; 0 before one is built.
  package var stateSize: Int { Int(self.lastSize.loadRelaxed()) }

  /// The states to keep with the action `seq`, which made `changes` changes; `forced` when it
  /// must keep the state after it (see ``takeForced()``).
  package func snapshots(
    seq: Int, changes: Int, forced: Bool = false, before: () -> Any, after: () -> Any,
    redact: @escaping @Sendable (inout StateNode, Any) -> Void,
    redactJSON: @escaping @Sendable (String, Any) -> String = { json, _ in json }
  ) -> [StateSnapshot] {
    guard self.isEnabled else { return [] }
    // NB: Most actions keep nothing: they cost a sum and a comparison under the lock, no
    // allocation.
    let (keepsInitial, keepsAfter) = self.count.withLock { count -> (Bool, Bool) in
      count.changesSince += changes
      // NB: No new keyframe while the last one is still being built: a writer slower than the
      // store (a large state, a busy host) would otherwise be asked for one at every
      // interval, each as slow to build as the last, and fall ever further behind. A forced
      // one is built all the same: the states after it cannot be rebuilt without it.
      let keepsAfter = forced || (count.changesSince >= count.threshold && !count.isBuilding)
      let keepsInitial = !count.hasInitial
      guard keepsInitial || keepsAfter else { return (false, false) }
      count.hasInitial = true
      if keepsAfter { count.changesSince = 0 }
      // NB: Only a state handed over is being built.
      count.isBuilding = true
      return (keepsInitial, keepsAfter)
    }
    guard keepsInitial || keepsAfter else { return [] }
    var snapshots: [StateSnapshot] = []
    let built: @Sendable (Int) -> Void = { [count, lastSize] size in
      lastSize.storeRelaxed(UInt(max(0, size)))
      count.withLock {
        $0.threshold = max(KeyframeClock.minimumInterval, size / KeyframeClock.nodesPerChange)
        $0.isBuilding = false
      }
    }
    if keepsInitial {
      snapshots.append(
        StateSnapshot(seq: 0, value: before(), redact: redact, redactJSON: redactJSON, built: built)
      )
    }
    if keepsAfter {
      snapshots.append(
        StateSnapshot(
          seq: seq, value: after(), redact: redact, redactJSON: redactJSON, built: built))
    }
    return snapshots
  }

  /// Whether a kept state is being built: until it is, no other is asked for.
  package var isBuilding: Bool {
    self.count.withLock { $0.isBuilding }
  }

  /// The writer dropped an action (its buffer was full), or a debugger replaced the store's
  /// state: the states after it cannot be rebuilt from an earlier one, so the next action the
  /// store's thread hands over keeps one. On the store's thread.
  package func dropped() {
    guard self.isEnabled else { return }
    self.forcesNext = true
  }
}
