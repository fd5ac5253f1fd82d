import Composable
import Testing
import XCTest

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

@Reducer
private struct Ticker {
  @ObservableState
  struct State: Equatable {
    var ticks = 0
  }

  enum Action {
    case startButtonTapped
    case tick
  }

  @Dependency(\.continuousClock) var clock
  private enum CancelID { case timer }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startButtonTapped:
        return .run { send in
          for await _ in self.clock.timer(interval: .seconds(1)) {
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer)
      case .tick:
        state.ticks += 1
        return .none
      }
    }
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
    let store = TestStore(initialState: Ticker.State()) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = await store.send(.startButtonTapped)
    let sleptAfterSend = clock.sleeps.value
    await clock.base.advance(by: .seconds(1))
    await store.receive(\.tick) {
      $0.ticks = 1
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
