import Dispatch

/// A runtime for testing a reducer exhaustively: each action's state change, each action its
/// effects send, and that every effect ends.
///
/// ```swift
/// @MainActor
/// @Test func timer() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: Timer.State()) {
///     Timer()
///   } withDependencies: {
///     $0.continuousClock = clock
///   }
///   await store.send(.startButtonTapped) {
///     $0.isRunning = true
///   }
///   await clock.advance(by: .seconds(1))
///   await store.receive(\.tick) {
///     $0.secondsElapsed = 1
///   }
///   await store.send(.stopButtonTapped) {
///     $0.isRunning = false
///   }
/// }
/// ```
///
/// By default (``Exhaustivity/on``) a test must:
///
/// * describe, in the trailing closure of ``send(_:assert:fileID:file:line:column:)`` and
///   `receive`, exactly how the state changed: the closure gets the state before the action and
///   must turn it into the state after it;
/// * receive every action effects send, in order, before it sends the next action;
/// * let every effect end by the end of the test.
///
/// Each failure is reported through `IssueReporting`, at the line of the assertion that failed,
/// in Swift Testing and XCTest alike; state differences are shown as a CustomDump diff
/// (`−` expected, `+` actual).
///
/// With ``exhaustivity`` set to ``Exhaustivity/off`` a test asserts only what it names.
@MainActor
public final class TestStore<State: Equatable, Action> {
  /// The dependencies the reducer and its effects run with.
  ///
  /// Change them between actions to change what later actions see:
  ///
  /// ```swift
  /// store.dependencies.apiClient.fetch = { throw FetchError() }
  /// await store.send(.refreshButtonTapped)
  /// await store.receive(\.fetchResponse.failure)
  /// ```
  public var dependencies: DependencyValues {
    get { self.reducer.dependencies }
    set { self.reducer.dependencies = newValue }
  }

  /// How much the test must assert: everything (``Exhaustivity/on``, the default), or only what
  /// it names.
  public var exhaustivity: Exhaustivity = .on

  /// The state after the last action the test sent or received.
  ///
  /// Inside the trailing closure of `send` or `receive`, the state before that action: the value
  /// the closure was handed.
  public var state: State {
    self.reducer.state
  }

  /// How long, in nanoseconds, `receive` waits for an action and `finish` for effects when not
  /// told: 1 second.
  public var timeout: UInt64

  let reducer: TestReducer<State, Action>
  private let runtime: StoreRuntime<State, TestReducer<State, Action>.TestAction>
  private let location: SourceLocation

  /// Creates a test store for a reducer.
  ///
  /// - Parameters:
  ///   - initialState: The state the feature starts in.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Overrides the dependencies the reducer and its effects use; the
  ///     initial state is made with them too.
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    #if os(Linux) || os(Android)
      TestSupportCheck.require(fileID: fileID, line: line)
    #endif
    let (initialState, reducer, dependencies) = Dependencies.withDependencies(prepareDependencies) {
      @Dependency(\.self) var dependencies
      return (initialState(), reducer(), dependencies)
    }
    let testReducer = TestReducer(
      base: { reducer.reduce(into: &$0, action: $1) },
      dependencies: dependencies,
      initialState: initialState
    )
    self.reducer = testReducer
    self.runtime = StoreRuntime(initialState: initialState, reducer: testReducer, observer: nil)
    self.runtime.tracksEffects = true
    self.runtime.sharedChanges.keepsValuesBefore = true
    self.runtime.effectExecutor = EffectExecutor()
    self.timeout = 1_000_000_000
    self.location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  deinit {
    // NB: Not an `isolated deinit`: that runs without the task-local values of the code that
    // releases the store, and so without the test to report issues to. A test store lives and
    // goes away on the main actor, in the test that made it.
    MainActor.assumeIsolated {
      self.completed()
    }
  }

  /// Waits until every effect in flight has ended, and reports an issue if some are still
  /// running after `duration`.
  public func finish(
    timeout duration: Duration,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self.finish(
      timeout: duration.nanoseconds, fileID: fileID, file: filePath, line: line, column: column
    )
  }

  /// Waits until every effect in flight has ended, and reports an issue if some are still
  /// running after `nanoseconds` (default: ``timeout``).
  ///
  /// Effects that wait for a presented feature to dismiss itself are not waited for: they end
  /// with the presentation.
  @_disfavoredOverload
  public func finish(
    timeout nanoseconds: UInt64? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let nanoseconds = nanoseconds ?? self.timeout
    await Task.megaYield()
    let finished = await waitForTurns(timeout: nanoseconds) {
      self.runtime.inFlightEffects.isEmpty
    }
    guard !finished else { return }
    self.fail(
      """
      Expected effects to finish, but there are still effects in-flight\
      \(nanoseconds.afterSeconds).

      \(self.inFlightSuggestion(nanoseconds: nanoseconds))
      """,
      at: location
    )
  }

  /// Reports what the test left unasserted: actions received and effects still running.
  private func completed() {
    if !self.reducer.receivedActions.isEmpty {
      let count = self.reducer.receivedActions.count
      self.fail(
        """
        The store received \(count) unexpected action\(count == 1 ? "" : "s") by the end of \
        this test: …

          Unhandled actions: \(self.dump(self.reducer.receivedActions.map(\.action)))
        """,
        at: self.location
      )
    }
    for effect in self.runtime.inFlightEffects {
      self.fail(
        """
        An effect returned for this action is still running. It must complete before the end \
        of the test. …

        To fix, inspect any effects the reducer returns for this action and ensure that all of \
        them complete by the end of the test. There are a few reasons why an effect may not \
        have completed:

        • If using async/await in your effect, it may need a little bit of time to properly \
        finish. To fix you can simply perform "await store.finish()" at the end of your test.

        • If an effect uses a clock (via "sleep(for:)", "timer(interval:)", etc.), make sure \
        that you wait enough time for it to perform the effect. If you are using a test \
        clock, advance it so that the effects may complete, or consider using an immediate \
        clock to immediately perform the effect instead.

        • If you are returning a long-living effect (timers, notifications, etc.), then make \
        sure those effects are torn down by marking the effect ".cancellable" and returning a \
        corresponding cancellation effect ("Effect.cancel") from another action.
        """,
        at: effect.location
      )
    }
    self.runtime.cancelInFlightEffects()
  }

  /// Runs `operation` with the store's dependencies changed by `updateValuesForOperation`,
  /// then restores them.
  public func withDependencies<R>(
    _ updateValuesForOperation: (_ dependencies: inout DependencyValues) throws -> Void,
    operation: () throws -> R
  ) rethrows -> R {
    let previous = self.dependencies
    defer { self.dependencies = previous }
    try updateValuesForOperation(&self.dependencies)
    return try operation()
  }

  /// Runs `operation` with the store's dependencies changed by `updateValuesForOperation`,
  /// then restores them.
  public func withDependencies<R>(
    _ updateValuesForOperation: (_ dependencies: inout DependencyValues) async throws -> Void,
    operation: @MainActor () async throws -> R
  ) async rethrows -> R {
    let previous = self.dependencies
    defer { self.dependencies = previous }
    var dependencies = previous
    try await updateValuesForOperation(&dependencies)
    self.dependencies = dependencies
    return try await operation()
  }

  /// Runs `operation` with the store's exhaustivity set to `exhaustivity`, then restores it.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () throws -> R
  ) rethrows -> R {
    let previous = self.exhaustivity
    defer { self.exhaustivity = previous }
    self.exhaustivity = exhaustivity
    return try operation()
  }

  /// Runs `operation` with the store's exhaustivity set to `exhaustivity`, then restores it.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: @MainActor () async throws -> R
  ) async rethrows -> R {
    let previous = self.exhaustivity
    defer { self.exhaustivity = previous }
    self.exhaustivity = exhaustivity
    return try await operation()
  }
}

/// A test store of `R`'s state and actions.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable

// MARK: - Sending

extension TestStore {
  /// Sends an action and asserts how it changed the state.
  ///
  /// `updateStateToExpectedResult` gets the state before the action and must make it equal to
  /// the state after; leave it out when the action changes nothing.
  ///
  /// ```swift
  /// await store.send(.incrementButtonTapped) {
  ///   $0.count = 1
  /// }
  /// ```
  ///
  /// Suspends until the action's effects have started, not until they end: await the returned
  /// task's ``TestStoreTask/finish(timeout:fileID:file:line:column:)-(UInt64?,_,_,_,_)`` for
  /// that, or cancel it, as a view's disappearance would.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    if !self.reducer.receivedActions.isEmpty {
      let count = self.reducer.receivedActions.count
      self.fail(
        """
        Must handle \(count) received action\(count == 1 ? "" : "s") before sending an \
        action: …

        Unhandled actions: \(self.dump(self.reducer.receivedActions.map(\.action)))
        """,
        at: location
      )
    }
    switch self.exhaustivity {
    case .on:
      break
    case .off(showSkippedAssertions: true):
      self.skipReceivedActions(strict: false, at: location)
    case .off(showSkippedAssertions: false):
      if let last = self.reducer.receivedActions.last { self.reducer.state = last.state }
      self.reducer.receivedActions = []
    }

    let previousState = self.reducer.state
    let task = self.runtime.send(.init(origin: .send(action), location: location))
    let currentState = self.reducer.state
    self.reducer.state = previousState
    self.expectStateToMatch(
      expected: previousState,
      actual: currentState,
      update: updateStateToExpectedResult,
      at: location
    )
    self.reducer.state = currentState
    await self.settle()
    return TestStoreTask(rawValue: task.rawValue, timeout: self.timeout)
  }

  /// Sends the action at a case key path with no associated value: `\.view.onAppear`.
  @discardableResult
  @_disfavoredOverload
  public func send(
    _ action: CaseKeyPath<Action, Void>,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask where Action: CasePathable {
    await self.send(
      action(), assert: updateStateToExpectedResult,
      fileID: fileID, file: filePath, line: line, column: column
    )
  }

  /// Sends the action at a case key path with `value` as its associated value:
  /// `send(\.view.emailChanged, "blob@example.com")`.
  @discardableResult
  @_disfavoredOverload
  public func send<Value>(
    _ action: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask where Action: CasePathable {
    await self.send(
      action(value), assert: updateStateToExpectedResult,
      fileID: fileID, file: filePath, line: line, column: column
    )
  }

  /// Asserts the current state: most useful in a non-exhaustive test, after
  /// ``finish(timeout:fileID:file:line:column:)-(UInt64?,_,_,_,_)`` and
  /// ``skipReceivedActions(strict:fileID:file:line:column:)``.
  ///
  /// ```swift
  /// store.exhaustivity = .off
  /// await store.send(\.child.closeButtonTapped)
  /// await store.finish()
  /// await store.skipReceivedActions()
  /// store.assert {
  ///   $0.child = nil
  /// }
  /// ```
  public func assert(
    _ updateStateToExpectedResult: @escaping (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.expectStateToMatch(
      expected: self.state,
      actual: self.reducer.state,
      update: updateStateToExpectedResult,
      skipUnnecessaryModifyFailure: true,
      at: location
    )
  }

  /// Checks the state after an action against the one the test expects: in an exhaustive test,
  /// `update` applied to the state before; otherwise `update` applied to the actual state.
  func expectStateToMatch(
    expected: State,
    actual: State,
    update: ((inout State) throws -> Void)?,
    skipUnnecessaryModifyFailure: Bool = false,
    at location: SourceLocation
  ) {
    // NB: As TCA's: the shared values the action changed read, while the test asserts, as
    // they were before it; the test's closure changes them there, and `==` compares that with
    // their values now. A non-exhaustive test compares with the actual state, so their values
    // from before are forgotten first.
    let sharedChanges = self.runtime.sharedChanges
    defer { sharedChanges.forget() }
    if self.exhaustivity != .on { sharedChanges.forget() }
    let skipUnnecessaryModifyFailure = skipUnnecessaryModifyFailure || sharedChanges.hasChanges
    sharedChanges.asserting {
      self.expectStateToMatch(
        previous: expected,
        actual: actual,
        update: update,
        skipUnnecessaryModifyFailure: skipUnnecessaryModifyFailure,
        at: location
      )
    }
  }

  private func expectStateToMatch(
    previous: State,
    actual: State,
    update: ((inout State) throws -> Void)?,
    skipUnnecessaryModifyFailure: Bool,
    at location: SourceLocation
  ) {
    func updated(_ state: State) -> State? {
      var state = state
      do {
        try Dependencies.withDependencies {
          $0 = self.reducer.dependencies
        } operation: {
          try update?(&state)
        }
      } catch {
        self.report("Threw error: \(error)", at: location)
        return nil
      }
      return state
    }
    func expectationFailure(expected: State, skipped: Bool = false) {
      let difference =
        diff(expected, actual, format: .proportional)
        .map { "\($0.indented(by: 4))\n\n(Expected: −, Actual: +)" }
          ?? """
          Expected:
          \(String(describing: expected).indented(by: 2))

          Actual:
          \(String(describing: actual).indented(by: 2))
          """
      let heading =
        update != nil
        ? "A state change does not match expectation"
        : "State was not expected to change, but a change occurred"
      let message = "\(heading): …\n\n\(difference)"
      if skipped {
        self.fail(message, exhaustivity: .off(showSkippedAssertions: true), at: location)
      } else {
        self.report(message, at: location)
      }
    }
    func unnecessaryModifyFailure(expected: State) {
      guard !skipUnnecessaryModifyFailure, update != nil, expected == previous else { return }
      self.report(
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to state \
        is expected, omit the trailing closure.
        """,
        at: location
      )
    }

    switch self.exhaustivity {
    case .on:
      guard let expected = updated(previous) else { return }
      if expected != actual {
        expectationFailure(expected: expected)
      } else {
        unnecessaryModifyFailure(expected: expected)
      }

    case let .off(showSkippedAssertions):
      guard let expected = updated(actual) else { return }
      if expected != actual {
        expectationFailure(expected: expected)
      } else if showSkippedAssertions, let exhaustive = updated(previous), exhaustive != actual {
        expectationFailure(expected: exhaustive, skipped: true)
      }
    }
  }
}

// MARK: - Receiving

extension TestStore where Action: Equatable {
  /// Asserts that an effect sent `expectedAction`, and how it changed the state.
  ///
  /// ```swift
  /// await store.send(.refreshButtonTapped)
  /// await store.receive(.todosLoaded(["Milk"])) {
  ///   $0.todos = ["Milk"]
  /// }
  /// ```
  ///
  /// Waits up to `duration` for the action while effects are in flight.
  public func receive(
    _ expectedAction: Action,
    timeout duration: Duration,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self.receive(
      expectedAction, timeout: duration.nanoseconds, assert: updateStateToExpectedResult,
      fileID: fileID, file: filePath, line: line, column: column
    )
  }

  /// Asserts that an effect sent `expectedAction`, and how it changed the state; waits up to
  /// `nanoseconds` (default: ``timeout``) for it while effects are in flight.
  @_disfavoredOverload
  public func receive(
    _ expectedAction: Action,
    timeout nanoseconds: UInt64? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await self.receive(
      matching: { expectedAction == $0 },
      failureMessage: """
        Expected to receive the following action, but didn't: …

        \(self.dump(expectedAction, indent: 2))
        """,
      unexpectedActionDescription: { received in
        diff(expectedAction, received, format: .proportional)
          .map { "\($0.indented(by: 4))\n\n(Expected: −, Received: +)" }
            ?? """
            Expected:
            \(String(describing: expectedAction).indented(by: 2))

            Received:
            \(String(describing: received).indented(by: 2))
            """
      },
      timeout: nanoseconds,
      update: updateStateToExpectedResult,
      at: location
    )
  }
}

extension TestStore {
  /// Asserts that an effect sent an action `isMatching` accepts, and how it changed the state.
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    timeout duration: Duration,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self.receive(
      isMatching, timeout: duration.nanoseconds, assert: updateStateToExpectedResult,
      fileID: fileID, file: filePath, line: line, column: column
    )
  }

  /// Asserts that an effect sent an action `isMatching` accepts, and how it changed the state;
  /// waits up to `nanoseconds` (default: ``timeout``) for it while effects are in flight.
  @_disfavoredOverload
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    timeout nanoseconds: UInt64? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await self.receive(
      matching: isMatching,
      failureMessage: "Expected to receive an action matching predicate, but didn't get one.",
      unexpectedActionDescription: { self.dump($0, indent: 2) },
      timeout: nanoseconds,
      update: updateStateToExpectedResult,
      at: location
    )
  }

  /// Asserts that an effect sent an action of the case at `actionCase`, and how it changed the
  /// state.
  ///
  /// ```swift
  /// await store.receive(\.todosLoaded) {
  ///   $0.todos = ["Milk"]
  /// }
  /// ```
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout duration: Duration,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self.receive(
      actionCase, timeout: duration.nanoseconds, assert: updateStateToExpectedResult,
      fileID: fileID, file: filePath, line: line, column: column
    )
  }

  /// Asserts that an effect sent an action of the case at `actionCase`, and how it changed the
  /// state; waits up to `nanoseconds` (default: ``timeout``) for it while effects are in flight.
  @_disfavoredOverload
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout nanoseconds: UInt64? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let actionCase = AnyCasePath(actionCase)
    await self.receive(
      matching: { actionCase.extract(from: $0) != nil },
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      unexpectedActionDescription: { self.dump($0, indent: 2) },
      timeout: nanoseconds,
      update: updateStateToExpectedResult,
      at: location
    )
  }

  /// Asserts that an effect sent the action of the case at `actionCase` holding `value`, and
  /// how it changed the state.
  ///
  /// ```swift
  /// await store.receive(\.delegate.didLogIn, user)
  /// ```
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    timeout duration: Duration,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    await self.receive(
      actionCase, value, timeout: duration.nanoseconds, assert: updateStateToExpectedResult,
      fileID: fileID, file: filePath, line: line, column: column
    )
  }

  /// Asserts that an effect sent the action of the case at `actionCase` holding `value`, and
  /// how it changed the state; waits up to `nanoseconds` (default: ``timeout``) for it while
  /// effects are in flight.
  @_disfavoredOverload
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    timeout nanoseconds: UInt64? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let anyCase = AnyCasePath(actionCase)
    await self.receive(
      matching: { anyCase.extract(from: $0) == value },
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      unexpectedActionDescription: { received in
        if anyCase.extract(from: received) != nil,
          let difference = diff(anyCase.embed(value), received, format: .proportional)
        {
          return "\(difference.indented(by: 2))\n\n(Expected: −, Actual: +)"
        }
        return self.dump(received, indent: 2)
      },
      timeout: nanoseconds,
      update: updateStateToExpectedResult,
      at: location
    )
  }

  /// TCA's unavailable form, kept so that code written for it gets the same advice.
  @available(
    *, unavailable,
    message:
      "Provide a key path to the case you expect to receive (like 'store.receive(\\.tap)'), or conform 'Action' to 'Equatable' to assert against it directly."
  )
  public func receive(
    _ expectedAction: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
  }

  /// Waits for a matching action while effects are in flight, then asserts on the first action
  /// received.
  private func receive(
    matching predicate: (Action) -> Bool,
    failureMessage: @autoclosure () -> String,
    unexpectedActionDescription: (Action) -> String,
    timeout nanoseconds: UInt64?,
    update: ((inout State) throws -> Void)?,
    at location: SourceLocation
  ) async {
    if !self.runtime.inFlightEffects.isEmpty {
      await self.waitForAction(matching: predicate, timeout: nanoseconds, at: location)
    }
    self.receiveAction(
      matching: predicate,
      failureMessage: failureMessage(),
      unexpectedActionDescription: unexpectedActionDescription,
      update: update,
      at: location
    )
    await self.settle()
  }

  private func receiveAction(
    matching predicate: (Action) -> Bool,
    failureMessage: @autoclosure () -> String,
    unexpectedActionDescription: (Action) -> String,
    update: ((inout State) throws -> Void)?,
    at location: SourceLocation
  ) {
    guard !self.reducer.receivedActions.isEmpty else {
      self.report(failureMessage(), at: location)
      return
    }
    if self.exhaustivity != .on {
      guard self.reducer.receivedActions.contains(where: { predicate($0.action) }) else {
        self.report(failureMessage(), at: location)
        return
      }
      var skipped: [Action] = []
      while let first = self.reducer.receivedActions.first, !predicate(first.action) {
        self.reducer.receivedActions.removeFirst()
        skipped.append(first.action)
        self.reducer.state = first.state
      }
      if !skipped.isEmpty {
        self.fail(
          """
          \(skipped.count) received action\(skipped.count == 1 ? " was" : "s were") skipped:

          \(self.dump(skipped))
          """,
          at: location
        )
      }
    }
    let (receivedAction, state) = self.reducer.receivedActions.removeFirst()
    if !predicate(receivedAction) {
      let receivedLater = self.reducer.receivedActions.contains { predicate($0.action) }
      self.report(
        """
        Received unexpected action\(receivedLater ? " before this one" : ""): …

        \(unexpectedActionDescription(receivedAction))
        """,
        at: location
      )
    } else {
      self.expectStateToMatch(
        expected: self.state, actual: state, update: update, at: location
      )
    }
    self.reducer.state = state
  }

  /// Waits until an action is received (in a non-exhaustive test, a matching one), or reports
  /// that none came within the time out.
  private func waitForAction(
    matching predicate: (Action) -> Bool,
    timeout nanoseconds: UInt64?,
    at location: SourceLocation
  ) async {
    let nanoseconds = nanoseconds ?? self.timeout
    await Task.megaYield()
    let received = await waitForTurns(timeout: nanoseconds) {
      switch self.exhaustivity {
      case .on:
        !self.reducer.receivedActions.isEmpty
      case .off:
        self.reducer.receivedActions.contains { predicate($0.action) }
      }
    }
    guard !received, !Task.isCancelled else { return }
    let suggestion =
      self.runtime.inFlightEffects.isEmpty
      ? """
      There are no in-flight effects that could deliver this action. Could the effect you \
      expected to deliver this action have been cancelled?
      """
      : self.inFlightSuggestion(nanoseconds: nanoseconds)
    self.report(
      """
      Expected to receive \(self.exhaustivity == .on ? "an action" : "a matching action"), \
      but received none\(nanoseconds.afterSeconds).

      \(suggestion)
      """,
      at: location
    )
  }
}

// MARK: - Skipping

extension TestStore {
  /// Accepts, without asserting on them, the actions effects sent that the test has not
  /// received: the state moves on to the state after the last.
  ///
  /// - Parameter strict: Report an issue when there is nothing to skip. Default: `true`.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await Task.megaYield()
    self.skipReceivedActions(
      strict: strict,
      at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  private func skipReceivedActions(strict: Bool, at location: SourceLocation) {
    if strict && self.reducer.receivedActions.isEmpty {
      self.report("There were no received actions to skip.", at: location)
      return
    }
    guard let last = self.reducer.receivedActions.last else { return }
    let count = self.reducer.receivedActions.count
    let actions =
      count == 1
      ? self.dump(self.reducer.receivedActions[0].action)
      : self.dump(self.reducer.receivedActions.map(\.action))
    self.fail(
      """
      \(count) received action\(count == 1 ? " was" : "s were") skipped:

      \(actions)
      """,
      exhaustivity: self.exhaustivity == .on ? .off(showSkippedAssertions: true) : nil,
      at: location
    )
    self.reducer.state = last.state
    self.reducer.receivedActions = []
    // NB: What the skipped actions did to shared values is accepted with them: the next
    // assertion sees only what its own action changes.
    self.runtime.sharedChanges.forget()
  }

  /// Cancels the effects still in flight, so that the test may end without them.
  ///
  /// - Parameter strict: Report an issue when there is nothing to cancel. Default: `true`.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await Task.megaYield()
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let effects = self.runtime.inFlightEffects
    if strict && effects.isEmpty {
      self.report("There were no in-flight effects to skip.", at: location)
      return
    }
    guard !effects.isEmpty else { return }
    let actions =
      effects.count == 1
      ? self.dump(effects[0].action)
      : self.dump(effects.map(\.action))
    self.fail(
      """
      \(effects.count) in-flight effect\(effects.count == 1 ? " was" : "s were") cancelled, \
      originating from:

      \(actions)
      """,
      exhaustivity: self.exhaustivity == .on ? .off(showSkippedAssertions: true) : nil,
      at: location
    )
    self.runtime.cancelInFlightEffects()
  }
}

// MARK: - Reporting

extension TestStore {
  /// Reports an issue the way the exhaustivity asks: as a failure, as a known issue (skipped
  /// assertions shown), or not at all.
  func fail(
    _ message: String,
    exhaustivity: Exhaustivity? = nil,
    at location: SourceLocation
  ) {
    switch exhaustivity ?? self.exhaustivity {
    case .on:
      self.report(message, at: location)
    case .off(showSkippedAssertions: true):
      withExpectedIssue(
        fileID: location.fileID, filePath: location.filePath,
        line: location.line, column: location.column
      ) {
        self.report("Skipped assertions: …\n\n\(message)", at: location)
      }
    case .off(showSkippedAssertions: false):
      break
    }
  }

  /// Reports an issue whatever the exhaustivity.
  func report(_ message: String, at location: SourceLocation) {
    reportIssue(
      message,
      fileID: location.fileID, filePath: location.filePath,
      line: location.line, column: location.column
    )
  }

  func dump(_ value: Any, indent: Int = 0) -> String {
    var output = ""
    customDump(value, to: &output, indent: indent)
    return output
  }

  private func inFlightSuggestion(nanoseconds: UInt64) -> String {
    let timeoutMessage =
      nanoseconds != self.timeout
      ? #"try increasing the duration of this assertion's "timeout""#
      : #"configure this assertion with an explicit "timeout""#
    return """
      There are effects in-flight. If the effect that delivers this action uses a clock (via \
      "sleep(for:)", "timer(interval:)", etc.), make sure that you wait enough time for it to \
      perform the effect. If you are using a test clock, advance it so that the effects may \
      complete, or consider using an immediate clock to immediately perform the effect instead.

      If you are not yet using a clock, or can not use a clock, \(timeoutMessage).
      """
  }
}

/// How much a ``TestStore`` makes a test assert.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every action effects send, and the end of every effect must be
  /// asserted.
  case on

  /// Only what the test asserts is checked: a `send` or `receive` closure may set a subset of
  /// the state; actions not received and effects still running at the end are not failures.
  ///
  /// - Parameter showSkippedAssertions: Report what was not asserted as known issues (expected
  ///   failures), without failing the test.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without showing what was skipped.
  public static let off = Self.off(showSkippedAssertions: false)
}

extension TestStore {
  /// Lets the effects just started, or just woken, run to where they wait: a test can then move
  /// a test clock, or assert on what they did first, without yielding itself.
  ///
  /// Effects run on the store's ``EffectExecutor``, which knows whether any of their work is
  /// queued or running there: this waits until it has been idle on two turns in a row, or the
  /// store's ``timeout`` has passed, for an effect that never waits. An effect waiting for the
  /// main actor is not on the executor, and the main actor need not run it before this task's
  /// next turn (in XCTest on Linux it did not): while effects are in flight, a moment with the
  /// main actor free lets it, and the wait goes on if it came back to the executor.
  ///
  /// Where task executors are not available, it gives the effects a few turns and, while they
  /// run, a millisecond (``settleByYielding()``): that narrows, and cannot close, the window in
  /// which a test moves a test clock before an effect sleeps on it.
  fileprivate func settle() async {
    guard
      #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *),
      let executor = self.runtime.effectExecutor
    else {
      await self.settleByYielding()
      return
    }
    await self.settle(on: executor)
  }

  /// Waits until the effects' executor has nothing queued or running on two turns in a row,
  /// then, while effects are in flight, frees the main actor for a moment and looks again.
  ///
  /// NB: Two idle turns, not one: between a job that ends and the continuation it enqueues, the
  /// executor is idle for a moment.
  @available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
  private func settle(on executor: EffectExecutor) async {
    let idleTurnsToSettle = 2
    let start = DispatchTime.now().uptimeNanoseconds
    repeat {
      var idleTurns = 0
      _ = await waitForTurns(timeout: self.timeout) {
        guard executor.isIdle else {
          idleTurns = 0
          return false
        }
        idleTurns += 1
        return idleTurns >= idleTurnsToSettle
      }
      guard !self.runtime.inFlightEffects.isEmpty, !Task.isCancelled else { return }
      try? await Task.sleep(for: .milliseconds(1))
    } while !executor.isIdle && DispatchTime.now().uptimeNanoseconds &- start < self.timeout
  }

  /// Gives the effects turns without knowing where they are: yields on the main actor as TCA's
  /// `TestStore` does (`megaYield`'s 20), then turns through the thread pool (each lets the work
  /// queued there run, behind it), and, while effects are in flight, a millisecond and as many
  /// turns again.
  private func settleByYielding() async {
    let poolTurns = 10
    await Task.megaYield(count: 20)
    for _ in 0..<poolTurns {
      await Task.detached(priority: .background) { await Task.yield() }.value
    }
    guard !self.runtime.inFlightEffects.isEmpty else { return }
    try? await Task.sleep(for: .milliseconds(1))
    for _ in 0..<poolTurns {
      await Task.detached(priority: .background) { await Task.yield() }.value
    }
  }
}

/// Waits until `isDone`, or until `nanoseconds` have passed *and* the work queued meanwhile has
/// had turns to run: returns whether `isDone`.
///
/// NB: A time out alone fails a test whose effects were late only because the machine was busy
/// elsewhere (a parallel test run on two cores starves the main actor and the thread pool for
/// seconds). Each turn goes through the thread pool and back to the main actor, behind the work
/// already queued on both, and so lets an effect that could run, run.
@MainActor
func waitForTurns(
  timeout nanoseconds: UInt64,
  minimumTurns: Int = 100,
  until isDone: () -> Bool
) async -> Bool {
  let start = DispatchTime.now().uptimeNanoseconds
  var turns = 0
  while !Task.isCancelled {
    if isDone() { return true }
    if turns >= minimumTurns, DispatchTime.now().uptimeNanoseconds &- start >= nanoseconds {
      return false
    }
    await Task.detached(priority: .background) { await Task.yield() }.value
    turns += 1
  }
  return isDone()
}

extension Duration {
  fileprivate var nanoseconds: UInt64 {
    let (seconds, attoseconds) = self.components
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
  }
}

extension UInt64 {
  /// " after 1.0 seconds", or nothing for no time.
  fileprivate var afterSeconds: String {
    self > 0 ? " after \(Double(self) / 1_000_000_000) seconds" : ""
  }
}

extension String {
  func indented(by count: Int) -> String {
    let indentation = String(repeating: " ", count: count)
    return self.split(separator: "\n", omittingEmptySubsequences: false)
      .map { indentation + $0 }
      .joined(separator: "\n")
  }
}
