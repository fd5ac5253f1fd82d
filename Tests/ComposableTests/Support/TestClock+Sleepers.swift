import Composable
import Testing

extension TestClock<Duration> {
  /// Waits until something sleeps on the clock.
  ///
  /// NB: An effect starts on a task of its own, so right after a `send` it may not be asleep
  /// yet; advancing the clock before it sleeps would move time past it.
  func waitForSleeper() async {
    // NB: Given time, not a number of tries: on a loaded machine, with other tests' work on
    // every core, the effect's task may wait long for a thread.
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while ContinuousClock.now < deadline {
      do {
        try await self.checkSuspension()
      } catch {
        return
      }
    }
    Issue.record("Nothing slept on the test clock")
  }

  /// Advances the clock a second at a time, each second once something sleeps on it: a ticking
  /// effect then sees every second. Returns once the effect sleeps again, so the store has
  /// received what the last second sent.
  ///
  /// NB: Without the last wait, a loaded machine can return before the woken effect has sent its
  /// action: it resumes on another thread and hops back to the main actor.
  func tick(seconds: Int) async {
    for _ in 0..<seconds {
      await self.waitForSleeper()
      await self.advance(by: .seconds(1))
    }
    await self.waitForSleeper()
  }
}
