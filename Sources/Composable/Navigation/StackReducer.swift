import OrderedCollections

extension Reducer {
  /// Runs the features of a navigation stack: an element's actions go to it, and
  /// ``StackAction/push(id:state:)`` and ``StackAction/popFrom(id:)`` change the stack after this
  /// reducer has seen them.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: \.path) {
  ///     Path()
  ///   }
  /// ```
  ///
  /// Elements run before this reducer. When an element leaves the stack, its running effects
  /// are cancelled. An action for an element that is not on the stack is reported as an issue.
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    self.forEach(
      stack: toStackState, toStackAction: AnyCasePath(toStackAction), destination: destination(),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// ``forEach(_:action:destination:fileID:filePath:line:column:)`` with a type-erased case
  /// path; the form the case-path conveniences build on.
  package func forEach<Destination: Reducer>(
    stack toStackState: WritableKeyPath<State, StackState<Destination.State>>,
    toStackAction: AnyCasePath<Action, StackAction<Destination.State, Destination.Action>>,
    destination: Destination,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) -> _StackReducer<Self, Destination> {
    _StackReducer(
      parent: self,
      destination: destination,
      toStackState: toStackState,
      toStackAction: toStackAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// ``forEach(_:action:destination:fileID:filePath:line:column:)`` for an enum reducer's
  /// state (`@Reducer enum Path`): its cases' features run without naming the reducer.
  public func forEach<DestinationState: CaseReducerState, DestinationAction>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, DestinationState.StateReducer.Body>
  where DestinationState.StateReducer.Action == DestinationAction {
    self.forEach(
      toStackState, action: toStackAction,
      destination: { DestinationState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}

/// A reducer with a navigation stack of features; built by
/// ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)``.
public struct _StackReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  let parent: Parent
  let destination: Destination
  let toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>
  let toStackAction: AnyCasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let stackAction = self.toStackAction.extract(from: action)
    let idsBefore = state[keyPath: self.toStackState].ids
    var destinationEffect = Effect<Parent.Action>.none
    if case let .element(id, elementAction) = stackAction {
      destinationEffect = self.reduceElement(id: id, action: elementAction, in: &state, action)
    }
    let parentEffect = self.parent.reduce(into: &state, action: action)

    switch stackAction {
    case let .popFrom(id):
      if state[keyPath: self.toStackState].ids.contains(id) {
        state[keyPath: self.toStackState].pop(from: id)
      } else {
        self.report("popped an element that is not on the stack", action: action)
      }
    case let .push(id, elementState):
      @Dependency(\.stackElementID) var stackElementID
      stackElementID.skip(past: id)
      if !state[keyPath: self.toStackState].push(elementState, id: id) {
        self.report("pushed an element with an id already on the stack", action: action)
      }
    case .element, .none:
      break
    }

    let idsAfter = state[keyPath: self.toStackState].ids
    var cancelEffect = Effect<Parent.Action>.none
    if !idsBefore.isEmpty, idsAfter != idsBefore {
      cancelEffect = .merge(
        idsBefore.subtracting(idsAfter).map { .cancel(id: self.cancelID(for: $0)) }
      )
    }
    return destinationEffect.merge(with: parentEffect).merge(with: cancelEffect)
      .merge(with: self.mount(idsBefore: idsBefore, idsAfter: idsAfter))
  }

  /// Starts, for each element new on the stack, and each one its store has not seen pushed,
  /// the effect that waits for it to dismiss itself and then pops it.
  private func mount(
    idsBefore: OrderedSet<StackElementID>, idsAfter: OrderedSet<StackElementID>
  ) -> Effect<Parent.Action> {
    let toStackAction = self.toStackAction
    return .merge(
      idsAfter.compactMap { id in
        let child = self.cancelID(for: id)
        guard needsDismissal(of: child, isNew: !idsBefore.contains(id)) else { return nil }
        return .dismissal(of: child) { toStackAction.embed(.popFrom(id: id)) }
      }
    )
  }

  private func cancelID(for id: StackElementID) -> KeyPathID {
    KeyPathID(keyPath: self.toStackState, elementID: ActionRoute.ElementID(id))
  }

  private func reduceElement(
    id: StackElementID, action elementAction: Destination.Action,
    in state: inout Parent.State, _ action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard state[keyPath: self.toStackState][id: id] != nil else {
      self.report("received an action for a missing element", action: action)
      return .none
    }
    let route = ActionRoute(
      keyPath: self.toStackState, kind: .element(id: ActionRoute.ElementID(id))
    )
    let dismiss = dismissEffect(for: self.cancelID(for: id))
    let effect = ActionRouting.route(route) {
      withDependencies {
        $0.dismiss = dismiss
      } operation: {
        self.destination.reduce(
          into: &state[keyPath: self.toStackState][id: id]!, action: elementAction
        )
      }
    }
    let toStackAction = self.toStackAction
    return
      effect
      .map { toStackAction.embed(.element(id: id, action: $0)) }
      .cancellable(id: self.cancelID(for: id))
  }

  private func report(_ what: String, action: Parent.Action) {
    reportIssue(
      """
      A "forEach" at "\(self.location.fileID):\(self.location.line)" \(what):

        Action: \(String(reflecting: action))

      The parent changed the stack before the action was sent, or the action was sent to a \
      store scoped to an element that is no longer on the stack.
      """,
      fileID: self.location.fileID,
      filePath: self.location.filePath,
      line: self.location.line,
      column: self.location.column
    )
  }
}
