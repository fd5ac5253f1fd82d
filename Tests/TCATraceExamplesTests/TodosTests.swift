import CustomDump
import TCATraceExamples
import Testing
import TestSupport

@MainActor
@Suite(.hangGuard)
struct TodosTests {
  let todos = [
    Todo(id: 1, title: "Buy milk"),
    Todo(id: 2, title: "Write the trace reader", isComplete: true),
  ]

  @Test func onAppearLoadsTodosThenTheTimerCountsSeconds() async {
    let clock = TestClock()
    let store = TestStore(initialState: TodosFeature.State()) {
      TodosFeature()
    } withDependencies: {
      $0.apiClient.fetchTodos = { [todos] in todos }
      $0.continuousClock = clock
      $0.tickClient = .every(.seconds(1))
    }

    let onAppear = await store.send(.view(.onAppear)) {
      $0.isLoading = true
    }
    await store.receive(\._internal.todosLoaded.success) {
      $0.isLoading = false
      $0.todos = [
        TodoRowFeature.State(id: 1, title: "Buy milk"),
        TodoRowFeature.State(id: 2, title: "Write the trace reader", isComplete: true),
      ]
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\._internal.timerTicked) {
      $0.secondsOnScreen = 1
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\._internal.timerTicked) {
      $0.secondsOnScreen = 2
    }
    await store.send(.view(.onDisappear))
    // NB: The effects end once their cancellation runs, which a loaded machine can delay past
    // the default second (a `.ci/run` here failed so, beside the other suites): a deadline
    // sized for such a machine, as TCA's message advises.
    await onAppear.finish(timeout: .seconds(60))
  }

  @Test func aFailedLoadStopsLoadingAndTheTimerStillRuns() async {
    let clock = TestClock()
    let store = TestStore(initialState: TodosFeature.State()) {
      TodosFeature()
    } withDependencies: {
      $0.apiClient.fetchTodos = { throw APIError.offline }
      $0.continuousClock = clock
      $0.tickClient = .every(.seconds(1))
    }
    await store.send(.view(.onAppear)) {
      $0.isLoading = true
    }
    await store.receive(\._internal.todosLoaded, .failure(.offline)) {
      $0.isLoading = false
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\._internal.timerTicked) {
      $0.secondsOnScreen = 1
    }
    await store.send(.view(.onDisappear))
  }

  @Test func onDisappearCancelsTheLoadAndTheTimer() async {
    let store = TestStore(initialState: TodosFeature.State()) {
      TodosFeature()
    } withDependencies: {
      $0.apiClient.fetchTodos = {
        try await Task.never()
        return []
      }
      $0.tickClient = .every(.seconds(1))
    }
    await store.send(.view(.onAppear)) {
      $0.isLoading = true
    }
    // The load is cancelled before it answers, and the timer never starts: nothing is received.
    await store.send(.view(.onDisappear))
  }

  @Test func togglingARowMovesCompletedTodosDown() async {
    let store = TestStore(
      initialState: TodosFeature.State(todos: [
        TodoRowFeature.State(id: 1, title: "a"),
        TodoRowFeature.State(id: 2, title: "b"),
      ])
    ) {
      TodosFeature()
    }
    await store.send(\._internal.rows[id: 1].view.toggleCompleted) {
      $0.todos[id: 1]?.isComplete = true
    }
    await store.receive(\._internal.rows[id: 1].delegate.completionChanged) {
      $0.todos = [
        TodoRowFeature.State(id: 2, title: "b"),
        TodoRowFeature.State(id: 1, title: "a", isComplete: true),
      ]
    }
  }

  @Test func addAndClearCompleted() async {
    let store = TestStore(
      initialState: TodosFeature.State(todos: [
        TodoRowFeature.State(id: 1, title: "done", isComplete: true)
      ])
    ) {
      TodosFeature()
    }
    await store.send(.view(.addTodoButtonTapped(title: "new"))) {
      $0.todos.insert(TodoRowFeature.State(id: 100, title: "new"), at: 0)
      $0.nextID = 101
    }
    await store.send(\._internal.rows[id: 100].view.titleChanged, "newer") {
      $0.todos[id: 100]?.title = "newer"
    }
    await store.send(.view(.clearCompletedButtonTapped)) {
      $0.alert = AlertState {
        TextState("Clear 1 completed todo?")
      } actions: {
        ButtonState(role: .destructive, action: .confirmClearCompleted) {
          TextState("Clear")
        }
        ButtonState(role: .cancel) {
          TextState("Cancel")
        }
      }
    }
    await store.send(.view(.alert(.presented(.confirmClearCompleted)))) {
      $0.alert = nil
      $0.todos = [TodoRowFeature.State(id: 100, title: "newer")]
    }
  }

  @Test func cancellingTheAlertKeepsTheTodos() async {
    let store = TestStore(
      initialState: TodosFeature.State(todos: [
        TodoRowFeature.State(id: 1, title: "done", isComplete: true)
      ])
    ) {
      TodosFeature()
    }
    // NB: Only the alert's end matters here: its text is the other test's.
    store.exhaustivity = .off
    await store.send(.view(.clearCompletedButtonTapped))
    await store.send(.view(.alert(.dismiss))) {
      $0.alert = nil
    }
    #expect(store.state.todos.count == 1)
  }

  @Test func rowRoutesNameTheTodoId() {
    var paths: [String] = []
    let store = Store(
      initialState: AppFeature.State(
        todos: TodosFeature.State(todos: [TodoRowFeature.State(id: 3, title: "x")])
      ),
      observer: { paths.append($0.route.statePath) }
    ) {
      AppFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
      $0.tickClient = .immediate(count: 0)
    }
    store.send(
      ._internal(.todos(._internal(.rows(.element(id: 3, action: .view(.toggleCompleted)))))))
    expectNoDifference(paths, ["todos.todos[id: 3]", "todos.todos[id: 3]"])
  }
}
