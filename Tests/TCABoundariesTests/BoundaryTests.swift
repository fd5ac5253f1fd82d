import CustomDump
import TCABoundaries
import Testing
import TestSupport

@MainActor
@Suite(.hangGuard)
struct BoundaryTests {
  typealias Action = UserSettingsFeature.Action

  @Test func enumCasesWitnessTheProtocol() {
    func embed<A: TCAFeatureAction>(_: A.Type, view: A.ViewAction) -> A { A.view(view) }
    #expect(embed(Action.self, view: .saveTapped) == .view(.saveTapped))
  }

  @Test func boundaryTakesAnActionApartByCategory() {
    guard case .view(.saveTapped) = Action.view(.saveTapped).boundary else {
      Issue.record("expected a view action")
      return
    }
    guard case ._internal(.saved) = Action._internal(.saved).boundary else {
      Issue.record("expected an internal action")
      return
    }
    guard case .delegate(.didSave(dayEnd: 9)) = Action.delegate(.didSave(dayEnd: 9)).boundary
    else {
      Issue.record("expected a delegate action")
      return
    }
  }

  @Test func boundingReducerDispatchesEachCategoryToItsFunction() {
    var state = UserSettingsFeature.State()
    _ = UserSettingsFeature().reduce(into: &state, action: .view(.onDayEndChanged(20)))
    _ = UserSettingsFeature().reduce(into: &state, action: ._internal(.saved))
    _ = UserSettingsFeature().reduce(into: &state, action: .delegate(.didSave(dayEnd: 20)))
    expectNoDifference(
      state,
      UserSettingsFeature.State(
        dayEnd: 20,
        log: ["view onDayEndChanged(20)", "internal saved"]
      )
    )
  }

  @Test func composedBoundingReducerRunsItsCoreAndItsChildren() {
    var actions: [SettingsHostFeature.Action] = []
    let store = Store(
      initialState: SettingsHostFeature.State(),
      observer: { actions.append($0.action) }
    ) {
      SettingsHostFeature()
    }
    store.send(._internal(.userSettings(.view(.onDayEndChanged(21)))))
    store.send(._internal(.userSettings(.view(.saveTapped))))
    expectNoDifference(store.state.savedDayEnds, [21])
    expectNoDifference(
      actions,
      [
        ._internal(.userSettings(.view(.onDayEndChanged(21)))),
        ._internal(.userSettings(.view(.saveTapped))),
        ._internal(.userSettings(._internal(.saved))),
        ._internal(.userSettings(.delegate(.didSave(dayEnd: 21)))),
      ]
    )
  }

  @Test func ifLetConvenienceTakesAnInternalCasePath() {
    let store = Store(initialState: SettingsHostFeature.State()) { SettingsHostFeature() }
    store.send(.view(.openSheetTapped))
    store.send(._internal(.sheet(.presented(.view(.onDayEndChanged(8))))))
    store.send(._internal(.sheet(.presented(.view(.saveTapped)))))
    #expect(store.state.sheet?.dayEnd == 8)
    expectNoDifference(store.state.savedDayEnds, [8])
    store.send(._internal(.sheet(.dismiss)))
    #expect(store.state.sheet == nil)
  }

  @Test func forEachConvenienceTakesAnInternalCasePath() {
    let store = Store(
      initialState: SettingsHostFeature.State(rows: [.init(id: 1), .init(id: 2)])
    ) {
      SettingsHostFeature()
    }
    store.send(._internal(.rows(.element(id: 2, action: .view(.onDayEndChanged(6))))))
    #expect(store.state.rows[id: 2]?.settings.dayEnd == 6)
    #expect(store.state.rows[id: 1]?.settings.dayEnd == 17)
  }

  @Test func storeScopeConvenienceTakesAnInternalCasePath() {
    let store = Store(initialState: SettingsHostFeature.State()) { SettingsHostFeature() }
    let settings = store.scope(state: \.settings, action: \.userSettings)
    settings.send(.view(.onDayEndChanged(23)))
    #expect(settings.state.dayEnd == 23)
    #expect(store.state.settings.dayEnd == 23)
  }
}
