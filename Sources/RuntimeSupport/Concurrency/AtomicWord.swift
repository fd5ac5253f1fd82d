internal import TCATraceAtomicsShims

/// A word read and written atomically, on every platform the package declares.
///
/// NB: Not the standard library's `Atomic`, which is available from iOS 18 and macOS 15 only
/// (module Synchronization), where the package declares iOS 17 and macOS 14. The word lives in
/// memory of its own, which never moves, as an atomic must.
package final class AtomicWord: @unchecked Sendable {
  // NB: `@unchecked`: every access to the word is atomic.
  private let word: UnsafeMutablePointer<UInt>

  package init(_ value: UInt = 0) {
    self.word = .allocate(capacity: 1)
    self.word.initialize(to: value)
  }

  deinit {
    self.word.deallocate()
  }

  /// The word; what was written before a store that this load sees is seen too.
  package func loadAcquiring() -> UInt {
    tcatrace_atomic_load_acquire(self.word)
  }

  /// The word, with no ordering of other memory.
  package func loadRelaxed() -> UInt {
    tcatrace_atomic_load_relaxed(self.word)
  }

  /// Stores `value`, with no ordering of other memory.
  package func storeRelaxed(_ value: UInt) {
    tcatrace_atomic_store_relaxed(self.word, value)
  }

  /// Stores `value`: what was written before it is seen by a load that sees it
  /// (``loadAcquiring()``, ``compareExchange(expected:desired:)``).
  package func storeReleasing(_ value: UInt) {
    tcatrace_atomic_store_release(self.word, value)
  }

  /// Stores `desired` if the word is `expected`; returns whether it did.
  package func compareExchange(expected: UInt, desired: UInt) -> Bool {
    tcatrace_atomic_compare_exchange(self.word, expected, desired)
  }

  /// Adds `delta` (wrapping), with no ordering of other memory.
  package func addRelaxed(_ delta: Int) {
    tcatrace_atomic_add_relaxed(self.word, delta)
  }
}
