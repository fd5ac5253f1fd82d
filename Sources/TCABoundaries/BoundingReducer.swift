/// A reducer whose actions are handled by boundary category, one function each.
///
/// ```swift
/// struct LoginFeature: BoundingReducer {
///   func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<Action> {
///     switch action {
///     case .loginButtonTapped: …
///     }
///   }
///
///   func reduce(into state: inout State, internalAction action: Action.InternalAction) -> Effect<Action> {
///     switch action {
///     case let .loginResponse(result): …
///     }
///   }
/// }
/// ```
///
/// `reduce(into:action:)` is provided and dispatches each action to the function of its
/// category. A feature rarely reacts to its own delegate actions (its parent does), so
/// `reduce(into:delegateAction:)` defaults to doing nothing. A reducer that also composes
/// children conforms to ``ComposedBoundingReducer`` instead.
public protocol BoundingReducer: Reducer where Action: TCAFeatureAction {
  /// Handles an action sent by the feature's view.
  func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<Action>

  /// Handles an action from inside the feature: effect responses and embedded children.
  func reduce(into state: inout State, internalAction action: Action.InternalAction)
    -> Effect<Action>

  /// Handles the feature's own delegate actions. Default: nothing.
  func reduce(into state: inout State, delegateAction action: Action.DelegateAction)
    -> Effect<Action>
}

extension BoundingReducer {
  public func reduce(
    into state: inout State, delegateAction action: Action.DelegateAction
  ) -> Effect<Action> {
    .none
  }

  /// Dispatches `action` to the function of its boundary category.
  @inlinable
  public func reduce(into state: inout State, boundaryAction action: Action) -> Effect<Action> {
    let effect =
      switch action.boundary {
      case let .view(action): self.reduce(into: &state, viewAction: action)
      case let ._internal(action): self.reduce(into: &state, internalAction: action)
      case let .delegate(action): self.reduce(into: &state, delegateAction: action)
      }
    reportEffects(effect, of: Action.self, .own)
    return effect
  }
}

extension BoundingReducer where Body == Never {
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let effect = self.reduce(into: &state, boundaryAction: action)
    reportEffects(effect, of: Action.self, .all)
    return effect
  }
}

extension BoundingReducer where Action.ViewAction == Never {
  public func reduce(into state: inout State, viewAction action: Never) -> Effect<Action> {}
}

extension BoundingReducer where Action.InternalAction == Never {
  public func reduce(into state: inout State, internalAction action: Never) -> Effect<Action> {}
}

/// A ``BoundingReducer`` that also composes child reducers in a `body`, around its
/// ``coreReducer``.
///
/// ```swift
/// struct SomeFeature: ComposedBoundingReducer {
///   var body: some ReducerOf<Self> {
///     coreReducer
///       .ifLet(\.child, action: \.child) {
///         ChildFeature()
///       }
///   }
///
///   func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<Action> { … }
///   func reduce(into state: inout State, internalAction action: Action.InternalAction) -> Effect<Action> { … }
/// }
/// ```
public protocol ComposedBoundingReducer: BoundingReducer
where Body: Reducer<State, Action> {}

extension ComposedBoundingReducer {
  /// The feature's own reducer: its three category functions, dispatched by category.
  public var coreReducer: Reduce<State, Action> {
    Reduce { state, action in self.reduce(into: &state, boundaryAction: action) }
  }
}
