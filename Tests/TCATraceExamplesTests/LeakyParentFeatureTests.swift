import CustomDump
import TCATraceExamples
import Testing
import TestSupport

/// The bad example does what its documentation says: each boundary rule is broken once.
@MainActor
@Suite(.hangGuard)
struct LeakyParentFeatureTests {
  @Test func parentReactsToTheChildsViewAction() {
    let store = Store(initialState: LeakyParentFeature.State()) { LeakyParentFeature() }
    store.send(._internal(.child(.view(.buttonTapped))))
    #expect(store.state.child.taps == 1)
    #expect(store.state.childButtonTaps == 1)
  }

  @Test func parentReactsToTheGrandchildsDelegate() {
    var paths: [String] = []
    let store = Store(
      initialState: LeakyParentFeature.State(),
      observer: { paths.append($0.route.statePath) }
    ) {
      LeakyParentFeature()
    }
    store.send(._internal(.child(._internal(.grandchild(.view(.finishButtonTapped))))))
    #expect(store.state.child.grandchild.isFinished)
    #expect(store.state.child.grandchildDone)
    #expect(store.state.grandchildFinished)
    expectNoDifference(paths, ["child.grandchild", "child.grandchild"])
  }

  @Test func anEffectSendsAViewAction() async throws {
    var origins: [(LeakyParentFeature.Action, ActionOrigin)] = []
    let store = Store(
      initialState: LeakyParentFeature.State(),
      observer: { origins.append(($0.action, $0.origin)) }
    ) {
      LeakyParentFeature()
    }
    await store.send(.view(.onAppear)).finish()
    #expect(store.state.refreshCount == 1)
    try #require(origins.count == 3)
    #expect(origins[1].0 == .view(.refreshButtonTapped))
    #expect(origins[1].1 == .effect(cause: 1))
  }

  @Test func aCallerSendsAnInternalActionFromOutside() {
    var origins: [ActionOrigin] = []
    let store = Store(
      initialState: LeakyParentFeature.State(),
      observer: { origins.append($0.origin) }
    ) {
      LeakyParentFeature()
    }
    // The fourth leak is this call: `_internal` is private to the feature.
    store.send(._internal(.refreshed))
    #expect(store.state.refreshCount == 1)
    expectNoDifference(origins, [.send])
  }
}
