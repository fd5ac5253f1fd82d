internal import TCATraceAtomicsShims

/// A few words handed from one thread to another to be used again: the addresses of blocks of
/// memory, or of objects, that a thread is done with and another takes instead of allocating.
///
/// Where one thread allocates and another frees, the allocator's per-thread caches do not
/// help: each allocation takes the allocator's slower path (on glibc, about 250 instructions
/// more). The thread done with a block gives it here, and the thread that needs one takes it
/// back. Any thread may give or take: each slot is exchanged atomically, so a word taken was
/// given once, and is taken once; what the giving thread wrote to the block before giving it
/// is seen by the thread that takes it.
package final class RecycledWords: @unchecked Sendable {
  // NB: `@unchecked`: every access to a slot is atomic.
  //
  // NB: The first word counts the words given and not yet taken, about: a thread that finds it
  // 0 takes nothing without reading the slots (as a store that outruns the thread giving does,
  // for every allocation), and one that finds it at the capacity gives nothing.
  private let words: UnsafeMutablePointer<UInt>
  /// How many words it holds at most.
  package let capacity: Int

  /// Room for `capacity` words, none given yet.
  package init(capacity: Int) {
    precondition(capacity > 0)
    self.capacity = capacity
    self.words = .allocate(capacity: capacity + 1)
    self.words.initialize(repeating: 0, count: capacity + 1)
  }

  deinit {
    self.words.deallocate()
  }

  /// A word given before, now the caller's; `nil` when none is here.
  package func take() -> UInt? {
    guard tcatrace_atomic_load_relaxed(self.words) != 0 else { return nil }
    for index in 1...self.capacity {
      let slot = self.words + index
      let word = tcatrace_atomic_load_relaxed(slot)
      if word != 0, tcatrace_atomic_compare_exchange(slot, word, 0) {
        tcatrace_atomic_add_relaxed(self.words, -1)
        return word
      }
    }
    return nil
  }

  /// Gives `word`, which is not 0, for a thread to take; `false` when there is no room, and the
  /// caller keeps it.
  package func give(_ word: UInt) -> Bool {
    precondition(word != 0)
    guard tcatrace_atomic_load_relaxed(self.words) < UInt(self.capacity) else { return false }
    for index in 1...self.capacity {
      let slot = self.words + index
      if tcatrace_atomic_load_relaxed(slot) == 0, tcatrace_atomic_compare_exchange(slot, 0, word) {
        tcatrace_atomic_add_relaxed(self.words, 1)
        return true
      }
    }
    return false
  }
}
