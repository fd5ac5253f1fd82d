import CustomDump
import TCATrace
import TCATraceExamples
import Testing
import TestSupport

/// Runs a store with an observer that analyses every action, and collects the leaks.
@MainActor
private final class LeakCollector<State, Action> {
  var analyses: [ActionAnalysis] = []
  var leaks: [Leak] { self.analyses.flatMap(\.leaks) }
}

private struct TapChild: Reducer {
  @CasePathable
  enum Action: Equatable { case view(View), delegate(Never), _internal(Never) }
  @CasePathable
  enum View: Equatable { case tap }
  func reduce(into state: inout Int, action: Action) -> Effect<Action> { .none }
}
private struct TapParent: Reducer {
  @CasePathable
  enum Action: Equatable { case view(Never), delegate(Never), _internal(Internal) }
  @CasePathable
  enum Internal: Equatable { case child(TapChild.Action), log }
  struct State: Equatable { var child = 0 }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \._internal.child) { TapChild() }
    Reduce { _, action in
      if case ._internal(.child(.view(.tap))) = action { return .send(._internal(.log)) }
      return .none
    }
  }
}

/// A parent that counts its child's taps in a property whose name begins with the child's.
private struct TapCountingParent: Reducer {
  struct Child: Reducer {
    func reduce(into state: inout Int, action: TapChild.Action) -> Effect<TapChild.Action> {
      state += 1
      return .none
    }
  }
  typealias Action = TapParent.Action
  struct State: Equatable {
    var child = 0
    var childTaps = 0
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \._internal.child) { Child() }
    Reduce { state, action in
      if case ._internal(.child(.view(.tap))) = action { state.childTaps += 1 }
      return .none
    }
  }
}

@MainActor
@Suite(.hangGuard)
struct LeakRulesTests {
  @Test func leakyExampleBreaksEachRuleExactlyOnce() async {
    let collector = LeakCollector<LeakyParentFeature.State, LeakyParentFeature.Action>()
    let store = Store(
      initialState: LeakyParentFeature.State(),
      observer: { collector.analyses.append(ActionAnalysis($0)) }
    ) {
      LeakyParentFeature()
    }
    await DemoScript.runLeaky { store.send($0) }
    await store.finish()
    expectNoDifference(
      collector.leaks,
      [
        Leak(
          rule: .effectSendsViewAction, feature: "",
          detail: """
            view action refreshButtonTapped of LeakyParentFeature was sent by an effect of \
            action #1; only the view sends view actions
            """
        ),
        Leak(
          rule: .parentReactsToPrivateChildAction, feature: "",
          detail: "changed childButtonTaps in response to view action buttonTapped of child"
        ),
        Leak(
          rule: .ancestorReactsToGrandchildDelegate, feature: "",
          detail: """
            changed grandchildFinished in response to delegate action didFinish of \
            child.grandchild, which only child may react to
            """
        ),
        Leak(
          rule: .viewSendsPrivateAction, feature: "",
          detail: """
            internal action refreshed of LeakyParentFeature was sent from outside the store; \
            only its reducer and effects send internal actions
            """
        ),
      ]
    )
  }

  @Test func wellBehavedExampleAppHasNoLeaks() async {
    let collector = LeakCollector<AppFeature.State, AppFeature.Action>()
    let store = Store(
      initialState: AppFeature.State(),
      observer: { collector.analyses.append(ActionAnalysis($0)) }
    ) {
      AppFeature()
    } withDependencies: {
      DemoScript.dependencies(&$0, latency: .zero)
    }
    await DemoScript.runApp(finish: store.finish) { store.send($0) }
    await store.finish()
    #expect(collector.analyses.count == 26)
    expectNoDifference(collector.leaks, [])
  }

  @Test func aParentEffectInResponseToAChildViewActionIsALeak() {
    let collector = LeakCollector<TapParent.State, TapParent.Action>()
    let store = Store(
      initialState: TapParent.State(),
      observer: { collector.analyses.append(ActionAnalysis($0, rootName: "TapParent")) }
    ) {
      TapParent()
    }
    store.send(._internal(.child(.view(.tap))))
    // The parent's effect is the leak; the action it sends is internal, from an effect: fine.
    expectNoDifference(
      collector.leaks,
      [
        Leak(
          rule: .parentReactsToPrivateChildAction, feature: "",
          detail: "returned an effect in response to view action tap of child"
        )
      ]
    )
  }

  @Test func aChangeBesideTheChildsStateIsALeakEvenWhereItsNameBeginsWithTheChilds() {
    let collector = LeakCollector<TapCountingParent.State, TapCountingParent.Action>()
    let store = Store(
      initialState: TapCountingParent.State(),
      observer: { collector.analyses.append(ActionAnalysis($0, rootName: "TapCountingParent")) }
    ) {
      TapCountingParent()
    }
    store.send(._internal(.child(.view(.tap))))
    #expect(store.state == TapCountingParent.State(child: 1, childTaps: 1))
    // `child` is the child's own state; `childTaps` is not within it.
    expectNoDifference(
      collector.leaks,
      [
        Leak(
          rule: .parentReactsToPrivateChildAction, feature: "",
          detail: "changed childTaps in response to view action tap of child"
        )
      ]
    )
  }

  @Test func plainActionEnumsNeverLeak() {
    let collector = LeakCollector<Int, String>()
    let store = Store(
      initialState: 0,
      observer: { collector.analyses.append(ActionAnalysis($0)) }
    ) {
      Reduce<Int, String> { state, _ in
        state += 1
        return .none
      }
    }
    store.send("anything")
    #expect(collector.analyses.first?.classification.category == .unclassified)
    expectNoDifference(collector.leaks, [])
  }
}
