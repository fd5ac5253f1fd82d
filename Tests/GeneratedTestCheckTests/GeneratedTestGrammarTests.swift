import Foundation
import GeneratedTestCheck
import Testing
import TestSupport

/// Issue #40: the grammar `tcatrace test` checks its output against, on Swift's own parser.
@Suite(.hangGuard)
struct GeneratedTestGrammarTests {
  /// A generated test around `body`, the lines of its function after the store.
  static func test(_ body: String) -> String {
    """
    // Generated from session 1 (app) of demo.db by:
    //   tcatrace test demo.db --session 1

    import Composable
    import Foundation
    import Testing
    @testable import App

    @MainActor
    @Test
    func session1() async throws {
      let store = TestStore(initialState: <#initial state#>) {
        AppFeature()
      } withDependencies: { dependencies in
        // Set them here.
      }

    \(body)
    }

    /// A value from the JSON the trace recorded of it.
    \(GeneratedTestGrammar.decodedFunction)

    """
  }

  @Test(arguments: [
    "DemoAppSessionTest.swift", "TextSessionTest.swift", "CraftedSessionTest.swift",
  ])
  func theTestsKeptInTheSuiteAreInTheGrammar(name: String) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .appendingPathComponent("TCATraceExamplesTests/Generated/\(name)")
    // NB: `--dependencies` is the user's code, not the trace's: `tcatrace test` checks the test
    // with a placeholder in its place.
    let source = try String(contentsOf: url, encoding: .utf8)
      .replacing("    DemoScript.immediateDependencies(&$0)\n", with: "    <#dependencies#>\n")
    #expect(GeneratedTestGrammar.violation(in: source) == nil)
  }

  @Test func whatTheGeneratorWritesIsInIt() {
    let body = ##"""
        await store.send(._internal(.login(.view(.emailChanged("caf\u{E9} \"q\" \\"))))) {
          $0.login.email = "caf\u{E9} \"q\" \\"
          $0.todos.todos[id: 1]?.title = "Milk"
          $0.path[id: 0, case: \.settings]?.name = <#redacted#>
          $0.todos.todos.insert(.init(id: 100, title: "a", isComplete: false), at: 0)
          $0.values = [1, -2, 3.5, 1e+20]
          $0.lookup = ["a": .some(.init(x: nil)), "b": .none]
          $0.pair = (a: true, b: false)
          $0.alert = AlertState {
            TextState("Clear?")
          } actions: {
            ButtonState(role: .destructive, action: .send(.confirm)) {
              TextState("Clear")
            }
          }
        }
        await store.send(.rows(.element(id: UUID(0), action: .tapped))) {
          $0.rows[id: UUID(0)]?.rows[id: UUID(1)] = .init(id: UUID(1), name: "")
          $0.modify(\.signIn) { $0.email = "a" }
          $0.destination?.modify(\.book) {
            $0.tags = [UUID(uuidString: "DEADBEEF-0000-0000-0000-000000000001")!]
          }
        }
        await store.receive(\._internal.rows[id: 100].delegate.done)
        await store.send(._internal(.path(.element(id: 0, action: .settings(.view(.binding(.set(\.name, "Blob"))))))))
        try await store.withExhaustivity(.off) {
          _ = await store.send(
            try decoded(
              AppFeature.Action.self,
              #"""
              {"view": {"_0": {"tapped": {}}}}
              """#
            )
          )
        }
      """##
    #expect(GeneratedTestGrammar.violation(in: Self.test(body)) == nil)
  }

  /// The three crafted traces of the issue, as the generator before it wrote them: each is a
  /// call the grammar refuses, wherever the compiler reads a string's end.
  @Test func theCraftedTracesAsTheOldGeneratorWroteThemAreRefused() {
    for (line, expected) in [
      (
        "  $0.login.email = \"blob@example.com\u{600}\" + { Foundation.exit(7); return \"\" }() + \"\u{200C}\"",
        "line 19: an assertion the generator does not write"
      ),
      (
        #"  $0.login.email = String(describing: Process.launchedProcess(launchPath: "/bin/sh", arguments: ["-c", "exit 7"]))"#,
        "line 19: a call the generator does not write"
      ),
      (
        "  $0.login.isLoading = \"\u{600}\".isEmpty; print(42); exit(7) //\"",
        "line 19: a value the generator does not write"
      ),
    ] {
      let source = Self.test("  await store.send(.view(.tapped)) {\n  \(line)\n  }")
      let violation = GeneratedTestGrammar.violation(in: source)
      #expect(
        violation.map { String($0.description.prefix(expected.count)) } == expected, "\(line)")
    }
  }

  @Test func anythingElseIsRefused() {
    for body in [
      #"  await store.send(.tapped("\(exit(7))"))"#,
      "  await store.send(Todo(id: 1))",
      "  await store.send(.tapped) {\n    $0.x = Foo.bar\n  }",
      "  await store.send(.tapped) {\n    $0.x = .init(1)\n  }",
      "  await store.send(.tapped) {\n    $0.x = .bar.baz\n  }",
      "  await store.send(.tapped) {\n    $0.x = #\"raw\"#\n  }",
      "  await store.send(.tapped) {\n    exit(7)\n  }",
      "  await store.send(.tapped) {\n    $0.x = { 1 }()\n  }",
      "  await store.send(.tapped) {\n    $0.run().x = 1\n  }",
      "  await store.finish()",
      "  try await store.send(.tapped)",
      "  exit(7)",
      "  let x = 1",
      "  await store.receive(\\.a.b.count())",
      "#sourceLocation(file: \"a\", line: 1)\n  await store.send(.tapped)",
      "  await store.send(.tapped)\n}\nfunc more() {",
      "  await store.send(.tapped)\n  await store.send(.tapped(\"\u{1B}\"))",
      // A task is discarded only in a `withExhaustivity`, and only a `send`'s.
      "  _ = await store.send(.tapped)",
      "  await store.withExhaustivity(.off) {\n    _ = await store.receive(\\.tapped)\n  }",
      "  await store.withExhaustivity(.off) {\n    _ = exit(7)\n  }",
      "  await store.withExhaustivity(.off) {\n    x = await store.send(.tapped)\n  }",
      "  await store.withExhaustivity(.off) {\n    _ = await store.send(.tapped) + 1\n  }",
      // A UUID only as the generator writes one.
      "  await store.send(.tapped) {\n    $0.id = UUID(exit(7))\n  }",
      "  await store.send(.tapped) {\n    $0.id = UUID(uuidString: \"\\(exit(7))\")!\n  }",
      "  await store.send(.tapped) {\n    $0.id = UUID(uuidString: \"not a uuid\")!\n  }",
      "  await store.send(.tapped) {\n    $0.id = UUID(uuidString: \"DEADBEEF\")\n  }",
      "  await store.send(.tapped) {\n    $0.id = UUID(1)!\n  }",
      // A case's `modify` holds one change, and no other closure.
      "  await store.send(.tapped) {\n    $0.modify(\\.a) { exit(7) }\n  }",
      "  await store.send(.tapped) {\n    $0.modify(\\.a.b) { $0.x = 1 }\n  }",
      "  await store.send(.tapped) {\n    $0.modify(\\.a) { $0.modify(\\.b) { $0.x = 1 } }\n  }",
      "  await store.send(.tapped) {\n    $0.modify(\\.a) { x in x.y = 1 }\n  }",
    ] {
      #expect(GeneratedTestGrammar.violation(in: Self.test(body)) != nil, "\(body)")
    }
  }
}
