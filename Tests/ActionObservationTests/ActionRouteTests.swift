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

  @Test func aResetCollectorForgetsWhatFeaturesReported() {
    let collector = RouteCollector()
    collector.report(ownEffects: 2, actionType: ObjectIdentifier(Int.self))
    collector.report(totalEffects: 3, actionType: ObjectIdentifier(String.self))
    #expect(collector.ownEffectsByActionType == [ObjectIdentifier(Int.self): 2])
    #expect(collector.totalEffectsByActionType == [ObjectIdentifier(String.self): 3])
    collector.reset()
    #expect(collector.ownEffectsByActionType.isEmpty)
    #expect(collector.totalEffectsByActionType.isEmpty)
  }

  @Test func aReusableCollectorIsTakenInTurnAndEmptiedForEachCall() {
    let collectors = ReusableRouteCollector()
    let first = collectors.take()
    first.report(ownEffects: 1, actionType: ObjectIdentifier(Int.self))
    _ = ActionRouting.withCollector(first) {
      ActionRouting.route(ActionRoute(keyPath: \Parent.login, kind: .scope), effectCount: { $0 }) {
        0
      }
    }
    // NB: A call made while the collector is taken (a reducer's call that runs another) gets
    // its own, empty, which is not kept.
    let nested = collectors.take()
    #expect(nested !== first)
    #expect(nested.route.isEmpty && nested.ownEffectsByActionType.isEmpty)
    collectors.giveBack(nested)
    #expect(collectors.take() !== first)
    collectors.giveBack(first)
    let again = collectors.take()
    #expect(again === first)
    #expect(again.route.isEmpty)
    #expect(again.ownEffectsByActionType.isEmpty)
    collectors.giveBack(again)
  }

  @Test func aReusableCollectorTakenOnManyThreadsIsNeverSharedByTwo() async {
    final class Feature: Sendable {}
    let collectors = ReusableRouteCollector()
    let shared = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          // NB: Each task reports for a type of its own: a collector two calls held at once
          // would hold both reports, or lose one.
          let feature = Feature()
          let mine = ObjectIdentifier(feature)
          var sharedTurns = 0
          for turn in 0..<500 {
            let collector = collectors.take()
            collector.report(ownEffects: turn, actionType: mine)
            for _ in 0..<50 where collector.ownEffectsByActionType != [mine: turn] {
              sharedTurns += 1
              break
            }
            collectors.giveBack(collector)
          }
          return sharedTurns
        }
      }
      return await group.reduce(0, +)
    }
    #expect(shared == 0)
  }
}
