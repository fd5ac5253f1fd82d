extension Reducer {
  /// Runs a child reducer on one case of this reducer's enum state, while the state is in that
  /// case.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifCaseLet(\.loggedIn, action: \.loggedIn) {
  ///     LoggedInFeature()
  ///   }
  /// ```
  ///
  /// The child runs before this reducer. When the state leaves the case, the child's running
  /// effects are cancelled. A child action that arrives while the state is in another case is
  /// reported as an issue.
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
    _ toCaseState: CaseKeyPath<State, CaseState>,
    action toCaseAction: CaseKeyPath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfCaseLetReducer<Self, Case>
  where CaseState == Case.State, CaseAction == Case.Action {
    _IfCaseLetReducer(
      parent: self,
      child: `case`(),
      toChildState: AnyCasePath(toCaseState),
      toChildAction: AnyCasePath(toCaseAction),
      cancelID: KeyPathID(keyPath: toCaseState, elementID: nil),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// A reducer with a child feature in one case of its enum state; built by
/// ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: AnyCasePath<Parent.State, Child.State>
  let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  let cancelID: KeyPathID
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let wasInCase = self.toChildState.extract(from: state) != nil
    let childEffect = self.reduceChild(into: &state, action: action)
    let parentEffect = self.parent.reduce(into: &state, action: action)
    let cancelEffect: Effect<Parent.Action> =
      wasInCase && self.toChildState.extract(from: state) == nil
      ? .cancel(id: self.cancelID) : .none
    return childEffect.merge(with: parentEffect).merge(with: cancelEffect)
  }

  private func reduceChild(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard let childAction = self.toChildAction.extract(from: action) else { return .none }
    guard var childState = self.toChildState.extract(from: state) else {
      reportIssue(
        """
        An "ifCaseLet" at "\(self.location.fileID):\(self.location.line)" received a child \
        action when child state was set to a different case:

          Action: \(String(reflecting: action))
          State: \(String(reflecting: state))

        The parent changed the state's case before the child's action was sent, or the action \
        was sent to a store scoped to a case the state is no longer in.
        """,
        fileID: self.location.fileID,
        filePath: self.location.filePath,
        line: self.location.line,
        column: self.location.column
      )
      return .none
    }
    // NB: The case is named after the state's case label, which the case path's key path does
    // not carry in a readable form.
    let name = Mirror(reflecting: state).children.first?.label
    let effect = ActionRouting.route(
      ActionRoute(keyPath: self.cancelID.keyPath, kind: .optional, name: name)
    ) {
      self.child.reduce(into: &childState, action: childAction)
    }
    state = self.toChildState.embed(childState)
    let toChildAction = self.toChildAction
    return effect.map { toChildAction.embed($0) }.cancellable(id: self.cancelID)
  }
}
