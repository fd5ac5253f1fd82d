extension Duration {
  /// The duration in whole nanoseconds: 0 for a negative one, `UInt64.max` past it.
  package var clampedNanoseconds: UInt64 {
    let (seconds, attoseconds) = self.components
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
  }
}
