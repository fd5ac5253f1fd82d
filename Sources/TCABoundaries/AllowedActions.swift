/// The actions a restricted feature's effects may send: its own internal actions and its
/// delegate actions, never its view actions.
///
/// ```swift
/// return .run { send in
///   await send(._internal(.todosLoaded(todos)))   // allowed
///   await send(.delegate(.didFinish))              // allowed
///   // await send(.view(.onAppear))                // does not compile
/// }
/// ```
public enum AllowedActions<Action: TCAFeatureAction> {
  case delegate(Action.DelegateAction)
  case _internal(Action.InternalAction)

  /// The feature action this allowed action stands for.
  @inlinable
  public var action: Action {
    switch self {
    case let .delegate(action): .delegate(action)
    case let ._internal(action): ._internal(action)
    }
  }
}

extension AllowedActions: Equatable
where Action.DelegateAction: Equatable, Action.InternalAction: Equatable {}

extension AllowedActions: Sendable
where Action.DelegateAction: Sendable, Action.InternalAction: Sendable {}

extension Reduce where Action: TCAFeatureAction {
  /// A restricted reducer: one closure for view actions and one for internal actions, whose
  /// effects may only send ``AllowedActions``. The feature cannot forward to its own view
  /// actions, and does not see its own delegate actions (those are for its parent).
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce(
  ///     view: { state, action in
  ///       switch action {
  ///       case .onAppear:
  ///         return .run { send in await send(._internal(.loaded(await api.load()))) }
  ///       }
  ///     },
  ///     internal: { state, action in
  ///       switch action {
  ///       case let .loaded(items):
  ///         state.items = items
  ///         return .send(.delegate(.didLoad))
  ///       }
  ///     }
  ///   )
  /// }
  /// ```
  public init(
    view:
      @escaping (_ state: inout State, _ action: Action.ViewAction) -> Effect<
        AllowedActions<Action>
      >,
    internal:
      @escaping (_ state: inout State, _ action: Action.InternalAction) -> Effect<
        AllowedActions<Action>
      >
  ) {
    let reduceInternal = `internal`
    self.init { state, action -> Effect<Action> in
      let effect: Effect<Action> =
        switch action.boundary {
        case let .view(action):
          view(&state, action).map(\.action)
        case let ._internal(action):
          reduceInternal(&state, action).map(\.action)
        case .delegate:
          .none
        }
      reportEffects(effect, of: Action.self, .own)
      return effect
    }
  }
}
