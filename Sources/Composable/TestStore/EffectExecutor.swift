import Dispatch
import RuntimeSupport

/// The executor a ``TestStore``'s effects run on: the thread pool's threads, with a count of the
/// jobs handed to it that have not run to their end.
///
/// While the count is zero, every effect of the store is suspended, at a test clock's `sleep`,
/// on a `send` to the main actor, or done: the test store can tell when the effects it just
/// started or woke have reached where they wait, however busy the machine, rather than giving
/// them a moment and hoping. Work an effect hands to another executor (an actor of its own, a
/// dispatch queue) is not counted.
package final class EffectExecutor: Sendable {
  /// Jobs handed to the executor that have not run to their end, and effects whose tasks are
  /// created and whose operations have not begun on the executor.
  private let work = Locked((jobs: 0, starting: 0))

  package init() {}

  /// Whether every effect that was started has begun, and no job of one is queued or running.
  package var isIdle: Bool {
    self.work.withLock { $0.jobs == 0 && $0.starting == 0 }
  }

  /// Counts an effect whose task is about to be created.
  package func effectWillStart() {
    self.work.withLock { $0.starting += 1 }
  }

  /// Counts an effect as begun: called from its operation, on the executor, where a job of
  /// the executor is running and counted.
  package func effectDidStart() {
    self.work.withLock { $0.starting -= 1 }
  }

  /// Where the jobs run.
  ///
  /// NB: A queue of its own rather than a global one: it targets the overcommitting root queue,
  /// which gives a job a thread when all are busy. On a global queue, a job waited behind
  /// other tests' long work for the two threads two cores allow, past the store's time out.
  private static let queue = DispatchQueue(
    label: "Composable.TestStore.effects", attributes: .concurrent
  )

  @available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
  fileprivate func run(_ job: UnownedJob, on executor: UnownedTaskExecutor) {
    self.work.withLock { $0.jobs += 1 }
    Self.queue.async {
      job.runSynchronously(on: executor)
      self.work.withLock { $0.jobs -= 1 }
    }
  }
}

@available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
extension EffectExecutor: TaskExecutor {
  package func enqueue(_ job: consuming ExecutorJob) {
    self.run(UnownedJob(job), on: self.asUnownedTaskExecutor())
  }
}
