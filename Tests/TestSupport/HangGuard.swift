import Testing

extension Trait where Self == TimeLimitTrait {
  /// Every suite's time limit: a guard against a hang, sized for a loaded machine.
  ///
  /// NB: A test's time runs from when the run starts it, not from when it gets a thread, and
  /// the store tests of every suite wait their turns on the one main actor. With two busy loops
  /// per core beside it (`.ci/load-check`), a whole run took over three minutes on two cores,
  /// and a test started at once waited most of that for its turns: limits of one to three
  /// minutes failed thirty tests that were only waiting. A stalled run is caught by `.ci/run`'s
  /// watcher too, sooner, with every thread's stack.
  public static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
