/// A random number generator that gives the same numbers for the same seed on every run: a
/// randomized test that fails, fails again.
public struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  public init(seed: UInt64) {
    self.state = seed
  }

  public mutating func next() -> UInt64 {
    self.state = self.state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return self.state
  }
}
