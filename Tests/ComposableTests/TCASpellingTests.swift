// NB: This file imports `Composable` and no Foundation: a feature written for TCA gets
// Foundation's types through `import ComposableArchitecture` on Apple platforms, and through
// `import Composable` here.
import Composable
import Testing
import TestSupport

/// TCA 1.25's spellings that its own examples use (#43).
@MainActor
@Suite(.hangGuard)
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
      initialState: Notebook.State(
        note: Note.State(id: id, createdAt: Date(timeIntervalSince1970: 0)))
    ) {
      Notebook()
    }
    store.send(.note(.textChanged("Hi")))
    store.send(.open)
    #expect(store.state.note.text == "Hi")
    #expect(store.state.note.id == id)
    #expect(store.state.opened == 1)
  }

  @Reducer
  struct Counter {
    @ObservableState
    struct State: Equatable {
      var count = 0
      @Presents var alert: AlertState<Action.Alert>?
    }
    enum Action: Equatable {
      case alert(PresentationAction<Alert>)
      case resetTapped
      case reset
      @CasePathable enum Alert: Equatable { case confirmTapped }
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .alert(.presented(.confirmTapped)):
          state.count += 1
          return .send(.reset)
        case .alert:
          return .none
        case .resetTapped:
          state.alert = AlertState {
            TextState("Reset?")
          } actions: {
            ButtonState(action: .confirmTapped) { TextState("Reset") }
          }
          return .none
        case .reset:
          state.count = 0
          return .none
        }
      }
      // NB: As TCA's Examples write it: the optional's key path, without `@Presents`' `$`.
      .ifLet(\.alert, action: \.alert)
    }
  }

  @Test func anAlertInAnOptionalGoesAwayAfterItsActionAndItsCasesReadThroughPresented() async {
    let store = TestStore(initialState: Counter.State(count: 4)) { Counter() }
    await store.send(.resetTapped) {
      $0.alert = AlertState {
        TextState("Reset?")
      } actions: {
        ButtonState(action: .confirmTapped) { TextState("Reset") }
      }
    }
    // `\.alert.confirmTapped` is `\.alert.presented.confirmTapped`, as TCA's case paths read.
    await store.send(\.alert.confirmTapped) {
      $0.alert = nil
      $0.count = 5
    }
    await store.receive(\.reset) {
      $0.count = 0
    }
  }

  @Test func aCasePathThroughPresentedExtractsOnlyThatCase() {
    let path: CaseKeyPath<Counter.Action, Void> = \.alert.confirmTapped
    #expect(Counter.Action.alert(.presented(.confirmTapped))[case: path] != nil)
    #expect(Counter.Action.alert(.dismiss)[case: path] == nil)
    #expect(path(()) == .alert(.presented(.confirmTapped)))
    let presentation: CaseKeyPath<Counter.Action, PresentationAction<Void>> = \.alert.confirmTapped
    let dismissed = Counter.Action.alert(.dismiss)[case: presentation]
    #expect(dismissed.map { if case .dismiss = $0 { true } else { false } } == true)
  }

  // NB: `Composable`'s stand-ins for SwiftUI's values, declared where SwiftUI is not (Linux):
  // on Apple platforms these names are SwiftUI's, whose descriptions differ and whose
  // `EditMode` is unavailable on macOS.
  #if !canImport(SwiftUI)
    enum Filter: LocalizedStringKey, CaseIterable, Hashable {
      case all = "All"
      case active = "Active"
    }

    @Reducer
    struct Palette {
      @ObservableState
      struct State: Equatable {
        var color = Color.black
        var editMode: EditMode = .inactive
        var filter = Filter.all
      }
      enum Action: Equatable {
        case cycleTapped
        case setColor(Color)
        case editTapped
      }
      var body: some ReducerOf<Self> {
        Reduce { state, action in
          switch action {
          case .cycleTapped:
            return .run { send in
              for color in [Color.red, .blue] {
                await send(
                  .setColor(color),
                  animation: .interactiveSpring(response: 0.25, dampingFraction: 0.1))
              }
              await send(
                .setColor(Color("brand")),
                animation: .interpolatingSpring(stiffness: 3000, damping: 40))
              await send(.setColor(.black), animation: .spring())
            }
          case let .setColor(color):
            state.color = color
            return .none
          case .editTapped:
            state.editMode = state.editMode.isEditing ? .inactive : .active
            state.filter = Filter.allCases.last!
            return .none
          }
        }
      }
    }

    @Test func swiftUIValuesKeptInStateCompareAndPrint() async {
      let store = TestStore(initialState: Palette.State()) { Palette() }
      await store.send(.cycleTapped)
      await store.receive(.setColor(.red)) { $0.color = .red }
      await store.receive(.setColor(.blue)) { $0.color = .blue }
      await store.receive(.setColor(Color("brand"))) { $0.color = Color("brand") }
      await store.receive(.setColor(.black)) { $0.color = .black }
      await store.send(.editTapped) {
        $0.editMode = .active
        $0.filter = .active
      }
      #expect(Filter.active.rawValue == "Active")
      #expect("\(Color.red)" == "red")
      #expect(
        String(customDumping: Palette.State()) == """
          TCASpellingTests.Palette.State(
            color: Color.black,
            editMode: .inactive,
            filter: .all
          )
          """
      )
      #expect(String(customDumping: Color("brand")) == #"Color("brand")"#)
    }
  #endif

  /// A dependency client in the shape TCA's examples write one, fetching with `URLSession`.
  struct FactClient {
    var fetch: @Sendable (Int) async throws -> String
    static let live = Self { number in
      let (data, _) = try await URLSession.shared.data(
        from: URL(string: "http://numbersapi.com/\(number)/trivia")!
      )
      return String(decoding: data, as: UTF8.self)
    }
  }

  @Test func urlSessionComesWithTheImport() {
    // NB: Not run: there is no network here. That it compiles with `import Composable` alone
    // is what is shown.
    _ = FactClient.live
    let request = URLRequest(url: URL(string: "http://numbersapi.com/1")!)
    #expect(request.url?.host == "numbersapi.com")
  }

  struct Stats: Codable, Equatable {
    var count = 0
  }

  @Reducer
  struct StatsCounter {
    @ObservableState
    struct State: Equatable {
      @Shared(.stats) var stats = Stats()
    }
    enum Action: Equatable { case incrementButtonTapped }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.$stats.withLock { $0.count += 1 }
        return .none
      }
    }
  }

  @Test func aFileInTheDocumentsDirectoryHoldsASharedValue() async {
    // NB: TCA's examples keep `.fileStorage` values under `URL.documentsDirectory`, which
    // Linux's Foundation lacks; in a test, files are kept in memory.
    let store = TestStore(initialState: StatsCounter.State()) {
      StatsCounter()
    }
    await store.send(.incrementButtonTapped) {
      $0.$stats.withLock { $0.count = 1 }
    }
    #expect(
      URL.documentsDirectory.standardizedFileURL
        == FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first?
        .standardizedFileURL
    )
  }
}

extension SharedKey where Self == FileStorageKey<TCASpellingTests.Stats> {
  fileprivate static var stats: Self {
    fileStorage(.documentsDirectory.appending(component: "stats.json"))
  }
}
