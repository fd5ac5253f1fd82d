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
}
