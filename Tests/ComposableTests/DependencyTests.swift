import Composable
import CustomDump
import Foundation
import TestSupport
import Testing

/// A greeting client, registered the way a TCA user registers one.
private struct Greeter: Sendable {
  var greet: @Sendable (String) -> String
}

extension Greeter: TestDependencyKey {
  static let testValue = Greeter { "test: \($0)" }
}

extension DependencyValues {
  fileprivate var greeter: Greeter {
    get { self[Greeter.self] }
    set { self[Greeter.self] = newValue }
  }
}

/// A feature that reads its dependencies in the reducer and, later, in an effect.
private struct Greeting: Reducer {
  struct State: Equatable {
    var inReducer: [String] = []
    var inEffect: [String] = []
  }

  enum Action: Equatable {
    case greet(String)
    case greeted(String)
    case makeID
    case madeID(UUID)
    case sleepThenGreet(String)
  }

  @Dependency(\.greeter) var greeter
  @Dependency(\.uuid) var uuid
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .greet(name):
        state.inReducer.append(self.greeter.greet(name))
        return .run { send in
          // NB: Read on the effect's own task, after the reducer returned.
          await send(.greeted(self.greeter.greet(name)))
        }
      case let .greeted(greeting):
        state.inEffect.append(greeting)
        return .none
      case .makeID:
        return .send(.madeID(self.uuid()))
      case .madeID:
        return .none
      case let .sleepThenGreet(name):
        return .run { send in
          try await self.clock.sleep(for: .seconds(60))
          await send(.greeted(self.greeter.greet(name)))
        }
      }
    }
  }
}

/// Greets through a plain child and through one with its greeter overridden.
private struct OverridingParent: Reducer {
  struct State: Equatable {
    var plain = Greeting.State()
    var overridden = Greeting.State()
  }
  @CasePathable
  enum Action: Equatable {
    case plain(Greeting.Action)
    case overridden(Greeting.Action)
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.plain, action: \.plain) { Greeting() }
    Scope(state: \.overridden, action: \.overridden) {
      Greeting()
        .dependency(\.greeter, Greeter { "child: \($0)" })
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct DependencyTests {
  @Test func theReducerAndItsEffectsRunWithTheStoresDependencies() async {
    let store = Store(initialState: Greeting.State()) {
      Greeting()
    } withDependencies: {
      $0.greeter = Greeter { "hello, \($0)" }
    }
    await store.send(.greet("Blob")).finish()
    expectNoDifference(
      store.state,
      Greeting.State(inReducer: ["hello, Blob"], inEffect: ["hello, Blob"])
    )
  }

  @Test func withoutAnOverrideTheTestValueIsUsed() async {
    let store = Store(initialState: Greeting.State()) {
      Greeting()
    }
    await store.send(.greet("Blob")).finish()
    #expect(store.inEffect == ["test: Blob"])
  }

  @Test func theStoreKeepsItsDependenciesWhereverActionsAreSentFrom() async {
    let store = withDependencies {
      $0.greeter = Greeter { "outer: \($0)" }
    } operation: {
      Store(initialState: Greeting.State()) { Greeting() }
    }
    // NB: Sent outside the `withDependencies` the store was made in.
    await withDependencies {
      $0.greeter = Greeter { "ignored: \($0)" }
    } operation: {
      await store.send(.greet("Blob")).finish()
    }
    expectNoDifference(store.inReducer + store.inEffect, ["outer: Blob", "outer: Blob"])
  }

  @Test func dependencyOverridesOneReducerAndItsEffects() async {
    let store = Store(initialState: OverridingParent.State()) {
      OverridingParent()
    } withDependencies: {
      $0.greeter = Greeter { "store: \($0)" }
    }
    await store.send(.plain(.greet("A"))).finish()
    await store.send(.overridden(.greet("B"))).finish()
    expectNoDifference(store.plain.inEffect, ["store: A"])
    expectNoDifference(store.overridden.inEffect, ["child: B"])
  }

  @Test func transformDependencyStartsFromTheCurrentValue() async {
    let store = Store(initialState: Greeting.State()) {
      Greeting()
        .transformDependency(\.greeter) { greeter in
          let base = greeter
          greeter.greet = { base.greet($0).uppercased() }
        }
    } withDependencies: {
      $0.greeter = Greeter { "hi \($0)" }
    }
    await store.send(.greet("Blob")).finish()
    expectNoDifference(store.inEffect, ["HI BLOB"])
  }

  @Test func anUnimplementedDependencyFailsTheTest() async {
    let store = Store(initialState: Greeting.State()) {
      Greeting()
    }
    withKnownIssue {
      store.send(.makeID)
    } matching: { issue in
      issue.description.contains("@Dependency(\\.uuid)")
    }
  }

  @Test func controlledUUIDsAndClocks() async {
    let clock = TestClock()
    let store = Store(initialState: Greeting.State()) {
      Greeting()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = clock
    }
    var ids: [UUID] = []
    let observed = Store(
      initialState: Greeting.State(),
      observer: { (event: ActionEvent<Greeting.State, Greeting.Action>) in
        if case let .madeID(id) = event.action { ids.append(id) }
      }
    ) {
      Greeting()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    observed.send(.makeID)
    observed.send(.makeID)
    #expect(ids == [UUID(0), UUID(1)])

    let task = store.send(.sleepThenGreet("Blob"))
    await clock.waitForSleeper()
    await clock.advance(by: .seconds(59))
    #expect(store.inEffect == [])
    await clock.advance(by: .seconds(1))
    await task.finish()
    #expect(store.inEffect == ["test: Blob"])
  }

  @Test func concurrencyHelpersComeWithTheImport() async throws {
    let calls = LockIsolated(0)
    let box = UncheckedSendable(NSObject())
    let result = await Result { () async throws -> Int in
      calls.withValue { $0 += 1 }
      return 42
    }
    #expect(calls.value == 1)
    #expect(try result.get() == 42)
    #expect(box.value.isEqual(box.value))
  }
}

/// A feature that stamps with the date and waits on the clock.
private struct Stamper: Reducer {
  struct State: Equatable {
    var stamps: [Date] = []
  }

  enum Action: Equatable {
    case stampAfterASecond
    case stamped(Date)
  }

  @Dependency(\.date) var date
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .stampAfterASecond:
        return .run { send in
          try await self.clock.sleep(for: .seconds(1))
          await send(.stamped(self.date.now))
        }
      case let .stamped(date):
        state.stamps.append(date)
        return .none
      }
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct SchedulerDependencyTests {
  @Test func theDateAndAnImmediateClockAreDependencies() async {
    let store = Store(initialState: Stamper.State()) {
      Stamper()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
      $0.date = .constant(Date(timeIntervalSince1970: 42))
    }
    await store.send(.stampAfterASecond).finish()
    #expect(store.stamps == [Date(timeIntervalSince1970: 42)])
  }

  @Test func theMainQueueIsADependency() async {
    let queue = DispatchQueue.test
    let store = Store(initialState: Debouncer.State()) {
      Debouncer()
    } withDependencies: {
      $0.mainQueue = queue.eraseToAnyScheduler()
    }
    store.send(.typed("a"))
    let search = store.send(.typed("ab"))
    // NB: Each effect starts on a main-actor task of its own: let it reach its sleep before
    // time moves.
    await Task.megaYield()
    await queue.advance(by: .milliseconds(299))
    #expect(store.searches.isEmpty)
    // NB: On a busy host the effect may reach its sleep only after time has moved, and then
    // sleeps 300 ms from there (it hung `finish()` once in ~40 runs): time moves on in steps
    // until the search lands, never in real time.
    var steps = 0
    while store.searches.isEmpty, steps < 400 {
      await queue.advance(by: .milliseconds(1))
      await Task.megaYield()
      steps += 1
    }
    await search.finish()
    #expect(store.searches == ["ab"])
  }
}

/// A feature that waits on the main queue, the way TCA features written before clocks do.
private struct Debouncer: Reducer {
  struct State: Equatable {
    var searches: [String] = []
  }

  enum Action: Equatable {
    case searched(String)
    case typed(String)
  }

  @Dependency(\.mainQueue) var mainQueue
  private enum CancelID { case search }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .searched(query):
        state.searches.append(query)
        return .none
      case let .typed(query):
        return .run { send in
          try await self.mainQueue.sleep(for: .milliseconds(300))
          await send(.searched(query))
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)
      }
    }
  }
}
