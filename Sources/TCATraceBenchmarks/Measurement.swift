import Dispatch

/// One figure of a benchmark: the median of several repetitions, with their spread.
public struct Figure: Equatable, Sendable {
  /// What was measured: `send, small state: RecordingStore`.
  public var name: String
  /// The median over the repetitions, in `unit`.
  public var median: Double
  /// The lowest and highest repetition.
  public var min: Double
  public var max: Double
  /// `ns/action`, `actions/s`, `MB`.
  public var unit: String
  public var repetitions: Int

  public init(name: String, median: Double, min: Double, max: Double, unit: String, repetitions: Int) {
    self.name = name
    self.median = median
    self.min = min
    self.max = max
    self.unit = unit
    self.repetitions = repetitions
  }

  /// The median, lowest and highest of `samples`, one per repetition.
  public init(name: String, unit: String, samples: [Double]) {
    let sorted = samples.sorted()
    self.init(
      name: name, median: sorted[sorted.count / 2], min: sorted[0], max: sorted[sorted.count - 1],
      unit: unit, repetitions: sorted.count
    )
  }

  /// The spread as a share of the median: (max − min) / median.
  public var spread: Double {
    self.median == 0 ? 0 : (self.max - self.min) / self.median
  }
}

/// A comparison of two figures measured in the same run.
public struct Ratio: Equatable, Sendable {
  public var name: String
  public var value: Double
  /// The target, if the issue sets one, and whether the ratio must stay below or above it.
  public var target: Target?

  public enum Target: Equatable, Sendable {
    case atMost(Double)
    case atLeast(Double)
  }

  public init(name: String, value: Double, target: Target? = nil) {
    self.name = name
    self.value = value
    self.target = target
  }

  /// Whether the ratio meets its target; `nil` when it has none.
  public var meetsTarget: Bool? {
    switch self.target {
    case let .atMost(bound)?: self.value <= bound
    case let .atLeast(bound)?: self.value >= bound
    case nil: nil
    }
  }
}

/// Measures `body`, which does `count` operations, `repetitions` times.
///
/// - Returns: Nanoseconds per operation, one sample per repetition.
@MainActor
func nanosecondsPerOperation(
  repetitions: Int, count: Int, _ body: () async throws -> Void
) async rethrows -> [Double] {
  var samples: [Double] = []
  for _ in 0..<repetitions {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    let end = DispatchTime.now().uptimeNanoseconds
    samples.append(Double(end - start) / Double(max(count, 1)))
  }
  return samples
}
