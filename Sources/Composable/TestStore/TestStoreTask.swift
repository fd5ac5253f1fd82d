/// The effects started by one ``TestStore/send(_:assert:fileID:file:line:column:)``, and by the
/// actions they sent.
///
/// ```swift
/// let task = await store.send(.onAppear)
/// // …
/// await task.cancel()  // as the view's disappearance would
/// ```
public struct TestStoreTask: Hashable, Sendable {
  fileprivate let rawValue: Task<Void, Never>?
  fileprivate let timeout: UInt64

  init(rawValue: Task<Void, Never>?, timeout: UInt64) {
    self.rawValue = rawValue
    self.timeout = timeout
  }

  /// Cancels the effects and waits for them to end.
  public func cancel() async {
    self.rawValue?.cancel()
    await self.rawValue?.cancellableValue
  }

  /// Waits for the effects to end, and reports an issue if they have not after `duration`.
  public func finish(
    timeout duration: Duration,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let (seconds, attoseconds) = duration.components
    let nanoseconds =
      seconds < 0
      ? 0 : UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    await self.finish(
      timeout: nanoseconds, fileID: fileID, file: filePath, line: line, column: column
    )
  }

  /// Waits for the effects to end, and reports an issue if they have not after `nanoseconds`
  /// (default: the test store's timeout).
  @_disfavoredOverload
  public func finish(
    timeout nanoseconds: UInt64? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let task = self.rawValue else { return }
    let nanoseconds = nanoseconds ?? self.timeout
    await Task.megaYield()
    let ended = LockIsolated(false)
    let waiter = Task {
      await task.value
      ended.setValue(true)
    }
    let finished = await waitForTurns(timeout: nanoseconds) { ended.value }
    waiter.cancel()
    // NB: As in TCA, a task that did not finish in time is cancelled.
    if !finished { task.cancel() }
    guard !finished else { return }
    let timeoutMessage =
      nanoseconds != self.timeout
      ? #"try increasing the duration of this assertion's "timeout""#
      : #"configure this assertion with an explicit "timeout""#
    reportIssue(
      """
      Expected task to finish, but it is still in-flight\
      \(nanoseconds > 0 ? " after \(Double(nanoseconds) / 1_000_000_000) seconds" : "").

      If this task delivers its action using a clock (via "sleep(for:)", "timer(interval:)", \
      etc.), make sure that you wait enough time for it to perform its work. If you are using a \
      test clock, advance it so that the effects may complete, or consider using an immediate \
      clock to immediately perform the effect instead.

      If you are not yet using a clock, or cannot use a clock, \(timeoutMessage).
      """,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// Whether the effects were cancelled; `true` when the send started none.
  public var isCancelled: Bool {
    self.rawValue?.isCancelled ?? true
  }
}
