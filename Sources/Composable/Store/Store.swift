/// Runs a feature: holds its state, processes the actions sent to it through the reducer, and
/// runs the effects the reducer returns.
///
/// ```swift
/// let store = Store(initialState: AppFeature.State()) {
///   AppFeature()
/// }
/// await store.send(.view(.onAppear)).finish()
/// ```
///
/// Actions are processed one at a time on the main actor, in the order they arrive; actions
/// sent by effects are processed in the order the effects send them.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action> {
  private let readState: @MainActor () -> State
  private let sendAction: @MainActor (Action) -> StoreTask
  private let finishAll: @MainActor () async -> Void
  /// Replaces the state of a root store; `nil` for a scoped one.
  private let replaceRootState: (@MainActor (State) -> Void)?

  /// Creates a store that runs `reducer` from `initialState`.
  ///
  /// - Parameters:
  ///   - initialState: The feature's state at the start.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Changes the dependencies the reducer and its effects run with.
  ///     Default: none, and they run with the dependencies current where the store is made.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    let (initialState, reducer) = Self.prepare(initialState, reducer, prepareDependencies)
    self.init(runtime: StoreRuntime(initialState: initialState, reducer: reducer, observer: nil))
  }

  /// Creates a store that hands an ``ActionEvent`` to `observer` for every action it processes.
  ///
  /// This is the seam recorders are built on. The observer runs on the main actor right after
  /// the reducer, before the action's effects start; keep it quick.
  ///
  /// - Parameters:
  ///   - initialState: The feature's state at the start.
  ///   - observer: Receives each processed action, its origin, the state before and after, and
  ///     the child features it was routed to.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Changes the dependencies the reducer and its effects run with.
  ///     Default: none.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    observer: @escaping @MainActor (ActionEvent<State, Action>) -> Void,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    self.init(
      initialState: initialState(),
      observer: {
        observer($0.pointee)
        return false
      }, willReduce: nil,
      reducer: reducer, withDependencies: prepareDependencies)
  }

  /// A store with an observer that is also told of each action before its reducer runs, with
  /// its id, origin and the time the reducer starts: a recorder's flight journal. The observer
  /// is handed the event where it lies, valid during the call only, and returns whether it took
  /// it: moved it out (`moveInitialize`), so that the store does not destroy it.
  ///
  /// - Parameter admits: Asked of each action, with its origin, before it is numbered: one it
  ///   refuses is dropped, neither reduced, observed nor its effect run. For a debugger's lock
  ///   (see ``replaceState(_:)``). Default: every action is.
  package convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    observer: @escaping @MainActor (UnsafeMutablePointer<ActionEvent<State, Action>>) -> Bool,
    willReduce: (@MainActor (Int, Action, ActionOrigin, UInt64) -> Void)?,
    admits: (@MainActor (ActionOrigin) -> Bool)? = nil,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    let (initialState, reducer) = Self.prepare(initialState, reducer, prepareDependencies)
    self.init(
      runtime: StoreRuntime(
        initialState: initialState, reducer: reducer, observer: observer, willReduce: willReduce,
        admits: admits)
    )
  }

  /// Replaces the state of a root store between two actions, as a debugger's jump does
  /// (`tcatrace serve --live`): nothing is reduced or observed, and the effects running go on.
  /// A scoped store's state is its parent's: it is left as it is.
  ///
  /// NB: TCA's `Store` has no such door: there, a debugger's state comes in through a reducer
  /// that wraps the app's, carried by an action of the app's.
  package func replaceState(_ state: State) {
    self.replaceRootState?(state)
  }

  /// Builds the initial state and the reducer with the store's dependencies, and pins those
  /// dependencies to the reducer, as TCA's `Store` does: the reducer and its effects then see
  /// them wherever actions are sent from.
  private static func prepare<R: Reducer<State, Action>>(
    _ initialState: () -> State,
    _ reducer: () -> R,
    _ prepareDependencies: ((inout DependencyValues) -> Void)?
  ) -> (State, _DependencyKeyWritingReducer<R>) {
    let (initialState, reducer, dependencies) = withDependencies(prepareDependencies ?? { _ in }) {
      @Dependency(\.self) var dependencies
      return (initialState(), reducer(), dependencies)
    }
    return (initialState, reducer.dependency(\.self, dependencies))
  }

  private convenience init(runtime: StoreRuntime<State, Action>) {
    self.init(
      readState: { runtime.state },
      sendAction: { runtime.send($0) },
      finishAll: { await runtime.finish() },
      replaceRootState: { runtime.replaceState($0) }
    )
  }

  private init(
    readState: @escaping @MainActor () -> State,
    sendAction: @escaping @MainActor (Action) -> StoreTask,
    finishAll: @escaping @MainActor () async -> Void,
    replaceRootState: (@MainActor (State) -> Void)? = nil
  ) {
    self.readState = readState
    self.sendAction = sendAction
    self.finishAll = finishAll
    self.replaceRootState = replaceRootState
  }

  /// The current state.
  public var state: State {
    self.readState()
  }

  /// Reads a value of the current state.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    self.state[keyPath: keyPath]
  }

  /// Sends an action to the store.
  ///
  /// The reducer runs, and synchronous effects (`.send`) are processed, before this returns.
  ///
  /// - Returns: A task for the asynchronous effects this action started, directly or through
  ///   the actions they sent. `await store.send(action).finish()` waits for all of them.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    self.sendAction(action)
  }

  /// Waits until every effect running in the store, or in the store it was scoped from, has
  /// finished, but for those that wait for a presented feature to dismiss itself: they end with
  /// the presentation. A dismissal under way is waited for.
  ///
  /// Cancelling the waiting task cancels the effects it waits for.
  ///
  /// NB: The task `send(_:)` returns, as in TCA, includes such an effect when the action
  /// presents a feature, and so runs until the feature goes away.
  public func finish() async {
    await self.finishAll()
  }

  /// A store for a child feature: it reads the child's state from this store's state and sends
  /// its actions through this store, embedded in the parent's action.
  ///
  /// ```swift
  /// let loginStore = store.scope(state: \.login, action: \.login)
  /// loginStore.send(.view(.loginButtonTapped))
  /// // the root receives .login(.view(.loginButtonTapped))
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let toChildAction = AnyCasePath(toChildAction)
    return self.scope(state: toChildState, embed: { toChildAction.embed($0) })
  }

  /// A store for an optional child feature, or `nil` when the child's state is `nil`.
  ///
  /// ```swift
  /// if let twoFactor = loginStore.scope(state: \.twoFactor, action: \.twoFactor) { … }
  /// ```
  ///
  /// After the child's state goes away, the store keeps reading the child's last state.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    let toChildAction = AnyCasePath(toChildAction)
    return self.scope(state: toChildState, embed: { toChildAction.embed($0) })
  }

  /// The optional form of ``scope(state:embed:)``.
  package func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    embed: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    guard let initial = self.state[keyPath: toChildState] else { return nil }
    let last = LastValue(initial)
    return Store<ChildState, ChildAction>(
      readState: {
        if let state = self.state[keyPath: toChildState] { last.value = state }
        return last.value
      },
      sendAction: { self.send(embed($0)) },
      finishAll: self.finishAll
    )
  }

  /// A store for a child feature whose actions `embed` wraps in this store's actions; the
  /// designated form the case-path conveniences build on.
  package func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    embed: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    Store<ChildState, ChildAction>(
      readState: { self.state[keyPath: toChildState] },
      sendAction: { self.send(embed($0)) },
      finishAll: self.finishAll
    )
  }
}

/// A store of `R`'s state and actions.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

/// The last value a scoped store read of an optional child, kept for after the child is gone.
@MainActor
private final class LastValue<Value> {
  var value: Value

  init(_ value: Value) {
    self.value = value
  }
}
