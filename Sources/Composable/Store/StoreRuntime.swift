import Dispatch
import RuntimeSupport

/// The engine behind a root ``Store``: the state, the action queue, and the running effects.
@MainActor
final class StoreRuntime<State, Action> {
  private(set) var state: State
  private let reducer: (inout State, Action) -> Effect<Action>
  /// Handed each processed action's event, where it lies: a pointer is the one thing a
  /// recorder can read it through without the event type's generic metadata, which costs a
  /// lookup each time unspecialized code asks for it.
  ///
  /// The observer returns whether it took the event: moved it out of the place, which the store
  /// then does not destroy.
  private let observer: (@MainActor (UnsafeMutablePointer<ActionEvent<State, Action>>) -> Bool)?
  /// Told of each action before its reducer runs, when there is an observer; inside the
  /// action's access to ``state``, which it must not read.
  private let willReduce: (@MainActor (Int, Action, ActionOrigin, UInt64) -> Void)?
  /// Asked of each action, with its origin, before it is numbered: one it refuses is dropped,
  /// neither reduced, observed nor its effect run (a debugger's lock).
  private let admits: (@MainActor (ActionOrigin) -> Bool)?

  /// Actions waiting to be processed, with where they came from and the send they belong to.
  private var queue: [(action: Action, origin: ActionOrigin, tasks: TaskList)] = []
  private var queueHead = 0
  private var isProcessing = false
  private var nextActionID = 1

  private let collector = RouteCollector()
  /// Where the event of the action being observed lies, from before its reducer runs (the state
  /// before it) until the observer has read it; allocated once, for a store with an observer.
  ///
  /// NB: `nonisolated(unsafe)`: read on the main actor, and by `deinit`, when nothing else can.
  nonisolated(unsafe) private let event: UnsafeMutablePointer<ActionEvent<State, Action>>?
  /// Where the event's stored properties lie in it; found for a store with an observer.
  private let eventFields: ActionEventFields?
  /// What the reducer reaches of this store while it runs: see ``StoreContext``.
  private let handle = StoreHandle()
  /// The values shared values had before the action being processed changed them; a
  /// `TestStore` keeps them until it has asserted the action.
  var sharedChanges: SharedChangeTracker { self.handle.sharedChanges }

  private var nextTaskID = 0
  private var runningTasks: [Int: Task<Void, Never>] = [:]
  private var tasksByCancelID: [CancelID: Set<Int>] = [:]
  private var cancelIDsByTask: [Int: [CancelID]] = [:]

  /// Whether the runtime keeps, for ``inFlightEffects``, the action each running effect was
  /// returned for. Only a `TestStore` asks.
  package var tracksEffects = false
  /// Where effects run, when a `TestStore` needs to know whether they are all waiting;
  /// otherwise, the global executor.
  package var effectExecutor: EffectExecutor?
  /// The action whose effect is being started, while `tracksEffects`.
  private var startingAction: Action?
  /// The tasks started for the effect of an action, by task, with that action; a task leaves
  /// when it ends or is cancelled by id.
  private var trackedEffects: [Int: Action] = [:]

  init<R: Reducer<State, Action>>(
    initialState: State,
    reducer: R,
    observer: (@MainActor (UnsafeMutablePointer<ActionEvent<State, Action>>) -> Bool)?,
    willReduce: (@MainActor (Int, Action, ActionOrigin, UInt64) -> Void)? = nil,
    admits: (@MainActor (ActionOrigin) -> Bool)? = nil
  ) {
    self.state = initialState
    self.reducer = { reducer.reduce(into: &$0, action: $1) }
    self.observer = observer
    self.willReduce = willReduce
    self.admits = admits
    self.event = observer == nil ? nil : .allocate(capacity: 1)
    self.eventFields = observer == nil ? nil : ActionEventFields(ActionEvent<State, Action>.self)
    self.handle.isRunning = { [weak self] in self?.tasksByCancelID[$0] != nil }
  }

  /// Cancels the effects still running, as TCA's store does when it goes away: nothing can
  /// receive what they would send.
  ///
  /// NB: Not an `isolated deinit`: from iOS 18.4 and macOS 15.4 one runs through the OS's
  /// runtime, which aborts when the object is released on the main thread inside a task-local
  /// scope with no task running (`withDependencies { }` in a test; swiftlang/swift #85221,
  /// fixed by #85204 in runtimes after those). Cancelling a task is thread-safe, and the tasks
  /// are read from a runtime nothing else can reach any more.
  deinit {
    for task in self.runningTasks.values { task.cancel() }
    // NB: Initialized only while an action is reduced and observed.
    self.event?.deallocate()
  }

  func send(_ action: Action) -> StoreTask {
    let tasks = TaskList()
    self.enqueue(action, origin: .send, tasks: tasks)
    guard !tasks.isEmpty else { return StoreTask(rawValue: nil) }
    return StoreTask(
      rawValue: Task { @MainActor in
        await withTaskCancellationHandler {
          await tasks.waitForAll()
        } onCancel: {
          tasks.cancelAll()
        }
      }
    )
  }

  /// Waits for every running effect but those waiting for a presented feature to dismiss
  /// itself, which end with the presentation; one that is dismissing it is waited for.
  ///
  /// Cancelling the waiting task cancels them, as it does ``StoreTask/finish()``'s: a test
  /// past its time limit ends, rather than waiting for good for an effect that sleeps on a test
  /// clock nobody will advance.
  func finish() async {
    while let task = self.runningTasks.first(where: { !self.isWaitingForDismissal($0.key) })?.value
    {
      await withTaskCancellationHandler {
        await task.value
      } onCancel: {
        task.cancel()
      }
    }
  }

  /// Whether a task is a dismissal effect whose feature has not asked to be dismissed.
  private func isWaitingForDismissal(_ taskID: Int) -> Bool {
    guard
      let dismissal = self.cancelIDsByTask[taskID]?.lazy
        .compactMap({ $0.base.base as? DismissalID }).first
    else { return false }
    return !self.handle.dismissed.contains(dismissal.wait)
  }

  // MARK: - Processing actions

  private func enqueue(_ action: Action, origin: ActionOrigin, tasks: TaskList) {
    self.queue.append((action, origin, tasks))
    guard !self.isProcessing else { return }
    self.isProcessing = true
    defer { self.isProcessing = false }
    while self.queueHead < self.queue.count {
      let next = self.queue[self.queueHead]
      self.queueHead += 1
      self.process(next.action, origin: next.origin, tasks: next.tasks)
    }
    self.queue.removeAll(keepingCapacity: true)
    self.queueHead = 0
  }

  private func process(_ action: Action, origin: ActionOrigin, tasks: TaskList) {
    StoreContext.with(self.handle) {
      self.handle.sharedChanges.tracking { self.reduce(action, origin: origin, tasks: tasks) }
    }
  }

  /// Replaces the state between two actions, as a debugger's jump does; nothing is reduced or
  /// observed.
  func replaceState(_ state: State) {
    self.state = state
  }

  private func reduce(_ action: Action, origin: ActionOrigin, tasks: TaskList) {
    if let admits = self.admits, !admits(origin) { return }
    let id = self.nextActionID
    self.nextActionID += 1
    // NB: A store nobody observes builds no event, nor asks for its type.
    let effect =
      self.observer == nil
      ? self.reducer(&self.state, action)
      : self.reduceObserved(action, id: id, origin: origin)
    if self.tracksEffects {
      self.startingAction = action
      defer { self.startingAction = nil }
      _ = self.start(effect.operation, cause: id, tasks: tasks)
    } else {
      _ = self.start(effect.operation, cause: id, tasks: tasks)
    }
  }

  /// Reduces `action` and hands its event to the observer.
  @inline(never)
  private func reduceObserved(_ action: Action, id: Int, origin: ActionOrigin) -> Effect<Action> {
    // NB: `process` is never re-entered: the one place is enough.
    guard let observer = self.observer, let place = self.event, let fields = self.eventFields
    else { return self.reducer(&self.state, action) }
    let event = UnsafeMutableRawPointer(place)
    // NB: The state is accessed once for the whole action, as a plain reduce does: each access
    // of it is checked for exclusivity, and the event's two copies and the reducer's change made
    // three (two fewer: 44 instructions an action fewer in the burst).
    let effect = self.reduce(
      action, id: id, origin: origin, into: event, fields: fields, state: &self.state)
    // NB: An observer that takes the event moves it out: nothing is left to destroy, and the
    // copy the recorder would otherwise make, and this destruction, are not paid.
    let taken = self.handle.sharedChanges.comparing { observer(place) }
    if !taken { fields.deinitialize(event, State.self, Action.self) }
    return effect
  }

  /// Reduces `action` in `state`, the store's, and writes its event at `event`.
  private func reduce(
    _ action: Action, id: Int, origin: ActionOrigin, into event: UnsafeMutableRawPointer,
    fields: ActionEventFields, state: inout State
  ) -> Effect<Action> {
    // NB: The state before is copied into the event at once, where a local copy would be
    // copied again into it.
    event.eventField(fields.stateBefore, State.self).initialize(to: state)
    // NB: One collector for every action: `process` is never re-entered (`enqueue` queues
    // what is sent meanwhile), and a collector per action was an allocation per action.
    let collector = self.collector
    collector.reset()
    let start = DispatchTime.now().uptimeNanoseconds
    self.willReduce?(id, action, origin, start)
    // NB: Bound and unbound around the call, not around a closure that makes it: an isolated
    // closure checks its executor at each call, a few hundred instructions.
    let unbound = ActionRouting.bind(collector)
    let effect = self.reducer(&state, action)
    ActionRouting.unbind(restoring: unbound)
    let end = DispatchTime.now().uptimeNanoseconds
    // NB: Written a property at a time, straight from where each value is: building an
    // `ActionEvent` here, in generic code that is not specialized, looked the event type's
    // metadata up at each action (about 340 instructions). See `ActionEventFields`.
    event.eventField(fields.id, Int.self).initialize(to: id)
    event.eventField(fields.action, Action.self).initialize(to: action)
    event.eventField(fields.origin, ActionOrigin.self).initialize(to: origin)
    event.eventField(fields.stateAfter, State.self).initialize(to: state)
    event.eventField(fields.route, [ActionRoute].self).initialize(to: collector.route)
    event.eventField(fields.ownEffectCounts, [Int].self)
      .initialize(to: collector.ownEffectCounts(rootTotal: effect.operation.count))
    event.eventField(fields.timestamp, UInt64.self).initialize(to: start)
    event.eventField(fields.duration, UInt64.self).initialize(to: end &- start)
    return effect
  }

  // MARK: - Effects in flight, for TestStore

  /// The effects still running, each as the action it was returned for, in the order they
  /// started; effects that wait for a presented feature to dismiss itself are left out: they end
  /// with the presentation.
  ///
  /// NB: An effect that runs several tasks (a merge) counts once per task; the tasks a
  /// concatenation starts later belong to its own task.
  package var inFlightEffects: [Action] {
    self.trackedEffects
      .filter { !self.isWaitingForDismissal($0.key) }
      .sorted { $0.key < $1.key }
      .map(\.value)
  }

  /// Cancels the effects in ``inFlightEffects``, which leave it at once.
  package func cancelInFlightEffects() {
    for taskID in self.trackedEffects.keys where !self.isWaitingForDismissal(taskID) {
      self.runningTasks[taskID]?.cancel()
      self.trackedEffects[taskID] = nil
    }
  }

  // MARK: - Running effects

  /// Starts `operation`; returns the ids of the tasks it started right away.
  private func start(
    _ operation: Effect<Action>.Operation, cause: Int, tasks: TaskList
  ) -> [Int] {
    switch operation {
    case .none:
      return []

    case let .send(action):
      self.enqueue(action(), origin: .effect(cause: cause), tasks: tasks)
      return []

    case let .run(priority, name, run):
      let send = Send<Action> { [weak self] action in
        self?.enqueue(action, origin: .effect(cause: cause), tasks: tasks)
      }
      return [self.spawn(priority: priority, name: name, tasks: tasks) { await run(send) }]

    case let .merge(operations):
      return operations.flatMap { self.start($0, cause: cause, tasks: tasks) }

    case let .concatenate(operations):
      guard !operation.isSynchronous else {
        return operations.flatMap { self.start($0, cause: cause, tasks: tasks) }
      }
      return [
        self.spawn(priority: nil, tasks: tasks) { @MainActor [weak self] in
          for operation in operations {
            guard !Task.isCancelled, let self else { return }
            for id in self.start(operation, cause: cause, tasks: tasks) {
              await self.waitForTask(id)
            }
          }
        }
      ]

    case let .cancellable(id, cancelInFlight, operation):
      if cancelInFlight { self.cancel(id: id) }
      let started = self.start(operation, cause: cause, tasks: tasks)
      for taskID in started where self.runningTasks[taskID] != nil {
        self.tasksByCancelID[id, default: []].insert(taskID)
        self.cancelIDsByTask[taskID, default: []].append(id)
      }
      return started

    case let .cancel(id):
      self.cancel(id: id)
      return []
    }
  }

  private func spawn(
    priority: TaskPriority?,
    name: String? = nil,
    tasks: TaskList,
    operation: @escaping @Sendable () async -> Void
  ) -> Int {
    let id = self.nextTaskID
    self.nextTaskID += 1
    let task: Task<Void, Never>
    if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *),
      let executor = self.effectExecutor
    {
      task = Self.spawn(on: executor, name: name, priority: priority, operation: operation) {
        [weak self] in
        self?.taskDidFinish(id)
      }
    } else {
      task = Task(name: name, priority: priority) { @MainActor [weak self] in
        await operation()
        self?.taskDidFinish(id)
      }
    }
    self.runningTasks[id] = task
    if let action = self.startingAction { self.trackedEffects[id] = action }
    tasks.append(task)
    return id
  }

  /// Starts an effect's task on `executor`.
  ///
  /// The executor counts the effect from now until it first waits.
  ///
  /// NB: Nonisolated, so that the task does not inherit the main actor. Its first job may still
  /// run elsewhere (the global executor) before the operation, which runs on the executor.
  @available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
  private nonisolated static func spawn(
    on executor: EffectExecutor,
    name: String?,
    priority: TaskPriority?,
    operation: @escaping @Sendable () async -> Void,
    didFinish: @escaping @MainActor @Sendable () -> Void
  ) -> Task<Void, Never> {
    executor.effectWillStart()
    let operation: @Sendable () async -> Void = {
      executor.effectDidStart()
      await operation()
    }
    return Task(name: name, executorPreference: executor, priority: priority) {
      await operation()
      await didFinish()
    }
  }

  private func waitForTask(_ id: Int) async {
    guard let task = self.runningTasks[id] else { return }
    await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
  }

  private func taskDidFinish(_ id: Int) {
    self.runningTasks[id] = nil
    if self.tracksEffects { self.trackedEffects[id] = nil }
    for cancelID in self.cancelIDsByTask.removeValue(forKey: id) ?? [] {
      self.tasksByCancelID[cancelID]?.remove(id)
      if self.tasksByCancelID[cancelID]?.isEmpty == true {
        self.tasksByCancelID[cancelID] = nil
      }
      if !self.handle.dismissed.isEmpty, let dismissal = cancelID.base.base as? DismissalID {
        self.handle.dismissed.remove(dismissal.wait)
      }
    }
  }

  private func cancel(id: CancelID) {
    for taskID in self.tasksByCancelID[id] ?? [] {
      self.runningTasks[taskID]?.cancel()
      if self.tracksEffects { self.trackedEffects[taskID] = nil }
    }
  }
}

/// The tasks started on behalf of one ``Store/send(_:)``, including those started later by the
/// actions its effects sent.
final class TaskList: Sendable {
  private let tasks = Locked<[Task<Void, Never>]>([])

  var isEmpty: Bool {
    self.tasks.withLock { $0.isEmpty }
  }

  func append(_ task: Task<Void, Never>) {
    self.tasks.withLock { $0.append(task) }
  }

  func waitForAll() async {
    var index = 0
    while let task = self.tasks.withLock({ index < $0.count ? $0[index] : nil }) {
      await task.value
      index += 1
    }
  }

  func cancelAll() {
    for task in self.tasks.withLock({ $0 }) { task.cancel() }
  }
}

extension UnsafeMutableRawPointer {
  /// The property at `offset` (one of ``ActionEventFields``') of the event here, whose memory is
  /// bound to the event type, and so to its properties' types at their offsets.
  ///
  /// NB: A pointer, not a value: the caller initializes it with a value it owns, moved in.
  /// Handed to a function that is not specialized, a value was copied once more. In this file,
  /// so that it is inlined: called across modules, it was not.
  fileprivate func eventField<Value>(_ offset: Int, _: Value.Type) -> UnsafeMutablePointer<Value> {
    (self + offset).assumingMemoryBound(to: Value.self)
  }
}
