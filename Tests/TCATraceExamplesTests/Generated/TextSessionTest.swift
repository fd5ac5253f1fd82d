// Generated from session 1 (texts) of texts.db by:
//   tcatrace test texts.db --session 1 --name replaysTextSession --import TCATraceExamples
// On Linux, link IssueReportingTestSupport into its test target, or a failed assertion
// will not fail it.

import Composable
import Foundation
import Testing
@testable import TCATraceExamples

@MainActor
@Test
func replaysTextSession() async throws {
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
  } withDependencies: { dependencies in
    // The trace does not know the dependencies the effects used: set them here, as in
    // `dependencies.continuousClock = ImmediateClock()`.
  }

  await store.send(._internal(.login(.view(.emailChanged("e\u{301}milie@example.com"))))) {
    $0.login.email = "e\u{301}milie@example.com"
  }

  await store.send(._internal(.todos(.view(.addTodoButtonTapped(title: "e\u{301}milie@example.com"))))) {
    $0.todos.todos[id: 100] = .init(id: 100, title: "e\u{301}milie@example.com", isComplete: false)
    $0.todos.nextID = 101
  }

  await store.send(._internal(.login(.view(.emailChanged("\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467} family"))))) {
    $0.login.email = "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467} family"
  }

  await store.send(._internal(.todos(.view(.addTodoButtonTapped(title: "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467} family"))))) {
    $0.todos.todos.insert(
      .init(id: 101, title: "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467} family", isComplete: false),
      at: 0
    )
    $0.todos.nextID = 102
  }

  await store.send(._internal(.login(.view(.emailChanged("say \"hi\" \\ back"))))) {
    $0.login.email = "say \"hi\" \\ back"
  }

  await store.send(._internal(.todos(.view(.addTodoButtonTapped(title: "say \"hi\" \\ back"))))) {
    $0.todos.todos.insert(.init(id: 102, title: "say \"hi\" \\ back", isComplete: false), at: 0)
    $0.todos.nextID = 103
  }

  await store.send(._internal(.login(.view(.emailChanged("raw #\"quoted\"# and \\#(x) and \\(y)"))))) {
    $0.login.email = "raw #\"quoted\"# and \\#(x) and \\(y)"
  }

  await store.send(._internal(.todos(.view(.addTodoButtonTapped(title: "raw #\"quoted\"# and \\#(x) and \\(y)"))))) {
    $0.todos.todos.insert(
      .init(id: 103, title: "raw #\"quoted\"# and \\#(x) and \\(y)", isComplete: false),
      at: 0
    )
    $0.todos.nextID = 104
  }

  await store.send(
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
                    "_0": "three \"\"\" quotes"
                  }
                }
              }
            }
          }
        }
      }
      """#
    )
  ) {
    $0.login.email = "three \"\"\" quotes"
  }

  await store.send(
    try decoded(
      AppFeature.Action.self,
      #"""
      {
        "_internal": {
          "_0": {
            "todos": {
              "view": {
                "_0": {
                  "addTodoButtonTapped": {
                    "title": "three \"\"\" quotes"
                  }
                }
              }
            }
          }
        }
      }
      """#
    )
  ) {
    $0.todos.todos.insert(.init(id: 104, title: "three \"\"\" quotes", isComplete: false), at: 0)
    $0.todos.nextID = 105
  }

  await store.send(
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
                    "_0": "two\nlines"
                  }
                }
              }
            }
          }
        }
      }
      """#
    )
  ) {
    $0.login.email = "two\nlines"
  }

  await store.send(
    try decoded(
      AppFeature.Action.self,
      #"""
      {
        "_internal": {
          "_0": {
            "todos": {
              "view": {
                "_0": {
                  "addTodoButtonTapped": {
                    "title": "two\nlines"
                  }
                }
              }
            }
          }
        }
      }
      """#
    )
  ) {
    $0.todos.todos.insert(.init(id: 105, title: "two\nlines", isComplete: false), at: 0)
    $0.todos.nextID = 106
  }

  await store.send(._internal(.login(.view(.emailChanged("\u{202E}reversed\u{202C} and \u{9B}C1"))))) {
    $0.login.email = "\u{202E}reversed\u{202C} and \u{9B}C1"
  }

  await store.send(._internal(.todos(.view(.addTodoButtonTapped(title: "\u{202E}reversed\u{202C} and \u{9B}C1"))))) {
    $0.todos.todos.insert(
      .init(id: 106, title: "\u{202E}reversed\u{202C} and \u{9B}C1", isComplete: false),
      at: 0
    )
    $0.todos.nextID = 107
  }
}

/// A value from the JSON the trace recorded of it.
private func decoded<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
  try JSONDecoder().decode(type, from: Data(json.utf8))
}
