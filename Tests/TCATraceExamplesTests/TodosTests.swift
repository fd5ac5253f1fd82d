import CustomDump
import TCATraceExamples
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct TodosTests {
  private func makeStore(
    clock: TickClient = .immediate(count: 3),
    todos: IdentifiedArrayOf<TodoRowFeature.State> = []
  ) -> StoreOf<TodosFeature> {
    Store(initialState: TodosFeature.State(todos: todos)) {
      TodosFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
      $0.tickClient = clock
    }
  }

  @Test func onAppearLoadsTodosAndRunsTheTimer() async {
    let store = makeStore()
    await store.send(.view(.onAppear)).finish()
    expectNoDifference(
      store.state,
      TodosFeature.State(
        todos: [
          TodoRowFeature.State(id: 1, title: "Buy milk"),
          TodoRowFeature.State(id: 2, title: "Write the trace reader", isComplete: true),
        ],
        secondsOnScreen: 3
      )
    )
  }

  @Test func theTimerStartsAfterTheTodosLoad() async {
    var actions: [TodosFeature.Action] = []
    let store = Store(
      initialState: TodosFeature.State(),
      observer: { actions.append($0.action) }
    ) {
      TodosFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .milliseconds(5))
      $0.tickClient = .immediate(count: 2)
    }
    await store.send(.view(.onAppear)).finish()
    let todos = [
      Todo(id: 1, title: "Buy milk"),
      Todo(id: 2, title: "Write the trace reader", isComplete: true),
    ]
    expectNoDifference(
      actions,
      [
        .view(.onAppear),
        ._internal(.todosLoaded(.success(todos))),
        ._internal(.timerTicked),
        ._internal(.timerTicked),
      ]
    )
  }

  @Test func onDisappearCancelsTheLoadAndTheTimer() async {
    let store = makeStore(clock: .every(.seconds(3600)))
    let appear = store.send(.view(.onAppear))
    store.send(.view(.onDisappear))
    await appear.finish()
    await store.finish()
    // The load was cancelled before it answered, and the timer never started.
    #expect(store.state.todos.isEmpty)
    #expect(store.state.secondsOnScreen == 0)
  }

  @Test func togglingARowMovesCompletedTodosDown() {
    let store = makeStore(todos: [
      TodoRowFeature.State(id: 1, title: "a"),
      TodoRowFeature.State(id: 2, title: "b"),
    ])
    store.send(._internal(.rows(.element(id: 1, action: .view(.toggleCompleted)))))
    expectNoDifference(
      store.state.todos,
      [
        TodoRowFeature.State(id: 2, title: "b"),
        TodoRowFeature.State(id: 1, title: "a", isComplete: true),
      ]
    )
  }

  @Test func addAndClearCompleted() {
    let store = makeStore(todos: [TodoRowFeature.State(id: 1, title: "done", isComplete: true)])
    store.send(.view(.addTodoButtonTapped(title: "new")))
    store.send(._internal(.rows(.element(id: 100, action: .view(.titleChanged("newer"))))))
    store.send(.view(.clearCompletedButtonTapped))
    #expect(store.state.alert?.title == TextState("Clear 1 completed todo?"))
    #expect(store.state.todos.count == 2)
    store.send(.view(.alert(.presented(.confirmClearCompleted))))
    expectNoDifference(store.state.todos, [TodoRowFeature.State(id: 100, title: "newer")])
    #expect(store.state.alert == nil)
    #expect(store.state.nextID == 101)
  }

  @Test func cancellingTheAlertKeepsTheTodos() {
    let store = makeStore(todos: [TodoRowFeature.State(id: 1, title: "done", isComplete: true)])
    store.send(.view(.clearCompletedButtonTapped))
    store.send(.view(.alert(.dismiss)))
    #expect(store.state.alert == nil)
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
    store.send(._internal(.todos(._internal(.rows(.element(id: 3, action: .view(.toggleCompleted)))))))
    expectNoDifference(paths, ["todos.todos[id: 3]", "todos.todos[id: 3]"])
  }
}
