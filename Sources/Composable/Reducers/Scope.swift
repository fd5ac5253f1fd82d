/// Runs a child reducer on a part of the parent's state, for the parent's actions that embed a
/// child action.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.login, action: \.login) {
///     LoginFeature()
///   }
///   Reduce { state, action in … }
/// }
/// ```
///
/// The child's effects are mapped back into parent actions. Actions the case path does not
/// match are ignored.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  /// Where the child's state is: a part of the parent's state, or one case of it.
  @usableFromInline
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    case casePath(AnyCasePath<ParentState, Child.State>, cancelID: KeyPathID, SourceLocation)
  }

  @usableFromInline let toChildState: StatePath
  @usableFromInline let toChildAction: AnyCasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Creates a reducer that runs `child` on the state at `toChildState` for the actions in
  /// the case `toChildAction`.
  ///
  /// - Parameters:
  ///   - toChildState: A key path from parent state to child state: `\.login`.
  ///   - toChildAction: A case key path from parent action to child action: `\.login`.
  ///   - child: The child reducer.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: AnyCasePath(toChildAction), child: child())
  }

  /// Creates a reducer that runs `child` on the state at `toChildState` for the actions in
  /// the case `toChildAction`: `Scope(\.login, action: \.login) { LoginFeature() }`, TCA
  /// 1.25's spelling of ``init(state:action:child:)``.
  @inlinable
  public init<ChildState, ChildAction>(
    _ toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> _ child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: AnyCasePath(toChildAction), child: child())
  }

  /// Creates a reducer that runs `child` on one case of an enum parent state, while the state
  /// is in that case: `Scope(state: \.loggedIn, action: \.loggedIn) { LoggedIn() }`.
  ///
  /// A child action that arrives while the state is in another case is reported as an issue;
  /// unlike ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)``, the child's
  /// effects are not cancelled when the state leaves the case.
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .casePath(
      AnyCasePath(toChildState),
      cancelID: KeyPathID(keyPath: toChildState, elementID: nil),
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
    self.toChildAction = AnyCasePath(toChildAction)
    self.child = child()
  }

  /// Creates a scope from a type-erased case path; the designated initializer that
  /// conveniences (such as `TCABoundaries`' `InternalAction` overloads) build on.
  @inlinable
  package init(
    state toChildState: WritableKeyPath<ParentState, Child.State>,
    action toChildAction: AnyCasePath<ParentAction, Child.Action>,
    child: Child
  ) {
    self.toChildState = .keyPath(toChildState)
    self.toChildAction = toChildAction
    self.child = child
  }

  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = self.toChildAction.extract(from: action) else { return .none }
    let effect: Effect<Child.Action>
    switch self.toChildState {
    case let .keyPath(toChildState):
      effect = ActionRouting.route(ActionRoute(keyPath: toChildState, kind: .scope)) {
        self.child.reduce(into: &state[keyPath: toChildState], action: childAction)
      }
    case let .casePath(toChildState, cancelID, location):
      guard var childState = toChildState.extract(from: state) else {
        reportIssue(
          """
          A "Scope" at "\(location.fileID):\(location.line)" received a child action when \
          child state was set to a different case:

            Action: \(String(reflecting: action))
            State: \(String(reflecting: state))

          The parent changed the state's case before the child's action was sent, or the \
          action was sent to a store scoped to a case the state is no longer in.
          """,
          fileID: location.fileID, filePath: location.filePath, line: location.line,
          column: location.column
        )
        return .none
      }
      let name = Mirror(reflecting: state).children.first?.label
      effect = ActionRouting.route(
        ActionRoute(keyPath: cancelID.keyPath, kind: .scope, name: name)
      ) {
        self.child.reduce(into: &childState, action: childAction)
      }
      state = toChildState.embed(childState)
    }
    let toChildAction = self.toChildAction
    return effect.map { toChildAction.embed($0) }
  }
}
