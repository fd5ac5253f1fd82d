import Composable
import CustomDump
import Testing
import TestSupport

@MainActor
@Suite(.hangGuard)
struct ScopeTests {
  @Test func scopedChildActionChangesOnlyTheChildState() {
    let store = Store(initialState: Parent.State()) { Parent() }
    store.send(.counter(.increment))
    expectNoDifference(store.state, Parent.State(counter: Counter.State(count: 1)))
  }

  @Test func childEffectsAreMappedBackIntoParentActions() {
    let store = Store(initialState: Parent.State()) { Parent() }
    store.send(.counter(.recordThenReportDone(7)))
    expectNoDifference(
      store.state,
      Parent.State(counter: Counter.State(log: [7]), parentLog: ["counter done"])
    )
  }

  @Test func ifLetRunsTheChildWhilePresent() {
    let store = Store(initialState: Parent.State()) { Parent() }
    store.send(.presentSheet)
    store.send(.sheet(.presented(.increment)))
    expectNoDifference(store.state.sheet, Counter.State(count: 1))
    expectNoDifference(store.state.counter, Counter.State())
  }

  @Test func ifLetDismissSetsTheChildStateToNil() {
    let store = Store(initialState: Parent.State()) { Parent() }
    store.send(.presentSheet)
    store.send(.sheet(.dismiss))
    #expect(store.state.sheet == nil)
  }

  @Test func ifLetReportsAChildActionWhileNil() {
    let store = Store(initialState: Parent.State()) { Parent() }
    withKnownIssue {
      store.send(.sheet(.presented(.increment)))
    } matching: { issue in
      issue.description.contains("received a child action when child state was \"nil\"")
    }
    expectNoDifference(store.state, Parent.State())
  }

  @Test func forEachRoutesToTheElementWithTheId() {
    let store = Store(
      initialState: Parent.State(rows: [Parent.Row(id: 1), Parent.Row(id: 2)])
    ) { Parent() }
    store.send(.rows(.element(id: 2, action: .increment)))
    expectNoDifference(
      store.state.rows,
      [Parent.Row(id: 1), Parent.Row(id: 2, counter: Counter.State(count: 1))]
    )
  }

  @Test func forEachReportsAnActionForAMissingElement() {
    let store = Store(initialState: Parent.State(rows: [Parent.Row(id: 1)])) { Parent() }
    withKnownIssue {
      store.send(.rows(.element(id: 9, action: .increment)))
    } matching: { issue in
      issue.description.contains("received an action for a missing element")
    }
    expectNoDifference(store.state.rows, [Parent.Row(id: 1)])
  }
}
