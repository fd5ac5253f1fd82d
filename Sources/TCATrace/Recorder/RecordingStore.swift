import IssueReporting

/// A ``Store`` whose every action is recorded by a ``TraceRecorder``.
///
/// ```swift
/// let recorder = try TraceRecorder(path: "session.db")
/// let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
///   AppFeature()
/// }
/// store.scope(state: \.login, action: \.login).send(.view(.loginButtonTapped))
/// // recorded as _internal.login.view.loginButtonTapped
/// ```
///
/// It has the surface of `Store`: `state`, `send`, `scope` and `finish`; ``store`` is the
/// underlying store, for code that takes a `Store`. Actions sent through scoped stores are
/// recorded with their whole path from the root.
@MainActor
@dynamicMemberLookup
public final class RecordingStore<State, Action> {
  /// The store being recorded.
  public let store: Store<State, Action>
  /// The recorder.
  public let recorder: TraceRecorder
  #if ComposableArchitecture
    /// The effects running in ``store``, which TCA's `Store` does not count.
    private let effects: RunningEffects<Action>
  #endif

  /// Creates a store that runs `reducer` from `initialState` and records it with `recorder`.
  ///
  /// - Parameters:
  ///   - initialState: The feature's state at the start.
  ///   - recorder: Records the store's actions; one recorder records one store.
  ///   - debugger: A `tcatrace serve --live` server to stream the session to as it records
  ///     (see ``TraceDebugger``). Default: the one `TCATRACE_DEBUGGER` names in the process's
  ///     environment, if it is set; none otherwise.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Changes the dependencies the reducer and its effects run with,
  ///     as `Store`'s `withDependencies` does. Default: none.
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    recorder: TraceRecorder,
    debugger: TraceDebugger? = nil,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.recorder = recorder
    let isRecording = recorder.beginSession(
      rootFeature: rootFeatureName(of: R.self), debugger: debugger)
    if !isRecording {
      reportIssue(
        """
        A TraceRecorder records one store, and '\(recorder.path)' already records one. This \
        store is not recorded; give it a recorder of its own (it may use the same file after \
        the first recorder is closed).
        """,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    }
    // NB: A store the page may drive takes the debugger's state, actions and lock too.
    if isRecording, recorder.isStreamingLive {
      let initial = initialState()
      let driver = StoreDriver<State, Action>(recorder: recorder, initialState: initial)
      #if ComposableArchitecture
        // NB: On TCA the store's reducer takes the debugger's commands too, each carried in by
        // an action of the app's (see `DrivenReducer`).
        let effects = RunningEffects<Action>()
        self.effects = effects
        let recording = _RecordingReducer(base: reducer(), recorder: recorder, effects: effects)
        let store = Store(
          initialState: initial,
          reducer: { DrivenReducer(base: recording, driver: driver) },
          withDependencies: prepareDependencies
        )
        self.store = store
        // NB: Weak: the store holds its reducer, which holds the driver.
        driver.send = { [weak store, weak driver] command in
          guard let store, let driver else { return false }
          return driver.carry(command, to: store)
        }
        driver.currentState = { [weak store] in store?.withState { $0 } }
      #else
        // NB: `Composable`'s store keeps its observer, which records for less than a reducer
        // modifier does, and takes the debugger's state and lock through doors of its own.
        let (observer, willReduce, admits) = Self.observer(recording: recorder, driver: driver)
        let store = Store(
          initialState: initial,
          observer: observer,
          willReduce: willReduce,
          admits: admits,
          reducer: reducer,
          withDependencies: prepareDependencies
        )
        self.store = store
        // NB: Weak: the store holds its observer, which holds the driver.
        driver.send = { [weak store, weak driver] command in
          guard let store else { return false }
          switch command {
          case let .take(state):
            store.replaceState(state)
            recorder.stateWasReplaced()
          case let .send(action):
            driver?.debuggerIsSending = true
            store.send(action)
            driver?.debuggerIsSending = false
          }
          return true
        }
        driver.currentState = { [weak store] in store?.state }
      #endif
      recorder.drive { [weak driver] command, read in
        guard let driver else { return ("the app's store has gone", "") }
        return await MainActor.run {
          // NB: The page has been told the app did not answer: it is not done behind its back.
          guard read.duration(to: .now) < LiveStream.commandTimeout else {
            return (
              "the app's main thread was busy for more than \(LiveStream.commandTimeout.components.seconds) s: the command came too late and was not done",
              ""
            )
          }
          return driver.perform(command)
        }
      }
      return
    }
    #if ComposableArchitecture
      // NB: TCA's `Store` has no observer: the reducer records itself (`recording(to:)`).
      let effects = RunningEffects<Action>()
      self.effects = effects
      let recording = _RecordingReducer(
        base: reducer(), recorder: isRecording ? recorder : nil, effects: effects
      )
      self.store = Store(
        initialState: initialState(),
        reducer: { recording },
        withDependencies: prepareDependencies
      )
    #else
      // NB: A store that is not recorded is not observed: it builds no event.
      guard isRecording else {
        self.store = Store(
          initialState: initialState(), reducer: reducer, withDependencies: prepareDependencies)
        return
      }
      let (observer, willReduce) = Self.observer(recording: recorder)
      self.store = Store(
        initialState: initialState(),
        observer: observer,
        willReduce: willReduce,
        reducer: reducer,
        withDependencies: prepareDependencies
      )
    #endif
  }

  #if !ComposableArchitecture
    /// The store's observer: it runs on the main actor, but does not check that it does; made
    /// outside the main actor's isolation, it is not compiled with that check, which every
    /// action would pay.
    private nonisolated static func observer(
      recording recorder: TraceRecorder
    ) -> (
      observer: @Sendable (UnsafeMutablePointer<ActionEvent<State, Action>>) -> Bool,
      willReduce: (@Sendable (Int, Action, ActionOrigin, UInt64) -> Void)?
    ) {
      recorder.storeObserver(State.self, Action.self)
    }

    /// The observer of a store the page may drive, which also keeps each state for a jump, and
    /// the store's gate for the page's lock.
    private nonisolated static func observer(
      recording recorder: TraceRecorder, driver: StoreDriver<State, Action>
    ) -> (
      observer: @Sendable (UnsafeMutablePointer<ActionEvent<State, Action>>) -> Bool,
      willReduce: (@Sendable (Int, Action, ActionOrigin, UInt64) -> Void)?,
      admits: @Sendable (ActionOrigin) -> Bool
    ) {
      let (observer, willReduce) = recorder.storeObserver(
        State.self, Action.self, fromDebugger: { driver.isReducingDebuggers })
      return (
        { event in
          // NB: Kept before the recorder may take the event.
          driver.keep(event.pointee.stateAfter, seq: event.pointee.id)
          return observer(event)
        },
        willReduce,
        { driver.admits($0) }
      )
    }
  #endif

  /// The current state.
  public var state: State {
    #if ComposableArchitecture
      self.store.withState { $0 }
    #else
      self.store.state
    #endif
  }

  /// Reads a value of the current state.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    self.state[keyPath: keyPath]
  }

  /// Sends an action, as ``Store/send(_:)`` does; it is recorded with its origin.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    self.store.send(action)
  }

  /// Waits until every effect in the store has finished: those of the actions sent through
  /// this store, its scoped stores and views, and of the actions their effects sent.
  ///
  /// An effect that never ends (a timer nothing cancels) keeps it waiting. On TCA, which keeps
  /// an effect running while a feature is presented or pushed, the effects of an action that
  /// presented or pushed one are not waited for.
  public func finish() async {
    #if ComposableArchitecture
      await self.effects.finished()
    #else
      await self.store.finish()
    #endif
  }

  /// A store for a child feature; its actions are recorded with their whole path.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    self.store.scope(state: toChildState, action: toChildAction)
  }
}

extension RecordingStore where Action: TCAFeatureAction {
  /// A store for a child embedded in `InternalAction`: `scope(state: \.login, action: \.login)`.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action.InternalAction, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    self.store.scope(state: toChildState, action: toChildAction)
  }
}
