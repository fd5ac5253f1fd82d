import CustomDump
import TCATraceExamples
import Testing
import TestSupport

@MainActor
@Suite(.hangGuard)
struct DemoScriptTests {
  @Test func appSessionEndsLoggedInWithTheTodosAndSettingsItChanged() async {
    var count = 0
    let store = Store(
      initialState: AppFeature.State(),
      observer: { (_: ActionEvent<AppFeature.State, AppFeature.Action>) in count += 1 }
    ) {
      AppFeature()
    } withDependencies: {
      DemoScript.dependencies(&$0, latency: .zero)
    }
    await DemoScript.runApp(finish: store.finish) { store.send($0) }
    await store.finish()
    expectNoDifference(
      store.state,
      AppFeature.State(
        login: LoginFeature.State(email: "blob@example.com"),
        todos: TodosFeature.State(
          todos: [TodoRowFeature.State(id: 1, title: "Buy oat milk")],
          secondsOnScreen: 3,
          nextID: 101
        ),
        user: User(id: 1, name: "Blob"),
        notificationsEnabled: true
      )
    )
    // 9 to log in, 12 for the todos (3 timer ticks, the alert), 5 for the settings.
    #expect(count == 26)
  }

  @Test func leakySessionRunsEachLeakOnce() async {
    let store = Store(initialState: LeakyParentFeature.State()) { LeakyParentFeature() }
    await DemoScript.runLeaky { store.send($0) }
    expectNoDifference(
      store.state,
      LeakyParentFeature.State(
        child: LeakyChildFeature.State(
          taps: 1,
          grandchild: LeakyGrandchildFeature.State(isFinished: true),
          grandchildDone: true
        ),
        childButtonTaps: 1,
        grandchildFinished: true,
        refreshCount: 2
      )
    )
  }
}
