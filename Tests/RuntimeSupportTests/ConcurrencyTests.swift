import Dispatch
import RuntimeSupport
import TestSupport
import Testing

@Suite(.hangGuard)
struct ConcurrencyTests {
  @Test func aLockedValueIsMadeOnceForEachKey() {
    let values = Locked<[String: Int]>([:])
    var made = 0
    let first = values.value(for: "a") {
      made += 1
      return 1
    }
    let again = values.value(for: "a") {
      made += 1
      return 2
    }
    #expect(first == 1)
    #expect(again == 1)
    #expect(made == 1)
    #expect(values.withLock { $0 } == ["a": 1])
  }

  @Test func aLockedValueCountsEveryThreadsChange() {
    let count = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<1_000 { count.withLock { $0 += 1 } }
    }
    #expect(count.withLock { $0 } == 8_000)
  }

  @Test func anAtomicWordExchangesOnlyWhatItHolds() {
    let word = AtomicWord(3)
    #expect(!word.compareExchange(expected: 4, desired: 9))
    #expect(word.loadAcquiring() == 3)
    #expect(word.compareExchange(expected: 3, desired: 9))
    #expect(word.loadRelaxed() == 9)
    word.storeRelaxed(1)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<1_000 { word.addRelaxed(1) }
    }
    #expect(word.loadAcquiring() == 8_001)
    word.addRelaxed(-8_001)
    #expect(word.loadRelaxed() == 0)
  }

  @Test func recycledWordsAreTakenAsTheyWereGivenUpToTheCapacity() {
    let words = RecycledWords(capacity: 3)
    #expect(words.take() == nil)
    #expect(words.give(7))
    #expect(words.give(8))
    #expect(words.give(9))
    #expect(!words.give(10))
    var taken: Set<UInt> = []
    while let word = words.take() { taken.insert(word) }
    #expect(taken == [7, 8, 9])
    #expect(words.take() == nil)
    #expect(words.give(10))
    #expect(words.take() == 10)
  }

  /// Four threads give words and take them back, each taking what it can find: at the end each
  /// word is held by one thread or by the slots, never by two (a word taken twice), and none is
  /// lost.
  @Test func recycledWordsAreNeverTakenTwice() {
    let words = RecycledWords(capacity: 8)
    let held = Locked<[UInt: Int]>([:])
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      var mine = (1...64).map { UInt(thread * 1_000 + $0) }
      for round in 0..<2_000 {
        if round % 3 != 2, let word = mine.popLast() {
          if !words.give(word) { mine.append(word) }
        } else if let word = words.take() {
          mine.append(word)
        }
      }
      held.withLock { held in
        for word in mine { held[word, default: 0] += 1 }
      }
    }
    var left: [UInt] = []
    while let word = words.take() { left.append(word) }
    held.withLock { held in
      for word in left { held[word, default: 0] += 1 }
    }
    let counts = held.withLock { $0 }
    #expect(counts.count == 256)
    #expect(counts.values.allSatisfy { $0 == 1 })
  }
}
