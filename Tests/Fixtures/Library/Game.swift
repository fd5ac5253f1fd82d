// An app written as TCA's own examples are, without the boundaries (issue #71; TicTacToe's
// `AppCore` and Search): a root `@Reducer enum` whose `body` scopes its cases with `ifCaseLet`,
// children whose actions are plain enums with `BindableAction` bindings, a child's action the
// root reacts to, a state that declares its own initializer (so it has no memberwise one), and
// a plain array of `Identifiable` values whose ids are `UUID`s. `tcatrace-fixture record-game` records a session of
// it, and `tcatrace test` writes the test kept in TCATraceExamplesTests/Generated.

import Foundation
import TCATrace

@Reducer
public enum Game {
  case signIn(SignIn)
  case play(Play)

  public static var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .signIn(.signInResponse(player)):
        state = .play(Play.State(player: player))
        return .none
      case .signIn, .play:
        return .none
      }
    }
    .ifCaseLet(\.signIn, action: \.signIn) { SignIn() }
    .ifCaseLet(\.play, action: \.play) { Play() }
  }
}

extension Game.State: Equatable {}
extension Game.Action: Equatable {}

/// Signing in: an email, bound to a field.
@Reducer
public struct SignIn {
  @ObservableState
  public struct State: Equatable {
    public var email = ""
    public var isSigningIn = false
    // NB: Declared, as TicTacToe's `Login.State` declares it: the state has no memberwise
    // initializer, so a test cannot assign it whole with one.
    public init() {}
  }

  public enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case signInTapped
    case signInResponse(String)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none
      case .signInTapped:
        state.isSigningIn = true
        let player = String(state.email.prefix { $0 != "@" })
        return .run { send in await send(.signInResponse(player)) }
      case .signInResponse:
        state.isSigningIn = false
        return .none
      }
    }
  }
}

/// A place a search finds.
public struct Place: Codable, Equatable, Identifiable, Sendable {
  public var id: UUID
  public var name: String
}

/// Playing: a search whose results are a plain array of `Identifiable` places, as Search's are.
@Reducer
public struct Play {
  @ObservableState
  public struct State: Equatable {
    public var player: String
    public var query = ""
    public var results: [Place] = []
    public var chosen: Place?
  }

  public enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case searchTapped
    case searchResponse([Place])
    case placeTapped(Place)
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none
      case .searchTapped:
        let places = [
          Place(id: self.uuid(), name: state.query + " Park"),
          Place(id: self.uuid(), name: state.query + " Lake"),
        ]
        return .run { send in await send(.searchResponse(places)) }
      case let .searchResponse(places):
        state.results = places
        return .none
      case let .placeTapped(place):
        state.chosen = place
        return .none
      }
    }
  }
}

/// The session `tcatrace-fixture record-game` records: signing in through the email field,
/// then two searches, the second replacing the places the first found, and a place chosen (an
/// action whose payload is a struct, and not `Encodable`: the action's JSON cannot build it).
public enum GameScript {
  /// Records the session with `recorder`, each action's effects finished before the next.
  @MainActor
  public static func record(to recorder: TraceRecorder) async {
    let store = RecordingStore(
      initialState: Game.State.signIn(SignIn.State()), recorder: recorder
    ) {
      Game.body
    } withDependencies: {
      $0.uuid = .incrementing
    }
    let actions: [Game.Action] = [
      .signIn(.binding(.set(\.email, "blob@example.com"))),
      .signIn(.signInTapped),
      .play(.binding(.set(\.query, "Central"))),
      .play(.searchTapped),
      .play(.binding(.set(\.query, "Hyde"))),
      .play(.searchTapped),
      .play(.placeTapped(Place(id: UUID(2), name: "Hyde Park"))),
    ]
    for action in actions {
      store.send(action)
      await store.finish()
    }
  }
}
