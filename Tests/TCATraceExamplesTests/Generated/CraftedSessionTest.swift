// Generated from session 1 (app) of crafted.db by:
//   tcatrace test crafted.db --session 1 --name replaysCraftedSession --import TCATraceExamples --dependencies 'DemoScript.immediateDependencies(&$0)'
// On Linux, link IssueReportingTestSupport into its test target, or a failed assertion
// will not fail it.

import Composable
import Foundation
import Testing
@testable import TCATraceExamples

@MainActor
@Test
func replaysCraftedSession() async throws {
  let initialState = try decoded(
    AppFeature.State.self,
    #"""
    {
      "_$observationRegistrar": {},
      "login": {
        "_$observationRegistrar": {},
        "email": "",
        "isLoading": false,
        "password": ""
      },
      "notificationsEnabled": false,
      "path": [],
      "todos": {
        "isConfirmingClearCompleted": false,
        "isLoading": false,
        "nextID": 100,
        "secondsOnScreen": 0,
        "todos": []
      }
    }
    """#
  )
  let store = TestStore(initialState: initialState) {
    AppFeature()
  } withDependencies: {
    DemoScript.immediateDependencies(&$0)
  }

  // #1: not asserted, as tcatrace cannot write it in Swift: login.email.
  try await store.withExhaustivity(.off) {
    _ = await store.send(
      try decoded(
        AppFeature.Action.self,
        #"""
        {
          "_internal": {
            "_0": {
              "login": {
                "view": {
                  "_0": {
                    "emailChanged": {
                      "_0": "blob@example.com"
                    }
                  }
                }
              }
            }
          }
        }
        """#
      )
    )
  }

  await store.send(._internal(.login(.view(.passwordChanged("hunter2"))))) {
    $0.login.password = "hunter2"
  }

  // #3: not asserted, as tcatrace cannot write it in Swift: login.isLoading.
  await store.withExhaustivity(.off) {
    _ = await store.send(._internal(.login(.view(.loginButtonTapped))))
  }

  await store.receive(\._internal.login._internal.loginResponse) {
    $0.login.isLoading = false
    $0.login.twoFactor = .init(
      token: "token-blob@example.com",
      code: "",
      isVerifying: false,
      errorMessage: nil
    )
  }

  await store.send(._internal(.login(._internal(.twoFactor(.presented(.view(.codeChanged("424242")))))))) {
    $0.login.twoFactor?.code = "424242"
  }

  await store.send(._internal(.login(._internal(.twoFactor(.presented(.view(.submitButtonTapped))))))) {
    $0.login.twoFactor?.isVerifying = true
  }

  await store.receive(\._internal.login._internal.twoFactor.presented._internal.verifyResponse) {
    $0.login.twoFactor?.isVerifying = false
  }

  await store.receive(\._internal.login._internal.twoFactor.presented.delegate.didVerify) {
    $0.login.twoFactor = nil
    $0.login.password = ""
  }

  await store.receive(\._internal.login.delegate.didLogin) {
    $0.user = .init(id: 1, name: "blob")
  }

  await store.send(._internal(.todos(.view(.onAppear)))) {
    $0.todos.isLoading = true
  }

  await store.receive(\._internal.todos._internal.todosLoaded) {
    $0.todos.todos[id: 1] = .init(id: 1, title: "Buy milk", isComplete: false)
    $0.todos.todos[id: 2] = .init(id: 2, title: "Write the trace reader", isComplete: true)
    $0.todos.isLoading = false
  }

  await store.receive(\._internal.todos._internal.timerTicked) {
    $0.todos.secondsOnScreen = 1
  }

  await store.receive(\._internal.todos._internal.timerTicked) {
    $0.todos.secondsOnScreen = 2
  }

  await store.send(._internal(.todos(.view(.addTodoButtonTapped(title: "Record a trace"))))) {
    $0.todos.todos.insert(.init(id: 100, title: "Record a trace", isComplete: false), at: 0)
    $0.todos.nextID = 101
  }

  await store.send(._internal(.todos(._internal(.rows(.element(id: 100, action: .view(.toggleCompleted))))))) {
    $0.todos.todos[id: 100]?.isComplete = true
  }

  await store.receive(\._internal.todos._internal.rows[id: 100].delegate.completionChanged) {
    $0.todos.todos = [
      .init(id: 1, title: "Buy milk", isComplete: false),
      .init(id: 100, title: "Record a trace", isComplete: true),
      .init(id: 2, title: "Write the trace reader", isComplete: true),
    ]
  }

  // #17: not asserted, as tcatrace cannot write it in Swift: todos.todos[id: 1].title.
  await store.withExhaustivity(.off) {
    _ = await store.send(._internal(.todos(._internal(.rows(.element(id: 1, action: .view(.titleChanged("Buy oat milk"))))))))
  }

  await store.send(._internal(.todos(.view(.clearCompletedButtonTapped)))) {
    $0.todos.alert = AlertState {
      TextState("Clear 2 completed todos?")
    } actions: {
      ButtonState(role: .destructive, action: .send(.confirmClearCompleted)) {
        TextState("Clear")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    }
  }

  await store.send(._internal(.todos(.view(.alert(.presented(.confirmClearCompleted)))))) {
    $0.todos.todos[id: 100] = nil
    $0.todos.todos[id: 2] = nil
    $0.todos.alert = nil
  }

  await store.send(._internal(.todos(.view(.onDisappear))))

  await store.send(.view(.settingsButtonTapped)) {
    $0.path[id: 0] = .settings(.init(displayName: "blob", notificationsEnabled: false))
  }

  await store.send(._internal(.path(.element(id: 0, action: .settings(.view(.binding(.set(\.displayName, "Blob")))))))) {
    $0.path[id: 0, case: \.settings]?.displayName = "Blob"
  }

  await store.send(._internal(.path(.element(id: 0, action: .settings(.view(.binding(.set(\.notificationsEnabled, true)))))))) {
    $0.path[id: 0, case: \.settings]?.notificationsEnabled = true
  }

  await store.send(._internal(.path(.element(id: 0, action: .settings(.view(.saveButtonTapped))))))

  await store.receive(\._internal.path[id: 0].settings.delegate.didSave) {
    $0.path[id: 0] = nil
    $0.user?.name = "Blob"
    $0.notificationsEnabled = true
  }
}

/// A value from the JSON the trace recorded of it.
private func decoded<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
  try JSONDecoder().decode(type, from: Data(json.utf8))
}
