import RuntimeSupport

extension Reducer {
  /// Runs a presented child feature kept in a ``PresentationState``: its
  /// ``PresentationAction/presented(_:)`` actions go to the child while it is presented, and
  /// ``PresentationAction/dismiss`` ends the presentation after this reducer has seen it.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$destination, action: \.destination) {
  ///     Destination()
  ///   }
  /// ```
  ///
  /// The child runs before this reducer. When the child goes away, its running effects are
  /// cancelled. An alert or a dialog (``_EphemeralState``) goes away after it sent an action.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    self.ifLet(
      presentation: toPresentationState,
      toPresentationAction: AnyCasePath(toPresentationAction),
      destination: destination(),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// ``ifLet(_:action:destination:fileID:filePath:line:column:)`` with a type-erased case
  /// path; the form the case-path conveniences build on.
  package func ifLet<Destination: Reducer>(
    presentation toPresentationState: WritableKeyPath<State, PresentationState<Destination.State>>,
    toPresentationAction: AnyCasePath<Action, PresentationAction<Destination.Action>>,
    destination: Destination,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) -> _IfLetReducer<Self, Destination> {
    let keyPath = UncheckedSendable(toPresentationState)
    return self.ifLet(
      toPresentationState.appending(path: \.wrappedValue),
      toPresentationAction: toPresentationAction,
      child: destination,
      routeName: { KeyPathNames.presentationName(of: keyPath.value, in: $0) },
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// ``ifLet(_:action:destination:fileID:filePath:line:column:)`` for an enum reducer's state
  /// (`@Reducer enum Destination`): its cases' features run without naming the reducer.
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, DestinationState.StateReducer.Body>
  where DestinationState.StateReducer.Action == DestinationAction {
    self.ifLet(
      toPresentationState, action: toPresentationAction,
      destination: { DestinationState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// ``ifLet(_:action:destination:fileID:filePath:line:column:)`` for state with no feature of
  /// its own, such as an alert: `.ifLet(\.$alert, action: \.alert)`.
  @_disfavoredOverload
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    self.ifLet(
      toPresentationState, action: toPresentationAction,
      destination: { EmptyReducer<DestinationState, DestinationAction>() },
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}

/// State that a parent presents with no feature of its own and that goes away once it sent an
/// action: `AlertState` and `ConfirmationDialogState`.
public protocol _EphemeralState<Action> {
  associatedtype Action
}

/// Whether `value` is ephemeral state, or an enum (a destination) whose current case holds it.
func isEphemeral(_ value: Any) -> Bool {
  if value is any _EphemeralState { return true }
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else {
    return false
  }
  return payload is any _EphemeralState
}
