import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

  public init(
    name: String, median: Double, min: Double, max: Double, unit: String, repetitions: Int
  ) {
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

/// The CPU time the calling thread has used, in nanoseconds: time it spent off its core (the
/// host's other work, another thread on the same core) does not count.
func threadCPUNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// The CPU time of the whole process, every thread's, in nanoseconds.
func processCPUNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Keeps the calling thread, and the threads it starts (which inherit its affinity), on one
/// core, for measuring what threads that share a core cost each other.
///
/// NB: `sched_setaffinity` is a GNU extension that Swift's Glibc does not import; it is looked
/// up by name. On Linux its pid 0 is the calling thread, not the process.
struct CoreAffinity {
  private typealias SetAffinity = @convention(c) (Int32, Int, UnsafeRawPointer) -> Int32
  private typealias GetAffinity = @convention(c) (Int32, Int, UnsafeMutableRawPointer) -> Int32
  private let set: SetAffinity
  private let original: [UInt64]

  /// The calling thread's affinity, or `nil` where it cannot be set, or where the thread may
  /// use one core only.
  init?() {
    #if os(Linux)
      guard let process = dlopen(nil, RTLD_NOW),
        let set = dlsym(process, "sched_setaffinity"), let get = dlsym(process, "sched_getaffinity")
      else { return nil }
      self.set = unsafeBitCast(set, to: SetAffinity.self)
      var mask = [UInt64](repeating: 0, count: 16)
      let got = mask.withUnsafeMutableBytes {
        unsafeBitCast(get, to: GetAffinity.self)(0, $0.count, $0.baseAddress!)
      }
      guard got == 0, mask.reduce(0, { $0 + $1.nonzeroBitCount }) > 1 else { return nil }
      self.original = mask
    #else
      return nil
    #endif
  }

  /// Runs `body` with the calling thread on the first core it may use, then gives it back
  /// every core it had.
  @MainActor
  func onOneCore<T>(_ body: () async throws -> T) async rethrows -> T {
    var one = [UInt64](repeating: 0, count: self.original.count)
    if let word = self.original.firstIndex(where: { $0 != 0 }) {
      one[word] = 1 << UInt64(self.original[word].trailingZeroBitCount)
    }
    _ = one.withUnsafeBytes { self.set(0, $0.count, $0.baseAddress!) }
    defer { _ = self.original.withUnsafeBytes { self.set(0, $0.count, $0.baseAddress!) } }
    return try await body()
  }
}

/// The ratios `a[i] / b[i]` of samples taken in pairs, one right after the other: their median,
/// and the 95% interval of that median which the ratios' ranks give, whatever their
/// distribution (the sign test's interval: between the ratios of ranks ⌊n/2 − 0.98√n⌋ and
/// ⌈1 + n/2 + 0.98√n⌉).
///
/// NB: A pair shares the host's state of the moment, which a lone sample does not: a slower
/// stretch slows both sides of the pairs it spans. The interval says how far a run can tell:
/// at 10 rows, where a keyframe costs the store a sum and a comparison an action, the least of
/// 15 with over the least of 15 without ranged from 0.87 to 1.13 over nine runs.
package struct PairedRatios {
  package let median: Double
  package let lower: Double
  package let upper: Double

  package init(_ a: [Double], _ b: [Double]) {
    let ratios = zip(a, b).map { $0 / $1 }.sorted()
    let n = Double(ratios.count)
    let halfWidth = 1.96 * n.squareRoot() / 2
    let lowerRank = min(max(Int((n / 2 - halfWidth).rounded(.down)), 1), ratios.count)
    let upperRank = min(max(Int((1 + n / 2 + halfWidth).rounded(.up)), 1), ratios.count)
    self.median = ratios[ratios.count / 2]
    self.lower = ratios[lowerRank - 1]
    self.upper = ratios[upperRank - 1]
  }

  /// The median, with `target`, and the upper end of its interval, as two ratios named
  /// "`name`, paired, median" and "`name`, paired, 95% interval to".
  package func ratios(_ name: String, target: Ratio.Target?) -> [Ratio] {
    [
      Ratio(name: "\(name), paired, median", value: self.median, target: target),
      Ratio(name: "\(name), paired, 95% interval to", value: self.upper),
    ]
  }
}
