import CustomDump
import TCATraceExamples
import Testing
import TestSupport

@MainActor
@Suite(.hangGuard)
struct LoginFlowTests {
  typealias Action = AppFeature.Action

  private func makeStore(
    observer: @escaping @MainActor (ActionEvent<AppFeature.State, Action>) -> Void = { _ in }
  ) -> StoreOf<AppFeature> {
    Store(initialState: AppFeature.State(), observer: observer) {
      AppFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
      $0.tickClient = .immediate(count: 0)
    }
  }

  @Test func loginWithTwoFactorSignsTheUserIn() async {
    var events: [(action: Action, origin: ActionOrigin, path: String)] = []
    let store = makeStore { events.append(($0.action, $0.origin, $0.route.statePath)) }
    let login = store.scope(state: \.login, action: \.login)

    login.send(.view(.emailChanged("blob@example.com")))
    login.send(.view(.passwordChanged(APIClient.fakePassword)))
    login.send(.view(.loginButtonTapped))
    await store.finish()
    #expect(store.state.login.twoFactor?.token == "token-blob@example.com")

    let twoFactor = login.scope(state: \.twoFactor!, action: \.twoFactor.presented)
    twoFactor.send(.view(.codeChanged(APIClient.fakeCode)))
    twoFactor.send(.view(.submitButtonTapped))
    await store.finish()

    expectNoDifference(store.state.user, User(id: 1, name: "blob"))
    #expect(store.state.login.twoFactor == nil)
    #expect(store.state.login.password == "")

    let user = User(id: 1, name: "blob")
    expectNoDifference(
      events.map { "\($0.origin) \($0.path) \($0.action)" },
      [
        "send login \(Action._internal(.login(.view(.emailChanged("blob@example.com")))))",
        "send login \(Action._internal(.login(.view(.passwordChanged("hunter2")))))",
        "send login \(Action._internal(.login(.view(.loginButtonTapped))))",
        "effect(cause: 3) login \(Action._internal(.login(._internal(.loginResponse(.success(.twoFactorRequired(token: "token-blob@example.com")))))))",
        "send login.twoFactor \(Action._internal(.login(._internal(.twoFactor(.presented(.view(.codeChanged("424242"))))))))",
        "send login.twoFactor \(Action._internal(.login(._internal(.twoFactor(.presented(.view(.submitButtonTapped)))))))",
        "effect(cause: 6) login.twoFactor \(Action._internal(.login(._internal(.twoFactor(.presented(._internal(.verifyResponse(.success(user)))))))))",
        "effect(cause: 7) login.twoFactor \(Action._internal(.login(._internal(.twoFactor(.presented(.delegate(.didVerify(user))))))))",
        "effect(cause: 8) login \(Action._internal(.login(.delegate(.didLogin(user)))))",
      ]
    )
  }

  @Test func wrongPasswordShowsAnError() async {
    let store = TestStore(initialState: LoginFeature.State()) {
      LoginFeature()
    } withDependencies: {
      $0.apiClient.login = { _, _ in throw APIError.invalidCredentials }
    }
    await store.send(.view(.emailChanged("blob@example.com"))) {
      $0.email = "blob@example.com"
    }
    await store.send(.view(.passwordChanged("nope"))) {
      $0.password = "nope"
    }
    await store.send(.view(.loginButtonTapped)) {
      $0.isLoading = true
    }
    await store.receive(\._internal.loginResponse, .failure(.invalidCredentials)) {
      $0.isLoading = false
      $0.errorMessage = "Wrong email or password."
    }
  }

  @Test func theSecondFactorLogsTheUserIn() async {
    let user = User(id: 1, name: "blob")
    let store = TestStore(
      initialState: LoginFeature.State(email: "blob@example.com", password: "hunter2")
    ) {
      LoginFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
    }
    await store.send(.view(.loginButtonTapped)) {
      $0.isLoading = true
    }
    await store.receive(\._internal.loginResponse.success) {
      $0.isLoading = false
      $0.twoFactor = TwoFactorFeature.State(token: "token-blob@example.com")
    }
    await store.send(\._internal.twoFactor.presented.view.codeChanged, APIClient.fakeCode) {
      $0.twoFactor?.code = "424242"
    }
    await store.send(\._internal.twoFactor.presented.view.submitButtonTapped) {
      $0.twoFactor?.isVerifying = true
    }
    await store.receive(\._internal.twoFactor.presented._internal.verifyResponse.success, user) {
      $0.twoFactor?.isVerifying = false
    }
    await store.receive(\._internal.twoFactor.presented.delegate.didVerify, user) {
      $0.twoFactor = nil
      $0.password = ""
    }
    await store.receive(\.delegate.didLogin, user)
  }

  @Test func wrongCodeShowsAnError() async {
    let store = TestStore(
      initialState: LoginFeature.State(
        email: "blob@example.com", password: "hunter2",
        twoFactor: TwoFactorFeature.State(token: "token-blob@example.com", code: "000000")
      )
    ) {
      LoginFeature()
    } withDependencies: {
      $0.apiClient.verifyTwoFactor = { _, _ in throw APIError.invalidCode }
    }
    await store.send(\._internal.twoFactor.presented.view.submitButtonTapped) {
      $0.twoFactor?.isVerifying = true
    }
    await store.receive(\._internal.twoFactor.presented._internal.verifyResponse.failure) {
      $0.twoFactor?.isVerifying = false
      $0.twoFactor?.errorMessage = "That code is not right."
    }
  }

  /// The app's view of logging in, asserting only what the app does with the user: the login
  /// feature's own steps are its tests'.
  @Test func theAppSignsInTheUserTheLoginDelegates() async {
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
    }
    store.exhaustivity = .off
    await store.send(\._internal.login.view.emailChanged, "blob@example.com")
    await store.send(\._internal.login.view.passwordChanged, APIClient.fakePassword)
    await store.send(\._internal.login.view.loginButtonTapped)
    await store.receive(\._internal.login._internal.loginResponse.success)
    await store.send(
      \._internal.login._internal.twoFactor.presented.view.codeChanged, APIClient.fakeCode)
    await store.send(\._internal.login._internal.twoFactor.presented.view.submitButtonTapped)
    await store.receive(\._internal.login.delegate.didLogin) {
      $0.user = User(id: 1, name: "blob")
    }
  }

  @Test func theAppReactsOnlyToItsDirectChildsDelegate() async {
    var ownEffects: [[Int]] = []
    let store = makeStore { ownEffects.append($0.ownEffectCounts) }
    store.send(._internal(.login(.view(.emailChanged("a@b.c")))))
    store.send(._internal(.login(.view(.passwordChanged(APIClient.fakePassword)))))
    store.send(._internal(.login(.view(.loginButtonTapped))))
    await store.finish()
    store.send(
      ._internal(
        .login(._internal(.twoFactor(.presented(.view(.codeChanged(APIClient.fakeCode))))))))
    store.send(._internal(.login(._internal(.twoFactor(.presented(.view(.submitButtonTapped)))))))
    await store.finish()
    // Effects come from the feature that owns each action: login's run, two-factor's run, its
    // delegate send, login's delegate send — never from the app.
    expectNoDifference(
      ownEffects,
      [[0, 0], [0, 0], [0, 1], [0, 0], [0, 0, 0], [0, 0, 1], [0, 0, 1], [0, 1, 0], [0, 0]]
    )
  }
}
