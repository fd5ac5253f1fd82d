/// A lock for code that waits while it holds it: one holder at a time, the others in turn, in
/// the order they came. For writes to one socket from several tasks, so that each message goes
/// out whole.
package actor AsyncLock {
  private var isHeld = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  package init() {}

  /// Runs `body` holding the lock.
  package nonisolated func withLock<Result>(
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    await self.acquire()
    do {
      let result = try await body()
      await self.release()
      return result
    } catch {
      await self.release()
      throw error
    }
  }

  private func acquire() async {
    guard self.isHeld else {
      self.isHeld = true
      return
    }
    await withCheckedContinuation { self.waiters.append($0) }
  }

  private func release() {
    if self.waiters.isEmpty {
      self.isHeld = false
    } else {
      // NB: Handed over, still held.
      self.waiters.removeFirst().resume()
    }
  }
}
