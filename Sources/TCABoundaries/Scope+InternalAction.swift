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
      state: toChildState, action: ParentAction.internalCase.appending(path: toChildAction),
      child: child)
  }

  /// A scope on a child embedded in `InternalAction`, in TCA 1.25's spelling:
  /// `Scope(\.login, action: \.login) { LoginFeature() }`.
  @inlinable
  public init<ChildState, ChildAction>(
    _ toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction.InternalAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> _ child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: toChildAction, child: child)
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
  ) -> some Reducer<State, Action>
  where ChildState == Child.State, ChildAction == Child.Action {
    self.ifLet(
      toChildState, action: Action.internalCase.appending(path: toChildAction), then: child,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  // NB: `Composable` has this form of `ifLet`; TCA has not.
  #if !ComposableArchitecture
    /// The presentation form of ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)``
    /// for a child embedded in `InternalAction` as a ``PresentationAction``.
    public func ifLet<ChildState, ChildAction, Child: Reducer>(
      _ toChildState: WritableKeyPath<State, ChildState?>,
      action toPresentationAction: CaseKeyPath<
        Action.InternalAction, PresentationAction<ChildAction>
      >,
      @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
      fileID: StaticString = #fileID,
      filePath: StaticString = #filePath,
      line: UInt = #line,
      column: UInt = #column
    ) -> some Reducer<State, Action>
    where ChildState == Child.State, ChildAction == Child.Action {
      self.ifLet(
        toChildState, action: Action.internalCase.appending(path: toPresentationAction),
        then: child,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    }
  #endif

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
  ) -> some Reducer<State, Action>
  where ElementState == Element.State, ElementAction == Element.Action {
    self.forEach(
      toElementsState, action: Action.internalCase.appending(path: toElementAction),
      element: element,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}

extension Reducer where Action: TCAFeatureAction {
  /// ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)`` for a presented
  /// child embedded in `InternalAction`: `.ifLet(\.$twoFactor, action: \.twoFactor) { … }`.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<
      Action.InternalAction, PresentationAction<DestinationAction>
    >,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> some Reducer<State, Action>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    self.ifLet(
      toPresentationState, action: Action.internalCase.appending(path: toPresentationAction),
      destination: destination,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// The same for an enum reducer's state: `.ifLet(\.$destination, action: \.destination)`.
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<
      Action.InternalAction, PresentationAction<DestinationAction>
    >,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> some Reducer<State, Action>
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
    action toPresentationAction: CaseKeyPath<
      Action.InternalAction, PresentationAction<DestinationAction>
    >,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> some Reducer<State, Action> {
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
    action toStackAction: CaseKeyPath<
      Action.InternalAction, StackAction<DestinationState, DestinationAction>
    >,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> some Reducer<State, Action>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    self.forEach(
      toStackState, action: Action.internalCase.appending(path: toStackAction),
      destination: destination,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// The same for an enum reducer's state: `.forEach(\.path, action: \.path)`.
  public func forEach<DestinationState: CaseReducerState, DestinationAction>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<
      Action.InternalAction, StackAction<DestinationState, DestinationAction>
    >,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> some Reducer<State, Action>
  where DestinationState.StateReducer.Action == DestinationAction {
    self.forEach(
      toStackState, action: toStackAction,
      destination: { DestinationState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}

#if ComposableArchitecture
  extension Store where Action: TCAFeatureAction, State: ObservableState {
    /// `Store.scope(_:action:)` for an optional child embedded in `InternalAction`, or `nil`
    /// when the child's state is `nil`.
    public func scope<ChildState, ChildAction>(
      _ toChildState: KeyPath<State, ChildState?>,
      action toChildAction: CaseKeyPath<Action.InternalAction, ChildAction>,
      fileID: StaticString = #fileID,
      filePath: StaticString = #filePath,
      line: UInt = #line,
      column: UInt = #column
    ) -> Store<ChildState, ChildAction>? {
      self.scope(
        toChildState, action: Action.internalCase.appending(path: toChildAction),
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    }
  }
#else
  extension Store where Action: TCAFeatureAction {
    /// ``Store/scope(state:action:)`` for an optional child embedded in `InternalAction`, or
    /// `nil` when the child's state is `nil`.
    public func scope<ChildState, ChildAction>(
      state toChildState: KeyPath<State, ChildState?>,
      action toChildAction: CaseKeyPath<Action.InternalAction, ChildAction>
    ) -> Store<ChildState, ChildAction>? {
      self.scope(state: toChildState, action: Action.internalCase.appending(path: toChildAction))
    }
  }
#endif

extension Store where Action: TCAFeatureAction {
  /// ``Store/scope(state:action:)`` for a child embedded in `InternalAction`:
  ///
  /// ```swift
  /// LoginView(store: store.scope(state: \.login, action: \.login))
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action.InternalAction, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    self.scope(state: toChildState, action: Action.internalCase.appending(path: toChildAction))
  }
}

extension TCAFeatureAction {
  /// The case key path to this action's `InternalAction`, `_internal`, to which a child's case
  /// key path is appended: `internalCase.appending(path: \.login)` is `\._internal.login`.
  @usableFromInline
  static var internalCase: CaseKeyPath<Self, InternalAction> {
    \Case<Self>._internalBoundary
  }
}

extension Case where Value: TCAFeatureAction {
  /// The `_internal` case of a ``TCAFeatureAction``, for ``TCAFeatureAction/internalCase``: a
  /// property key path, which a generic action's `\.Cases._internal` cannot be.
  public var _internalBoundary: Case<Value.InternalAction> {
    let toInternal = BoundaryCasePaths<Value>.shared.internal
    return Case<Value.InternalAction>(
      embed: { self._embed(Value._internal($0)) },
      extract: { (root: Any) in self._extract(from: root).flatMap(toInternal.extract(from:)) }
    )
  }
}
