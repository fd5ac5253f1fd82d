// NB: Stack ids are set through a dependency that TCA keeps behind an SPI.
#if canImport(ComposableArchitecture)
  @_spi(Internals) import ComposableArchitecture
#endif

/// The scripted session `tcatrace demo` runs: a user logs in with two-factor, works through
/// the todo list, edits the settings; then the leaky example breaks each boundary rule once.
///
/// The script drives a store through its `send`, so it runs the same against a plain `Store`
/// and a recording one:
///
/// ```swift
/// let store = Store(initialState: AppFeature.State()) {
///   AppFeature()
/// } withDependencies: {
///   DemoScript.dependencies(&$0)
/// }
/// await DemoScript.runApp(finish: store.finish) { store.send($0) }
/// await store.finish()
/// ```
public enum DemoScript {
  /// The example app's dependencies as the demo runs it: a back end that answers after
  /// `latency`, a todo timer that ticks three times on the real continuous clock (in a test
  /// too), and stack ids counted from 0 for this store.
  ///
  /// - Parameters:
  ///   - dependencies: The store's dependencies.
  ///   - latency: How long each call to the back end takes. Default: 20 ms.
  public static func dependencies(
    _ dependencies: inout DependencyValues, latency: Duration = .milliseconds(20)
  ) {
    dependencies.apiClient = .fake(latency: latency)
    dependencies.tickClient = .every(.milliseconds(25), count: 3)
    dependencies.continuousClock = ContinuousClock()
    dependencies.stackElementID = .countingFromZero
  }

  /// The example app's dependencies for a recording whose times do not matter (a test, a
  /// fixture): a back end that answers at once, a todo timer that ticks twice at once, and
  /// stack ids counted from 0.
  public static func immediateDependencies(_ dependencies: inout DependencyValues) {
    dependencies.apiClient = .fake(latency: .zero)
    dependencies.tickClient = .immediate(count: 2)
    dependencies.stackElementID = .countingFromZero
  }

  /// What a seed changes in the app's session: who logs in, and the todo they add.
  public struct Variant: Equatable, Sendable {
    public var email: String
    public var todoTitle: String

    static let emails = ["blob@example.com", "blob.jr@example.com", "blob.sr@example.com"]
    static let todoTitles = ["Record a trace", "Replay a bug", "Catch a leak"]

    /// The variant for `seed`, from 1; seed 1 is the one the README shows.
    public init(seed: Int) {
      let index = max(seed, 1) - 1
      self.email = Self.emails[index % Self.emails.count]
      self.todoTitle = Self.todoTitles[index / Self.emails.count % Self.todoTitles.count]
    }
  }

  /// Sends the app's session, waiting for the store's effects after each step that starts
  /// some.
  ///
  /// The waits are for the whole store, not for the task a send returns: as in TCA, that task
  /// also covers a sheet's dismissal effect, which runs for as long as the sheet is up.
  ///
  /// - Parameters:
  ///   - variant: Who logs in and what they add. Default: seed 1.
  ///   - finish: Waits for the store's effects (`Store.finish()`).
  ///   - send: Sends an action to the store.
  @MainActor
  public static func runApp(
    _ variant: Variant = Variant(seed: 1),
    finish: () async -> Void,
    send: (AppFeature.Action) -> StoreTask
  ) async {
    typealias Login = LoginFeature.Action
    @discardableResult
    func login(_ action: Login) -> StoreTask { send(._internal(.login(action))) }
    @discardableResult
    func twoFactor(_ action: TwoFactorFeature.Action) -> StoreTask {
      login(._internal(.twoFactor(.presented(action))))
    }
    @discardableResult
    func todos(_ action: TodosFeature.Action) -> StoreTask { send(._internal(.todos(action))) }
    @discardableResult
    func row(_ id: Int, _ action: TodoRowFeature.Action) -> StoreTask {
      todos(._internal(.rows(.element(id: id, action: action))))
    }
    @discardableResult
    func settings(_ action: SettingsFeature.Action) -> StoreTask {
      // NB: The settings are the first screen pushed on the stack, with the first id of the
      // store's `stackElementID` generator.
      send(._internal(.path(.element(id: .first, action: .settings(action)))))
    }

    login(.view(.emailChanged(variant.email)))
    login(.view(.passwordChanged(APIClient.fakePassword)))
    login(.view(.loginButtonTapped))
    await finish()
    twoFactor(.view(.codeChanged(APIClient.fakeCode)))
    twoFactor(.view(.submitButtonTapped))
    await finish()

    todos(.view(.onAppear))
    await finish()
    todos(.view(.addTodoButtonTapped(title: variant.todoTitle)))
    row(100, .view(.toggleCompleted))
    row(1, .view(.titleChanged("Buy oat milk")))
    todos(.view(.clearCompletedButtonTapped))
    todos(.view(.alert(.presented(.confirmClearCompleted))))
    todos(.view(.onDisappear))

    _ = send(.view(.settingsButtonTapped))
    settings(.view(.binding(.set(\.displayName, "Blob"))))
    settings(.view(.binding(.set(\.notificationsEnabled, true))))
    settings(.view(.saveButtonTapped))
  }

  /// Sends the leaky example's session: each of its four leaks happens once.
  @MainActor
  public static func runLeaky(send: (LeakyParentFeature.Action) -> StoreTask) async {
    await send(.view(.onAppear)).finish()
    _ = send(._internal(.child(.view(.buttonTapped))))
    _ = send(._internal(.child(._internal(.grandchild(.view(.finishButtonTapped))))))
    // LEAK view-sends-private-action: a caller outside the feature sends an internal action.
    _ = send(._internal(.refreshed))
  }
}

extension StackElementIDGenerator {
  /// Stack ids counted from 0 for each store: `Composable`'s `.incrementing`; on TCA a new live
  /// generator, which counts from 0 too (its dependency caches one for the whole process).
  static var countingFromZero: Self {
    #if canImport(ComposableArchitecture)
      .liveValue
    #else
      .incrementing
    #endif
  }
}

extension StackElementID {
  /// The id of the first element a store pushes. TCA allows `0` only in tests.
  static var first: Self {
    #if canImport(ComposableArchitecture)
      Self(generation: 0)
    #else
      0
    #endif
  }
}
