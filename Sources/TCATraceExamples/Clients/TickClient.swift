/// The ticks of a repeating timer, as a stream, so that tests and the demo choose how many
/// ticks come and how fast: a dependency, `@Dependency(\.tickClient)`.
///
/// Its live value ticks every second until cancelled; in tests it is unimplemented. The timer
/// runs on `@Dependency(\.continuousClock)`, so a test controls it with a `TestClock`.
@DependencyClient
public struct TickClient: Sendable {
  public var ticks: @Sendable () -> AsyncStream<Void> = { .finished }

  /// A timer that ticks every `interval` of the continuous clock, `count` times (default: until
  /// cancelled).
  public static func every(_ interval: Duration, count: Int = .max) -> Self {
    Self {
      @Dependency(\.continuousClock) var continuousClock
      let clock = continuousClock
      return AsyncStream { continuation in
        let task = Task {
          for _ in 0..<count {
            do { try await clock.sleep(for: interval) } catch { break }
            continuation.yield()
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }
  }

  /// A timer that ticks `count` times at once, then stops.
  public static func immediate(count: Int) -> Self {
    Self {
      AsyncStream { continuation in
        for _ in 0..<count { continuation.yield() }
        continuation.finish()
      }
    }
  }
}

extension TickClient: DependencyKey {
  public static let liveValue = TickClient.every(.seconds(1))
  public static let testValue = TickClient()
}

extension DependencyValues {
  /// The todo list's timer.
  public var tickClient: TickClient {
    get { self[TickClient.self] }
    set { self[TickClient.self] = newValue }
  }
}
