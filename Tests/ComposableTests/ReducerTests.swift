import Composable
import CustomDump
import Testing
import TestSupport

@Suite(.hangGuard)
struct ReducerTests {
  @Test func reduceImplementationRuns() {
    var state = Counter.State()
    _ = Counter().reduce(into: &state, action: .increment)
    #expect(state.count == 1)
  }

  @Test func bodyImplementationRunsItsReducersInOrder() {
    struct Twice: Reducer {
      typealias State = [String]
      typealias Action = String
      var body: some ReducerOf<Self> {
        Reduce { state, action in
          state.append("first \(action)")
          return .none
        }
        Reduce { state, action in
          state.append("second \(action)")
          return .none
        }
      }
    }
    var state: [String] = []
    _ = Twice().reduce(into: &state, action: "a")
    expectNoDifference(state, ["first a", "second a"])
  }

  @Test func builderControlFlow() {
    struct Flow: Reducer {
      typealias State = [String]
      typealias Action = String
      let flag: Bool
      let count: Int
      var body: some ReducerOf<Self> {
        if self.flag {
          Reduce { state, _ in
            state.append("if")
            return .none
          }
        } else {
          Reduce { state, _ in
            state.append("else")
            return .none
          }
        }
        if self.count > 1 {
          Reduce { state, _ in
            state.append("optional")
            return .none
          }
        }
        for index in 0..<self.count {
          Reduce { state, _ in
            state.append("loop \(index)")
            return .none
          }
        }
        EmptyReducer()
      }
    }
    var state: [String] = []
    _ = Flow(flag: true, count: 2).reduce(into: &state, action: "")
    expectNoDifference(state, ["if", "optional", "loop 0", "loop 1"])
    state = []
    _ = Flow(flag: false, count: 1).reduce(into: &state, action: "")
    expectNoDifference(state, ["else", "loop 0"])
  }

  @Test func combineReducersGroupsReducersForAModifier() {
    var state = Grouped.State(child: Counter.State())
    _ = Grouped().reduce(into: &state, action: .child(.increment))
    expectNoDifference(state, Grouped.State(log: ["one", "two"], child: Counter.State(count: 1)))
  }
}

private struct Grouped: Reducer {
  struct State: Equatable {
    var log: [String] = []
    var child: Counter.State?
  }
  @CasePathable
  enum Action { case child(Counter.Action), other }
  var body: some ReducerOf<Self> {
    CombineReducers {
      Reduce { state, _ in
        state.log.append("one")
        return .none
      }
      Reduce { state, _ in
        state.log.append("two")
        return .none
      }
    }
    .ifLet(\.child, action: \.child) { Counter() }
  }
}
