import Composable

/// A counter that records what it did; the leaf of the test features.
struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var log: [Int] = []
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case record(Int)
    case recordThenReportDone(Int)
    case done
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case let .record(value):
      state.log.append(value)
      return .none
    case let .recordThenReportDone(value):
      state.log.append(value)
      return .send(.done)
    case .done:
      return .none
    }
  }
}

/// A parent with a counter always present, an optional counter and a list of counters.
struct Parent: Reducer {
  struct State: Equatable {
    var counter = Counter.State()
    var sheet: Counter.State?
    var rows: IdentifiedArrayOf<Row> = []
    var parentLog: [String] = []
  }

  struct Row: Equatable, Identifiable {
    let id: Int
    var counter = Counter.State()
  }

  @CasePathable
  enum Action: Equatable {
    case counter(Counter.Action)
    case sheet(PresentationAction<Counter.Action>)
    case rows(IdentifiedAction<Int, Counter.Action>)
    case presentSheet
    case removeRow(id: Int)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) {
      Counter()
    }
    Reduce { state, action in
      switch action {
      case .counter(.done):
        state.parentLog.append("counter done")
        return .none
      case .counter, .sheet, .rows:
        return .none
      case .presentSheet:
        state.sheet = Counter.State()
        return .none
      case let .removeRow(id):
        state.rows.remove(id: id)
        return .none
      }
    }
    .ifLet(\.sheet, action: \.sheet) {
      Counter()
    }
    .forEach(\.rows, action: \.rows) {
      Scope(state: \.counter, action: \.self) {
        Counter()
      }
    }
  }
}
