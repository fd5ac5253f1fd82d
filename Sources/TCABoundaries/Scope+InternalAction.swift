extension Scope where ParentAction: TCAFeatureAction {
  /// Scopes to a child embedded in the parent's `InternalAction`, with one case path:
  /// `action: \.login` instead of `action: \._internal.login`.
  ///
  /// ```swift
  /// Scope(state: \.login, action: \.login) {
  ///   LoginFeature()
  /// }
  /// ```
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction.InternalAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      state: toChildState,
      action: ParentAction.internalCasePath(appending: toChildAction),
      child: child()
    )
  }
}

extension Reducer where Action: TCAFeatureAction {
  /// ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)`` for a child embedded in
  /// `InternalAction`: `action: \.twoFactor` instead of `action: \._internal.twoFactor`.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action.InternalAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    self.ifLet(
      toChildState,
      toChildAction: Action.internalCasePath(appending: toChildAction),
      child: child(),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// The presentation form of ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)``
  /// for a child embedded in `InternalAction` as a ``PresentationAction``.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toPresentationAction: CaseKeyPath<Action.InternalAction, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    self.ifLet(
      toChildState,
      toPresentationAction: Action.internalCasePath(appending: toPresentationAction),
      child: child(),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)`` for elements embedded
  /// in `InternalAction`: `action: \.rows` instead of `action: \._internal.rows`.
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action.InternalAction, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    self.forEach(
      toElementsState,
      toElementAction: Action.internalCasePath(appending: toElementAction),
      element: element(),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}

extension Reducer where Action: TCAFeatureAction {
  /// ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)`` for a presented
  /// child embedded in `InternalAction`: `.ifLet(\.$twoFactor, action: \.twoFactor) { … }`.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action.InternalAction, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    self.ifLet(
      presentation: toPresentationState,
      toPresentationAction: Action.internalCasePath(appending: toPresentationAction),
      destination: destination(),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// The same for an enum reducer's state: `.ifLet(\.$destination, action: \.destination)`.
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action.InternalAction, PresentationAction<DestinationAction>>,
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

  /// The same for an alert or a dialog: `.ifLet(\.$alert, action: \.alert)`.
  @_disfavoredOverload
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action.InternalAction, PresentationAction<DestinationAction>>,
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

  /// ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)`` for a stack
  /// embedded in `InternalAction`: `.forEach(\.path, action: \.path) { … }`.
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action.InternalAction, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    self.forEach(
      stack: toStackState, toStackAction: Action.internalCasePath(appending: toStackAction),
      destination: destination(),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// The same for an enum reducer's state: `.forEach(\.path, action: \.path)`.
  public func forEach<DestinationState: CaseReducerState, DestinationAction>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action.InternalAction, StackAction<DestinationState, DestinationAction>>,
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

extension Store where Action: TCAFeatureAction {
  /// ``Store/scope(state:action:)`` for an optional child embedded in `InternalAction`, or
  /// `nil` when the child's state is `nil`.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action.InternalAction, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    let casePath = Action.internalCasePath(appending: toChildAction)
    return self.scope(state: toChildState, embed: { casePath.embed($0) })
  }

  /// ``Store/scope(state:action:)`` for a child embedded in `InternalAction`:
  ///
  /// ```swift
  /// LoginView(store: store.scope(state: \.login, action: \.login))
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action.InternalAction, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let casePath = Action.internalCasePath(appending: toChildAction)
    return self.scope(state: toChildState, embed: { casePath.embed($0) })
  }
}

extension TCAFeatureAction {
  /// The case path to a child's action inside this action's `InternalAction`:
  /// `_internal` followed by `toChildAction`.
  @usableFromInline
  static func internalCasePath<ChildAction>(
    appending toChildAction: CaseKeyPath<InternalAction, ChildAction>
  ) -> AnyCasePath<Self, ChildAction> {
    let toInternal = self.internalCasePath
    let toChild = AnyCasePath(toChildAction)
    return AnyCasePath(
      embed: { toInternal.embed(toChild.embed($0)) },
      extract: { toInternal.extract(from: $0).flatMap(toChild.extract(from:)) }
    )
  }
}
