import TCATrace

/// A store's smallest feature, for tests of where and when a recorder writes.
struct TapCounter: Reducer {
  struct State: Equatable {
    var count = 0
  }

  enum Action {
    case increment
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}
