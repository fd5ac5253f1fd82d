/// The reducer a ``TestStore`` runs: the feature's reducer, with the test store's dependencies,
/// keeping the state the test has asserted and the actions effects sent that it has not.
///
/// NB: Used only on the main actor, by the test store and its runtime.
final class TestReducer<State, Action>: Reducer {
  typealias Body = Never

  private let base: (inout State, Action) -> Effect<Action>
  /// The dependencies the reducer and its effects run with; the test may change them.
  var dependencies: DependencyValues
  /// The state after the last action the test sent or received.
  var state: State
  /// What effects sent, each with the state after it, until the test receives or skips it.
  var receivedActions: [(action: Action, state: State)] = []

  init(
    base: @escaping (inout State, Action) -> Effect<Action>,
    dependencies: DependencyValues,
    initialState: State
  ) {
    self.base = base
    self.dependencies = dependencies
    self.state = initialState
  }

  func reduce(into state: inout State, action: TestAction) -> Effect<TestAction> {
    let effect = withDependencies {
      $0 = self.dependencies
    } operation: {
      self.base(&state, action.action)
    }
    switch action.origin {
    case .send:
      self.state = state
    case let .receive(received):
      self.receivedActions.append((received, state))
    }
    let location = action.location
    return effect.map { TestAction(origin: .receive($0), location: location) }
  }

  /// An action as the test store's runtime sees it: sent by the test, or by an effect of an
  /// action the test sent at `location`.
  struct TestAction: @unchecked Sendable {
    // NB: Actions need not be `Sendable` in TCA; this one is made and read on the main actor.
    enum Origin {
      case send(Action)
      case receive(Action)
    }

    let origin: Origin
    let location: SourceLocation

    var action: Action {
      switch self.origin {
      case let .send(action), let .receive(action): action
      }
    }
  }
}
