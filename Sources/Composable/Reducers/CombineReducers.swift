/// Groups reducers into one, so that a modifier such as `ifLet` applies to all of them.
///
/// ```swift
/// CombineReducers {
///   Reduce { state, action in … }
///   Scope(state: \.child, action: \.child) { Child() }
/// }
/// .ifLet(\.sheet, action: \.sheet) { Sheet() }
/// ```
public struct CombineReducers<State, Action, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline
  let reducers: Reducers

  /// Creates a reducer that runs `build`'s reducers in order.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.reducers.reduce(into: &state, action: action)
  }
}
