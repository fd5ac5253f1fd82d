import Composable
import Testing
import XCTest
import TestSupport

/// A test clock that counts the sleeps begun on it, so that a test can ask, without waiting,
/// whether an effect has gone to sleep.
private struct CountingClock: Clock {
  let base = TestClock()
  let sleeps = LockIsolated(0)

  var now: TestClock<Duration>.Instant { self.base.now }
  var minimumResolution: Duration { self.base.minimumResolution }

  func sleep(until deadline: TestClock<Duration>.Instant, tolerance: Duration?) async throws {
    self.sleeps.withValue { $0 += 1 }
    try await self.base.sleep(until: deadline, tolerance: tolerance)
  }
}

/// When `send` or `receive` returns, the effects they started or woke have run to where they
/// wait: a test moves a test clock right after, as TCA's documentation does, and the effect sees
/// it, however busy the machine.
///
/// NB: Before, a test store gave effects a few turns and a millisecond; on a busy machine the
/// clock was moved before the timer slept, and the tick never came (one run in five of the
/// suite with two busy loops per core; in XCTest, a few iterations in a hundred idle).
@MainActor
private func sendAdvanceAndReceive(iterations: Int) async -> [String] {
  var failures: [String] = []
  for iteration in 0..<iterations {
    let clock = CountingClock()
    // NB: The stopwatch of Documentation/Composable.md: a timer effect, as TCA's
    // documentation tests it.
    let store = TestStore(initialState: Stopwatch.State()) {
      Stopwatch()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = await store.send(.startButtonTapped) {
      $0.isRunning = true
    }
    let sleptAfterSend = clock.sleeps.value
    await clock.base.advance(by: .seconds(1))
    await store.receive(\.tick) {
      $0.secondsElapsed = 1
    }
    let sleptAfterReceive = clock.sleeps.value
    await task.cancel()
    if sleptAfterSend != 1 || sleptAfterReceive != 2 {
      failures.append(
        "iteration \(iteration): \(sleptAfterSend) sleep(s) after send, \(sleptAfterReceive) after receive"
      )
    }
  }
  return failures
}

@MainActor
@Suite(.hangGuard)
struct EffectSettlingTests {
  @Test func anEffectSleepsBeforeSendAndReceiveReturn() async {
    let failures = await sendAdvanceAndReceive(iterations: 100)
    #expect(failures == [])
  }
}

final class EffectSettlingXCTests: XCTestCase {
  @MainActor
  func testAnEffectSleepsBeforeSendAndReceiveReturn() async {
    let failures = await sendAdvanceAndReceive(iterations: 100)
    XCTAssertEqual(failures, [])
  }
}
