import IssueReporting

/// The work a reducer asks the store to do after it has changed the state: actions to send,
/// asynchronous operations to run, and cancellations.
///
/// ```swift
/// case .view(.refreshButtonTapped):
///   return .run { send in
///     let todos = await apiClient.fetchTodos()
///     await send(._internal(.todosLoaded(todos)))
///   }
///   .cancellable(id: CancelID.refresh, cancelInFlight: true)
/// ```
public struct Effect<Action>: Sendable {
  @usableFromInline
  let operation: Operation

  @usableFromInline
  init(operation: Operation) {
    self.operation = operation
  }

  // NB: An effect is built by a reducer and interpreted by the store, both on the store's actor;
  // only `.run`'s closure leaves it, and that closure is `@Sendable`. The `Action` held by
  // `.send` never crosses an isolation boundary, so actions need not be `Sendable` to be sent
  // synchronously.
  @usableFromInline
  indirect enum Operation: @unchecked Sendable {
    case none
    /// Sends an action; the closure runs when the store starts the effect, so that `map`
    /// transforms at emission time, as TCA's does.
    case send(() -> Action)
    case run(TaskPriority?, name: String?, @Sendable (Send<Action>) async -> Void)
    case merge([Operation])
    case concatenate([Operation])
    case cancellable(id: CancelID, cancelInFlight: Bool, Operation)
    case cancel(id: CancelID)
  }
}

extension Effect {
  /// An effect that does nothing.
  public static var none: Self {
    Self(operation: .none)
  }

  /// An effect that sends `action` to the store as soon as the current action is processed.
  ///
  /// The action is processed synchronously, before the `send` that caused it returns.
  public static func send(_ action: Action) -> Self {
    Self(operation: .send({ action }))
  }

  /// An effect that runs an asynchronous operation, which may send actions back into the store.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation. Default: inherited.
  ///   - name: The name of the task that runs the operation, for debuggers. Default: none.
  ///   - operation: The work to do. Errors it throws go to `handler`; a `CancellationError`, or
  ///     any error thrown after the effect was cancelled, is ignored.
  ///   - handler: Handles an error `operation` throws. Default: none, and an unhandled error is
  ///     reported as an issue (a test failure, or a runtime warning in an app).
  public static func run(
    priority: TaskPriority? = nil,
    name: String? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    // NB: The effect runs later, on a task of its own, with the dependencies current now:
    // those the store (or `dependency(_:_:)`) set for the reducer that returns it.
    withEscapedDependencies { dependencies in
      Self(
        operation: .run(priority, name: name) { send in
          await dependencies.yield {
            do {
              try await operation(send)
            } catch {
              guard !Task.isCancelled, !(error is CancellationError) else { return }
              guard let handler else {
                reportIssue(
                  """
                  An 'Effect.run' returned from "\(fileID):\(line)" threw an unhandled error: \
                  \(error)

                  All errors thrown by an 'Effect.run' should be handled, either in the \
                  operation or with the 'catch' parameter.
                  """,
                  fileID: fileID,
                  filePath: filePath,
                  line: line,
                  column: column
                )
                return
              }
              await handler(error, send)
            }
          }
        }
      )
    }
  }

  /// An effect that runs `effects` at the same time.
  public static func merge(_ effects: Self...) -> Self {
    .merge(effects)
  }

  /// An effect that runs `effects` at the same time.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    effects.reduce(.none) { $0.merge(with: $1) }
  }

  /// An effect that runs this effect and `other` at the same time.
  @inlinable
  public func merge(with other: Self) -> Self {
    switch (self.operation, other.operation) {
    case (.none, _): other
    case (_, .none): self
    case let (.merge(lhs), .merge(rhs)): Self(operation: .merge(lhs + rhs))
    case let (.merge(lhs), rhs): Self(operation: .merge(lhs + [rhs]))
    case let (lhs, .merge(rhs)): Self(operation: .merge([lhs] + rhs))
    case let (lhs, rhs): Self(operation: .merge([lhs, rhs]))
    }
  }

  /// An effect that runs `effects` one after the other: each starts when the one before it has
  /// finished.
  public static func concatenate(_ effects: Self...) -> Self {
    .concatenate(effects)
  }

  /// An effect that runs `effects` one after the other: each starts when the one before it has
  /// finished.
  public static func concatenate(_ effects: some Sequence<Self>) -> Self {
    effects.reduce(.none) { $0.concatenate(with: $1) }
  }

  /// An effect that runs `other` after this effect has finished.
  public func concatenate(with other: Self) -> Self {
    switch (self.operation, other.operation) {
    case (.none, _): other
    case (_, .none): self
    case let (.concatenate(lhs), .concatenate(rhs)): Self(operation: .concatenate(lhs + rhs))
    case let (.concatenate(lhs), rhs): Self(operation: .concatenate(lhs + [rhs]))
    case let (lhs, .concatenate(rhs)): Self(operation: .concatenate([lhs] + rhs))
    case let (lhs, rhs): Self(operation: .concatenate([lhs, rhs]))
    }
  }

  /// Transforms the actions this effect sends.
  ///
  /// This is how a parent embeds a child's effects: `Scope` maps them with the child's case.
  /// `transform` runs when the effect sends an action, right before the store receives it.
  public func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    Effect<T>(operation: self.operation.map(transform))
  }
}

extension Effect.Operation {
  func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T>.Operation {
    switch self {
    case .none:
      return .none
    case let .send(action):
      return .send({ transform(action()) })
    case let .run(priority, name, operation):
      return .run(priority, name: name) { send in
        await operation(Send { action in send(transform(action)) })
      }
    case let .merge(operations):
      return .merge(operations.map { $0.map(transform) })
    case let .concatenate(operations):
      return .concatenate(operations.map { $0.map(transform) })
    case let .cancellable(id, cancelInFlight, operation):
      return .cancellable(id: id, cancelInFlight: cancelInFlight, operation.map(transform))
    case let .cancel(id):
      return .cancel(id: id)
    }
  }

  /// The number of operations that do something: sends, runs and cancellations.
  ///
  /// NB: The cancellations `ifLet` and `forEach` add when a child goes away, and the effect
  /// they start to let a presented child dismiss itself, are the runtime's bookkeeping, not
  /// effects a reducer returned, and are not counted.
  var count: Int {
    switch self {
    case .none: 0
    case .send, .run: 1
    case let .cancel(id): id.base.base is KeyPathID ? 0 : 1
    case let .merge(operations), let .concatenate(operations):
      operations.reduce(0) { $0 + $1.count }
    case let .cancellable(id, _, operation): id.base.base is DismissalID ? 0 : operation.count
    }
  }

  /// Whether the operation completes without suspending: it only sends and cancels.
  var isSynchronous: Bool {
    switch self {
    case .none, .send, .cancel: true
    case .run: false
    case let .merge(operations), let .concatenate(operations):
      operations.allSatisfy(\.isSynchronous)
    case let .cancellable(_, _, operation): operation.isSynchronous
    }
  }
}

extension Effect {
  /// How many operations the effect holds that do something (see `Operation.count`): a route
  /// step's effect count, for recorders outside this module.
  package var operationCount: Int {
    self.operation.count
  }

  /// Whether the effect can send no action at all: `.none`, a cancellation, or a merge or a
  /// concatenation of those. A replay of a recording asks it (not TCA API).
  package var cannotSendActions: Bool {
    self.operation.cannotSendActions
  }
}

extension Effect.Operation {
  fileprivate var cannotSendActions: Bool {
    switch self {
    case .none, .cancel: true
    case .send, .run: false
    case let .merge(operations), let .concatenate(operations):
      operations.allSatisfy(\.cannotSendActions)
    case let .cancellable(_, _, operation): operation.cannotSendActions
    }
  }
}
