import IssueReporting

extension Reducer {
  /// Runs a child reducer on an optional part of this reducer's state, while it is present.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .ifLet(\.twoFactor, action: \.twoFactor) {
  ///       TwoFactorFeature()
  ///     }
  /// }
  /// ```
  ///
  /// The child runs before this reducer, so the parent sees the child's state after the child
  /// handled its action. When the parent sets the child's state to `nil`, the child's running
  /// effects are cancelled. A child action that arrives while the state is `nil` is reported
  /// as an issue.
  ///
  /// - Parameters:
  ///   - toChildState: A key path to the optional child state.
  ///   - toChildAction: A case key path to the child's actions.
  ///   - child: The child reducer.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    self.ifLet(
      toChildState, toChildAction: AnyCasePath(toChildAction), child: child(),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// Runs a presented child feature: its ``PresentationAction/presented(_:)`` actions go to
  /// the child while its state is present, and ``PresentationAction/dismiss`` sets the state
  /// to `nil` after this reducer has seen it.
  ///
  /// ```swift
  /// .ifLet(\.settings, action: \.settings) { SettingsFeature() }
  /// ```
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    self.ifLet(
      toChildState, toPresentationAction: AnyCasePath(toPresentationAction), child: child(),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}

extension Reducer {
  /// Runs an alert or a dialog kept in an optional, without `@Presents`' `$`:
  /// `.ifLet(\.alert, action: \.alert)`. It goes away after any action of it, as TCA's does.
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    self.ifLet(
      toWrappedState, toChildAction: AnyCasePath(toWrappedAction), child: EmptyReducer(),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}

extension Reducer {
  /// ``ifLet(_:action:then:fileID:filePath:line:column:)`` with a type-erased case path.
  package func ifLet<Child: Reducer>(
    _ toChildState: WritableKeyPath<State, Child.State?>,
    toChildAction: AnyCasePath<Action, Child.Action>,
    child: Child,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) -> _IfLetReducer<Self, Child> {
    _IfLetReducer(
      parent: self,
      child: child,
      toChildState: toChildState,
      routeName: nil,
      toChildAction: toChildAction,
      presentation: nil,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// The presentation form of ``ifLet(_:action:then:fileID:filePath:line:column:)`` with a
  /// type-erased case path.
  package func ifLet<Child: Reducer>(
    _ toChildState: WritableKeyPath<State, Child.State?>,
    toPresentationAction: AnyCasePath<Action, PresentationAction<Child.Action>>,
    child: Child,
    routeName: (@Sendable (State) -> String)? = nil,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) -> _IfLetReducer<Self, Child> {
    _IfLetReducer(
      parent: self,
      child: child,
      toChildState: toChildState,
      routeName: routeName,
      toChildAction: AnyCasePath(
        embed: { toPresentationAction.embed(.presented($0)) },
        extract: {
          guard case let .presented(action) = toPresentationAction.extract(from: $0)
          else { return nil }
          return action
        }
      ),
      presentation: _IfLetReducer.Presentation(
        isDismiss: {
          guard case .dismiss = toPresentationAction.extract(from: $0) else { return false }
          return true
        },
        dismiss: { toPresentationAction.embed(.dismiss) }
      ),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// A reducer with an optional child feature; built by ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  /// Names the child in state paths, where the key path does not read as a name.
  let routeName: (@Sendable (Parent.State) -> String)?
  let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  /// How the child is presented, when its actions are ``PresentationAction``s.
  let presentation: Presentation?
  let location: SourceLocation

  /// What `ifLet` needs to present a child: how to tell and make ``PresentationAction/dismiss``.
  struct Presentation {
    let isDismiss: @Sendable (Parent.Action) -> Bool
    let dismiss: @Sendable () -> Parent.Action
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    guard let presentation = self.presentation else {
      let before = state[keyPath: self.toChildState]
      let wasPresent = before != nil
      let childEffect = self.reduceChild(into: &state, action: action, dismiss: nil)
      let parentEffect = self.parent.reduce(into: &state, action: action)
      // NB: As TCA's: an alert or a dialog goes away after any action of it, unless the parent
      // replaced it meanwhile.
      if let before, isEphemeral(before), self.toChildAction.extract(from: action) != nil,
        !presentationChanged(before, state[keyPath: self.toChildState])
      {
        state[keyPath: self.toChildState] = nil
      }
      let cancelEffect: Effect<Parent.Action> =
        wasPresent && state[keyPath: self.toChildState] == nil
        ? .cancel(id: self.cancelID) : .none
      return childEffect.merge(with: parentEffect).merge(with: cancelEffect)
    }
    return self.reduce(into: &state, action: action, presentation: presentation)
  }

  /// The presentation form, as TCA's `ifLet` on a `PresentationState`: the child runs with a
  /// ``DismissEffect``; ``PresentationAction/dismiss``, or any action of an alert or dialog,
  /// ends the presentation unless the parent replaced the child meanwhile; a child that goes
  /// away or is replaced has its effects cancelled; a child that appears gets the effect that
  /// waits for it to dismiss itself.
  private func reduce(
    into state: inout Parent.State, action: Parent.Action, presentation: Presentation
  ) -> Effect<Parent.Action> {
    let before = state[keyPath: self.toChildState]
    let isDismiss = presentation.isDismiss(action)
    if before == nil, isDismiss {
      self.reportAbsentChild(action: action)
    }
    let childEffect = self.reduceChild(
      into: &state, action: action, dismiss: dismissEffect(for: self.cancelID)
    )
    let parentEffect = self.parent.reduce(into: &state, action: action)
    if let before,
      isDismiss || (isEphemeral(before) && self.toChildAction.extract(from: action) != nil),
      !presentationChanged(before, state[keyPath: self.toChildState])
    {
      state[keyPath: self.toChildState] = nil
    }

    let after = state[keyPath: self.toChildState]
    let changed = presentationChanged(before, after)
    let cancelEffect: Effect<Parent.Action> =
      changed && before != nil ? .cancel(id: self.cancelID) : .none

    var presentEffect = Effect<Parent.Action>.none
    if let after, !isEphemeral(after), needsDismissal(of: self.cancelID, isNew: changed) {
      presentEffect = .dismissal(of: self.cancelID, sending: presentation.dismiss)
    }
    return childEffect.merge(with: parentEffect).merge(with: cancelEffect)
      .merge(with: presentEffect)
  }

  private var cancelID: KeyPathID {
    KeyPathID(keyPath: self.toChildState, elementID: nil)
  }

  private func reduceChild(
    into state: inout Parent.State, action: Parent.Action,
    dismiss: @autoclosure () -> DismissEffect?
  ) -> Effect<Parent.Action> {
    guard let childAction = self.toChildAction.extract(from: action) else { return .none }
    guard state[keyPath: self.toChildState] != nil else {
      self.reportAbsentChild(action: action)
      return .none
    }
    let effect = ActionRouting.route(
      ActionRoute(keyPath: self.toChildState, kind: .optional, name: self.routeName?(state))
    ) {
      guard let dismiss = dismiss() else {
        return self.child.reduce(into: &state[keyPath: self.toChildState]!, action: childAction)
      }
      return withDependencies {
        $0.dismiss = dismiss
      } operation: {
        self.child.reduce(into: &state[keyPath: self.toChildState]!, action: childAction)
      }
    }
    let toChildAction = self.toChildAction
    return effect.map { toChildAction.embed($0) }.cancellable(id: self.cancelID)
  }

  private func reportAbsentChild(action: Parent.Action) {
    reportIssue(
      """
      An "ifLet" at "\(self.location.fileID):\(self.location.line)" received a child action \
      when child state was "nil":

        Action: \(String(reflecting: action))

      The parent set the child's state to "nil" before the child's action was sent, or the \
      action was sent to a store scoped to a child that is no longer presented.
      """,
      fileID: self.location.fileID,
      filePath: self.location.filePath,
      line: self.location.line,
      column: self.location.column
    )
  }
}
