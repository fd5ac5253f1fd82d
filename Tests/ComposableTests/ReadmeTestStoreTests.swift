// The TestStore example of Documentation/Composable.md, as TCA's documentation writes a feature
// and its test: it shows this file from its first import; `ReadmeExampleTests` checks that it
// does.
import Composable  // was: import ComposableArchitecture
import Testing

@Reducer
struct Stopwatch {
  @ObservableState
  struct State: Equatable {
    var isRunning = false
    var secondsElapsed = 0
  }

  enum Action {
    case startButtonTapped
    case stopButtonTapped
    case tick
  }

  @Dependency(\.continuousClock) var clock
  private enum CancelID { case timer }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startButtonTapped:
        state.isRunning = true
        return .run { send in
          for await _ in self.clock.timer(interval: .seconds(1)) {
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer)
      case .stopButtonTapped:
        state.isRunning = false
        return .cancel(id: CancelID.timer)
      case .tick:
        state.secondsElapsed += 1
        return .none
      }
    }
  }
}

@MainActor
struct StopwatchTests {
  @Test func ticksWhileRunning() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stopwatch.State()) {
      Stopwatch()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.startButtonTapped) {
      $0.isRunning = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.tick) {
      $0.secondsElapsed = 1
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.tick) {
      $0.secondsElapsed = 2
    }
    await store.send(.stopButtonTapped) {
      $0.isRunning = false
    }
  }
}
