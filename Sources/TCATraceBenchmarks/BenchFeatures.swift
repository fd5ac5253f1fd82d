import CustomDump
import TCATrace

/// A synthetic feature for the benchmarks: ten scalar fields and a list of rows; its actions
/// change one field or one row.
public enum BenchFeature {
  public struct Row: Equatable, Identifiable, Sendable {
    public var id: Int
    public var title: String
    public var count: Int
  }

  public struct State: Equatable, Sendable {
    public var counter = 0
    public var title = "Benchmarks"
    public var isOn = false
    public var ratio = 0.5
    public var tags = ["a", "b"]
    public var note: String?
    public var level = 1
    public var name = "bench"
    public var flag = true
    public var score = 0.0
    public var rows: IdentifiedArrayOf<Row> = []

    public init(rows: Int) {
      self.rows = IdentifiedArray(
        uniqueElements: (0..<rows).map { Row(id: $0, title: "row \($0)", count: 0) })
    }
  }

  @CasePathable
  public enum Action: Equatable, Sendable {
    @CasePathable
    public enum View: Equatable, Sendable {
      case incrementTapped
      case rowTapped(id: Int)
    }
    case view(View)
    case delegate(Never)
    case _internal(Never)
  }

  public struct Feature: Reducer {
    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .view(.incrementTapped):
        state.counter += 1
      case let .view(.rowTapped(id)):
        state.rows[id: id]?.count += 1
      }
      return .none
    }
  }
}

/// Actions as an app sends them (#75): a tap whose effect answers with two internal actions and
/// a delegate, a timer's tick from an effect that runs on, and typing, as bindings.
///
/// Its state is `@ObservableState`, as TCA's `BindingAction.set(_:_:)` asks of a binding's root.
public enum PatternFeature {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var isLoading = false
    public var loaded = 0
    public var ticks = 0
    public var text = ""
    public var rows: IdentifiedArrayOf<BenchFeature.Row> = []

    public init(rows: Int) {
      self.rows = IdentifiedArray(
        uniqueElements: (0..<rows).map { BenchFeature.Row(id: $0, title: "row \($0)", count: 0) })
    }
  }

  @CasePathable
  public enum Action: Equatable, Sendable {
    @CasePathable
    public enum View: BindableAction, Equatable, Sendable {
      case binding(BindingAction<State>)
      case refreshTapped
      case timerStarted
    }

    @CasePathable
    public enum Internal: Equatable, Sendable {
      case loaded(Int)
      case refreshFinished
      case timerTicked
    }

    @CasePathable
    public enum Delegate: Equatable, Sendable {
      case refreshed(count: Int)
    }

    case view(View)
    case delegate(Delegate)
    case _internal(Internal)
  }

  public struct Feature: Reducer {
    public typealias State = PatternFeature.State
    public typealias Action = PatternFeature.Action

    /// The timer's ticks: one `.timerTicked` each.
    let ticks: AsyncStream<Void>
    /// Told of each tap done (its delegate action), tick and keystroke.
    let progress: FrameProgress

    init(ticks: AsyncStream<Void> = AsyncStream { $0.finish() }, progress: FrameProgress) {
      self.ticks = ticks
      self.progress = progress
    }

    public var body: some ReducerOf<Self> {
      BindingReducer(action: \.view)
      Reduce { state, action in
        switch action {
        case .view(.binding):
          self.progress.frames += 1
          return .none
        case .view(.refreshTapped):
          state.isLoading = true
          let next = state.loaded + 1
          return .run { send in
            await send(._internal(.loaded(next)))
            await send(._internal(.refreshFinished))
            await send(.delegate(.refreshed(count: next)))
          }
        case .view(.timerStarted):
          return .run { [ticks] send in
            for await _ in ticks { await send(._internal(.timerTicked)) }
          }
        case let ._internal(.loaded(count)):
          state.loaded = count
          return .none
        case ._internal(.refreshFinished):
          state.isLoading = false
          return .none
        case ._internal(.timerTicked):
          state.ticks += 1
          self.progress.frames += 1
          return .none
        case .delegate(.refreshed):
          // NB: A parent would handle it; the benchmark only counts it.
          self.progress.frames += 1
          return .none
        }
      }
    }
  }
}

/// A parent whose one child is ``BenchFeature``: the child's action goes through a `Scope`, as
/// most of an app's actions go through one or more.
public enum BenchParentFeature {
  public struct State: Equatable, Sendable {
    public var child = BenchFeature.State(rows: 0)
    public var title = "Parent"
    public var count = 0
    public var tags = ["a", "b"]

    public init() {}
  }

  @CasePathable
  public enum Action: Equatable, Sendable {
    @CasePathable
    public enum View: Equatable, Sendable {
      case tapped
    }

    @CasePathable
    public enum Internal: Equatable, Sendable {
      case child(BenchFeature.Action)
    }

    case view(View)
    case delegate(Never)
    case _internal(Internal)
  }

  public struct Feature: Reducer {
    public typealias State = BenchParentFeature.State
    public typealias Action = BenchParentFeature.Action

    public init() {}

    public var body: some ReducerOf<Self> {
      Scope(state: \.child, action: \._internal.child) {
        BenchFeature.Feature()
      }
      Reduce { state, action in
        if case .view(.tapped) = action { state.count += 1 }
        return .none
      }
    }
  }

  /// The child's action that changes one of its scalars.
  public static let childIncrement = Action._internal(.child(.view(.incrementTapped)))
}

/// A list as a TCA app writes one (#46): the state and its rows are `@ObservableState`, the
/// rows in an `IdentifiedArray`; its actions are ``BenchFeature``'s. On TCA the macro gives each
/// property accessors that keep its value from before an in-place change until the change is
/// done, and compare the identities of every row when the rows change; `Composable`'s macro
/// leaves the properties stored, as ``BenchFeature``'s are.
public enum ObservedRowsFeature {
  @ObservableState
  public struct Row: Equatable, Identifiable, Sendable {
    public var id: Int
    public var title: String
    public var count: Int
  }

  @ObservableState
  public struct State: Equatable, Sendable {
    public var counter = 0
    public var rows: IdentifiedArrayOf<Row> = []

    public init(rows: Int) {
      self.rows = IdentifiedArray(
        uniqueElements: (0..<rows).map { Row(id: $0, title: "row \($0)", count: 0) })
    }
  }

  public typealias Action = BenchFeature.Action

  public struct Feature: Reducer {
    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .view(.incrementTapped):
        state.counter += 1
      case let .view(.rowTapped(id)):
        state.rows[id: id]?.count += 1
      }
      return .none
    }
  }
}

/// A smaller feature whose state and actions are `Codable`, as a replayed one's must be: a
/// counter and a list of rows (scenario 7). The others use ``BenchFeature``, whose types are
/// not, so that they measure what recording costs without JSON.
public enum CodableBenchFeature {
  public struct Row: Codable, Equatable, Identifiable, Sendable {
    public var id: Int
    public var count: Int
  }

  public struct State: Codable, Equatable, Sendable {
    public var counter = 0
    public var rows: IdentifiedArrayOf<Row> = []

    public init(rows: Int) {
      self.rows = IdentifiedArray(uniqueElements: (0..<rows).map { Row(id: $0, count: 0) })
    }
  }

  public enum Action: Codable, Equatable, Sendable {
    case incrementTapped
    case rowTapped(id: Int)
  }

  public struct Feature: Reducer {
    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .incrementTapped: state.counter += 1
      case let .rowTapped(id): state.rows[id: id]?.count += 1
      }
      return .none
    }
  }
}

/// What TCA's `_printChanges()` does after every action: a CustomDump diff of the whole state,
/// printed (here to a stream that discards it). The baseline users compare a recorder with.
public struct PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base

  public init(_ base: Base) {
    self.base = base
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let before = state
    let effect = self.base.reduce(into: &state, action: action)
    var output = DiscardingStream()
    print("received action:", to: &output)
    customDump(action, to: &output, indent: 2)
    if let difference = diff(before, state) {
      print(difference, to: &output)
    } else {
      print("  (No state changes)", to: &output)
    }
    return effect
  }
}

/// A reducer that keeps the state from before each action until the action is done, as a
/// recorder keeps it to diff with the state after: the lower bound of what diffing against a
/// kept state costs. A change to a collection whose storage the kept state shares copies the
/// whole collection first (copy on write), where a plain store changes it in place.
public struct KeepingStateReducer<Base: Reducer>: Reducer {
  let base: Base

  public init(_ base: Base) {
    self.base = base
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let before = state
    return withExtendedLifetime(before) { self.base.reduce(into: &state, action: action) }
  }
}

/// A text stream that drops what it is given, but not before it has been rendered.
struct DiscardingStream: TextOutputStream {
  var count = 0
  mutating func write(_ string: String) {
    self.count &+= string.utf8.count
  }
}
