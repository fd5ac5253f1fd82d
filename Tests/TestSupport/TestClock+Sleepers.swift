import Clocks
import Testing

extension TestClock<Duration> {
  /// Waits until something sleeps on the clock.
  ///
  /// NB: An effect starts on a task of its own, so right after a `send` it may not be asleep
  /// yet; advancing the clock before it sleeps would move time past it.
  public func waitForSleeper() async {
    // NB: Ten thousand tries and thirty seconds, both: on a loaded machine the effect's task
    // may wait long for a thread (the tries run out first), and other tests' work on the main
    // actor may hold up these tries as long (the time runs out first).
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    var tries = 0
    while tries < 10_000 || ContinuousClock.now < deadline {
      tries += 1
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
  public func tick(seconds: Int) async {
    for _ in 0..<seconds {
      await self.waitForSleeper()
      await self.advance(by: .seconds(1))
    }
    await self.waitForSleeper()
  }
}
