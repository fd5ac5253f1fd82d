import ActionObservation
import TestSupport
import Testing

private struct Parent {
  var login = Login()
  var todos: [Int] = []
  var destination: Login?

  struct Login {
    var twoFactor: Int?
  }
}

@Suite(.hangGuard)
struct ActionRouteTests {
  @Test func aRouteReadsAsTheStatePathFromTheRoot() {
    let route = [
      ActionRoute(keyPath: \Parent.login, kind: .scope),
      ActionRoute(keyPath: \Parent.Login.twoFactor, kind: .optional),
    ]
    #expect(route.statePath == "login.twoFactor")
    #expect([ActionRoute]().statePath == "")
  }

  @Test func anElementsStepNamesItsIDAndANameStandsForTheKeyPath() {
    #expect(
      ActionRoute(keyPath: \Parent.todos, kind: .element(id: .init(3))).statePath == "todos[id: 3]")
    #expect(
      ActionRoute(keyPath: \Parent.todos, kind: .element(id: .init("a"))).statePath
        == #"todos[id: "a"]"#)
    #expect(
      ActionRoute(keyPath: \Parent.destination, kind: .optional, name: "settings").description
        == "settings"
    )
  }

  @Test func theRouteAndEachReducersOwnEffectsAreCollected() {
    // NB: The root returns 4 effects in all; its child `login` 3, of which its own child
    // `twoFactor` returned 1.
    let collected = collectingActionRoute(
      { () -> Int in
        let login = ActionRouting.route(
          ActionRoute(keyPath: \Parent.login, kind: .scope), effectCount: { $0 }
        ) { () -> Int in
          let twoFactor = ActionRouting.route(
            ActionRoute(keyPath: \Parent.Login.twoFactor, kind: .optional), effectCount: { $0 }
          ) { 1 }
          return twoFactor + 2
        }
        return login + 1
      }, effectCount: { $0 })
    #expect(collected.result == 4)
    #expect(collected.route.statePath == "login.twoFactor")
    #expect(collected.ownEffectCounts == [1, 2, 1])
  }

  @Test func aShallowerChildAfterADeeperOneLeavesTheDeeperRoute() {
    let collected = collectingActionRoute(
      { () -> Int in
        ActionRouting.route(
          ActionRoute(keyPath: \Parent.login, kind: .scope), effectCount: { $0 }
        ) {
          ActionRouting.route(
            ActionRoute(keyPath: \Parent.Login.twoFactor, kind: .optional), effectCount: { $0 }
          ) { 0 }
        }
          + ActionRouting.route(
            ActionRoute(keyPath: \Parent.todos, kind: .element(id: .init(2))), effectCount: { $0 }
          ) { 0 }
      }, effectCount: { $0 })
    #expect(collected.route.statePath == "login.twoFactor")
  }

  @Test func withoutACollectorARouteOnlyRunsItsReducer() {
    #expect(ActionRouting.collector == nil)
    var ran = false
    let result = ActionRouting.route(
      ActionRoute(keyPath: \Parent.login, kind: .scope), effectCount: { $0 }
    ) { () -> Int in
      ran = true
      return 4
    }
    #expect(ran)
    #expect(result == 4)
  }

  @Test func aResetCollectorForgetsTheLastRoute() {
    let collector = RouteCollector()
    let result = ActionRouting.withCollector(collector) {
      ActionRouting.route(ActionRoute(keyPath: \Parent.login, kind: .scope), effectCount: { $0 }) {
        5
      }
    }
    #expect(result == 5)
    #expect(collector.route.statePath == "login")
    collector.reset()
    #expect(collector.route.isEmpty)
    #expect(collector.ownEffectCounts(rootTotal: 2) == [2])
  }
}
