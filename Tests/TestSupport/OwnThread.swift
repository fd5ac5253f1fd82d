import Foundation

/// `body`'s result, worked out on a thread of its own.
///
/// NB: Not on one of the few threads Swift's concurrency runs every test's tasks on: work that
/// blocks for seconds (a process waited for, a long rebuild) would hold one of them as long,
/// and starve the other tests' effects and time outs. `body` runs outside the test's task, so
/// it records no issues itself: it returns what it found.
public func onThreadOfItsOwn<Value: Sendable>(
  _ body: @escaping @Sendable () throws -> Value
) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread {
      continuation.resume(with: Result { try body() })
    }
  }
}
