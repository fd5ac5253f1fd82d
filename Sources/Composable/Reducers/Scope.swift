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
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State>
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

  /// Creates a scope from a type-erased case path; the designated initializer that
  /// conveniences (such as `TCABoundaries`' `InternalAction` overloads) build on.
  @inlinable
  package init(
    state toChildState: WritableKeyPath<ParentState, Child.State>,
    action toChildAction: AnyCasePath<ParentAction, Child.Action>,
    child: Child
  ) {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child
  }

  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = self.toChildAction.extract(from: action) else { return .none }
    let effect = ActionRouting.route(
      ActionRoute(keyPath: self.toChildState, kind: .scope)
    ) {
      self.child.reduce(into: &state[keyPath: self.toChildState], action: childAction)
    }
    let toChildAction = self.toChildAction
    return effect.map { toChildAction.embed($0) }
  }
}
