/// Builds a reducer from the reducers listed in a `body`, running them in order and merging
/// their effects.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  @inlinable
  public static func buildArray<R: Reducer<State, Action>>(_ reducers: [R]) -> _ReducerArray<R> {
    _ReducerArray(reducers: reducers)
  }

  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> {
    EmptyReducer()
  }

  @inlinable
  public static func buildBlock<R: Reducer<State, Action>>(_ reducer: R) -> R {
    reducer
  }

  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    first reducer: R0
  ) -> _ConditionalReducer<R0, R1> {
    .first(reducer)
  }

  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    second reducer: R1
  ) -> _ConditionalReducer<R0, R1> {
    .second(reducer)
  }

  @inlinable
  public static func buildExpression<R: Reducer<State, Action>>(_ expression: R) -> R {
    expression
  }

  @inlinable
  public static func buildFinalResult<R: Reducer<State, Action>>(_ reducer: R) -> R {
    reducer
  }

  @inlinable
  public static func buildLimitedAvailability<R: Reducer<State, Action>>(
    _ wrapped: R
  ) -> Reduce<State, Action> {
    Reduce(wrapped)
  }

  @inlinable
  public static func buildOptional<R: Reducer<State, Action>>(_ wrapped: R?) -> R? {
    wrapped
  }

  @inlinable
  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R {
    first
  }

  @inlinable
  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> _ReducerSequence<R0, R1> {
    _ReducerSequence(first: accumulated, second: next)
  }
}

/// A ``ReducerBuilder`` for the state and action of `R`.
public typealias ReducerBuilderOf<R: Reducer> = ReducerBuilder<R.State, R.Action>

/// Two reducers run one after the other; built by ``ReducerBuilder``.
public struct _ReducerSequence<R0: Reducer, R1: Reducer<R0.State, R0.Action>>: Reducer {
  @usableFromInline let first: R0
  @usableFromInline let second: R1

  @usableFromInline
  init(first: R0, second: R1) {
    self.first = first
    self.second = second
  }

  @inlinable
  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    self.first.reduce(into: &state, action: action)
      .merge(with: self.second.reduce(into: &state, action: action))
  }
}

/// One of two reducers, chosen by an `if`/`else` or `switch` in a builder.
public enum _ConditionalReducer<R0: Reducer, R1: Reducer<R0.State, R0.Action>>: Reducer {
  case first(R0)
  case second(R1)

  @inlinable
  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    switch self {
    case let .first(reducer): reducer.reduce(into: &state, action: action)
    case let .second(reducer): reducer.reduce(into: &state, action: action)
    }
  }
}

/// Reducers built by a `for` loop in a builder, run in order.
public struct _ReducerArray<Element: Reducer>: Reducer {
  @usableFromInline let reducers: [Element]

  @usableFromInline
  init(reducers: [Element]) {
    self.reducers = reducers
  }

  @inlinable
  public func reduce(
    into state: inout Element.State, action: Element.Action
  ) -> Effect<Element.Action> {
    self.reducers.reduce(.none) { $0.merge(with: $1.reduce(into: &state, action: action)) }
  }
}

/// An `if` without `else` in a builder: the reducer runs when present.
extension Optional: Reducer where Wrapped: Reducer {
  public typealias Body = Never

  @inlinable
  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action) -> Effect<
    Wrapped.Action
  > {
    switch self {
    case let .some(wrapped): wrapped.reduce(into: &state, action: action)
    case .none: .none
    }
  }
}
