import Foundation

/// Where a recorder's times come from.
package enum TraceTiming: Sendable {
  /// The clocks: wall time for the session, the store's measurements for actions.
  case measured
  /// Made-up times that are the same every run: the session starts at 2026-01-01T00:00:00Z,
  /// action n starts at (n - 1) ms and runs for (n × 37 mod 50 + 1) µs.
  case fixed

  func now() -> String {
    switch self {
    case .measured:
      let formatter = ISO8601DateFormatter()
      formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
      return formatter.string(from: Date())
    case .fixed:
      return "2026-01-01T00:00:00.000Z"
    }
  }

  /// When action `id`, which started at `timestamp`, happened in the session.
  func time(id: Int, timestamp: UInt64, sessionStart: UInt64) -> Int64 {
    switch self {
    case .measured: Int64(clamping: timestamp &- sessionStart)
    case .fixed: Int64(id - 1) * 1_000_000
    }
  }

  /// How long action `id`, measured at `measured` nanoseconds, took.
  func duration(id: Int, measured: UInt64) -> Int64 {
    switch self {
    case .measured: Int64(clamping: measured)
    case .fixed: Int64(id * 37 % 50 + 1) * 1_000
    }
  }
}
