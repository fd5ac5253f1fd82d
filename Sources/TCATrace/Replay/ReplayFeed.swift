#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif
import Foundation

/// A session's actions, read from its trace on a thread of their own a batch at a time, a few
/// batches ahead of the replay that takes them: reading overlaps replaying.
final class ReplayFeed {
  private var batches: AsyncThrowingStream<[ReplayedAction], any Error>.AsyncIterator
  /// The batches the reading thread may read ahead.
  private let slots: DispatchSemaphore
  private let stopped: LockIsolated<Bool>

  static let batchSize = 256
  static let batchesAhead = 8

  /// Starts reading `session` of the trace at `path`.
  init(path: String, session: Int64) {
    let (batches, continuation) = AsyncThrowingStream<[ReplayedAction], any Error>.makeStream()
    let slots = DispatchSemaphore(value: Self.batchesAhead)
    let stopped = LockIsolated(false)
    self.batches = batches.makeAsyncIterator()
    self.slots = slots
    self.stopped = stopped
    // NB: A replay that stops early stops the reading, which may be waiting for a slot.
    continuation.onTermination = { _ in
      stopped.setValue(true)
      slots.signal()
    }
    Thread.detachNewThread {
      do {
        let reader = try TraceReader(path: path)
        var batch: [ReplayedAction] = []
        batch.reserveCapacity(Self.batchSize)
        try reader.forEachReplayedAction(session: session) { action in
          batch.append(action)
          guard batch.count == Self.batchSize else { return true }
          slots.wait()
          guard !stopped.value else { return false }
          continuation.yield(batch)
          batch.removeAll(keepingCapacity: true)
          return true
        }
        if !batch.isEmpty { continuation.yield(batch) }
        try reader.checkUnchanged()
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
  }

  deinit {
    self.stopped.setValue(true)
    self.slots.signal()
  }

  /// The next batch of actions, by seq; `nil` after the last.
  ///
  /// - Throws: What reading the trace threw.
  func next() async throws -> [ReplayedAction]? {
    guard let batch = try await self.batches.next() else { return nil }
    self.slots.signal()
    return batch
  }
}
