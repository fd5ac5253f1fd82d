import Composable
import XCTest

/// `TestStore` in an XCTest test case, as older TCA test suites are written.
final class TestStoreXCTests: XCTestCase {
  @MainActor
  func testATestStorePassesInXCTest() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stopwatch.State()) {
      Stopwatch()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.startButtonTapped) {
      $0.isRunning = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.tick) {
      $0.secondsElapsed = 1
    }
    await store.send(.stopButtonTapped) {
      $0.isRunning = false
    }
    XCTAssertEqual(store.state, Stopwatch.State(isRunning: false, secondsElapsed: 1))
  }

  /// The failure goes to the reporters IssueReporting has in XCTest; here a capturing one
  /// alone, so that the failure is read rather than failing this test.
  @MainActor
  func testAFailureIsReportedWithItsMessage() async {
    let reporter = CapturingReporter()
    await withIssueReporters([reporter]) {
      let store = TestStore(initialState: Stopwatch.State()) {
        Stopwatch()
      }
      await store.send(.stopButtonTapped) {
        $0.isRunning = true
      }
    }
    XCTAssertEqual(
      reporter.messages.value.map { $0.replacingOccurrences(of: "\u{2007}", with: " ") },
      [
        """
        A state change does not match expectation: …

              Stopwatch.State(
            −   isRunning: true,
            +   isRunning: false,
                secondsElapsed: 0
              )

        (Expected: −, Actual: +)
        """
      ]
    )
  }
}
