// NB: This file imports `Composable` and no Foundation: a feature written for TCA gets
// Foundation's types through `import ComposableArchitecture` on Apple platforms, and through
// `import Composable` here.
import Composable
import Testing

/// TCA 1.25's spellings that its own examples use (#43).
@MainActor
struct TCASpellingTests {
  @Reducer
  struct Note {
    @ObservableState
    struct State: Equatable {
      var id: UUID
      var createdAt: Date
      var text = ""
    }
    enum Action: Equatable { case textChanged(String) }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case let .textChanged(text):
          state.text = text
          return .none
        }
      }
    }
  }

  @Reducer
  struct Notebook {
    @ObservableState
    struct State: Equatable {
      var note: Note.State
      var opened = 0
    }
    enum Action: Equatable {
      case note(Note.Action)
      case open
    }
    var body: some ReducerOf<Self> {
      Scope(\.note, action: \.note) { Note() }
      Reduce { state, action in
        if case .open = action { state.opened += 1 }
        return .none
      }
    }
  }

  @Test func theUnlabelledScopeRunsTheChildOnItsState() {
    let id = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    let store = Store(
      initialState: Notebook.State(note: Note.State(id: id, createdAt: Date(timeIntervalSince1970: 0)))
    ) {
      Notebook()
    }
    store.send(.note(.textChanged("Hi")))
    store.send(.open)
    #expect(store.state.note.text == "Hi")
    #expect(store.state.note.id == id)
    #expect(store.state.opened == 1)
  }
}
