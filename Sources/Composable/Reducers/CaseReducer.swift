/// A reducer made of enum cases, each a feature: what ``Reducer()`` makes of an enum.
///
/// Do not conform to it by hand; `@Reducer` does.
public protocol CaseReducer<State, Action>: Reducer
where State: CaseReducerState, Body: Reducer, Body.State == State, Body.Action == Action {
  associatedtype State = State
  associatedtype Action = Action
  associatedtype Body = Body
  /// An enum of the cases with a store for each feature case, for `switch store.case`.
  associatedtype CaseScope

  /// The reducer that runs each case's feature.
  @ReducerBuilder<State, Action>
  static var body: Body { get }

  /// The case the store's state is in, with a store scoped to its feature.
  @MainActor
  static func scope(_ store: Store<State, Action>) -> CaseScope
}

extension CaseReducer {
  public var body: Body {
    Self.body
  }
}

/// The state of a ``CaseReducer``, which names its reducer.
public protocol CaseReducerState {
  associatedtype StateReducer: CaseReducer where StateReducer.State == Self
}

/// The `CaseScope` enum `@Reducer` synthesizes for an enum reducer.
public protocol _CaseScopeProtocol {}

extension Store where State: CaseReducerState, State.StateReducer.Action == Action {
  /// The case the state is in, with a store scoped to its feature.
  public var `case`: State.StateReducer.CaseScope {
    State.StateReducer.scope(self)
  }
}
