// A feature whose secrets change, each from one secret to another: in a plain property beside
// another of its type, inside an optional, and inside a presented child. `RealTCADemo --vault
// FILE` records it with each redacted by key path; check.sh records it with a stripped
// program too, compares the two traces with `tcatrace diff`, and searches both files for every
// secret (issue #59).

import ComposableArchitecture
import TCATrace

@Reducer
struct Vault {
  @ObservableState
  struct State: Equatable {
    /// Beside the passphrase, of its type: a key path to either reads `(String)` stripped.
    var label = ""
    var passphrase = ""
    var recovery: Recovery?
    @Presents var unlock: Unlock.State?
  }

  struct Recovery: Equatable {
    var hint = ""
    var phrase = ""
  }

  enum Action {
    case labelChanged(String)
    case passphraseChanged(String)
    case recoveryChanged(hint: String, phrase: String)
    case unlockTapped
    case unlock(PresentationAction<Unlock.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .labelChanged(label):
        state.label = label
      case let .passphraseChanged(passphrase):
        state.passphrase = passphrase
      case let .recoveryChanged(hint, phrase):
        if state.recovery == nil { state.recovery = Recovery() }
        state.recovery?.hint = hint
        state.recovery?.phrase = phrase
      case .unlockTapped:
        state.unlock = Unlock.State()
      case .unlock:
        break
      }
      return .none
    }
    .ifLet(\.$unlock, action: \.unlock) { Unlock() }
  }

  /// The secrets, by where they live in the state.
  static let redactions: [TraceRedaction] = [
    .state(\Vault.State.passphrase),
    .state(\Vault.State.recovery?.phrase),
    .state(\Vault.State.unlock?.pin),
  ]

  /// Records the session into `path`. Its secrets, which check.sh searches the file for:
  /// `alpha-1`, `bravo-2`, `river-3`, `stone-4`, `pin-4711`, `pin-0815`.
  @MainActor
  static func record(path: String) async throws {
    let recorder = try TraceRecorder(
      path: path, session: "vault", policy: .recordOnly, redacting: Self.redactions)
    let store = RecordingStore(initialState: State(), recorder: recorder) { Vault() }
    store.send(.labelChanged("Home"))
    store.send(.passphraseChanged("alpha-1"))
    store.send(.passphraseChanged("bravo-2"))
    store.send(.recoveryChanged(hint: "a river", phrase: "river-3"))
    store.send(.recoveryChanged(hint: "a stone", phrase: "stone-4"))
    store.send(.unlockTapped)
    store.send(.unlock(.presented(.pinChanged("pin-4711"))))
    store.send(.unlock(.presented(.pinChanged("pin-0815"))))
    store.send(.labelChanged("Away"))
    await store.finish()
    try await recorder.close()
  }
}

@Reducer
struct Unlock {
  @ObservableState
  struct State: Equatable {
    var attempts = 0
    var pin = ""
    /// Beside the PIN, of its type: told apart from it by its value when it is presented.
    var prompt = "Enter your PIN"
  }

  enum Action {
    case pinChanged(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .pinChanged(pin):
        state.pin = pin
        state.attempts += 1
        return .none
      }
    }
  }
}
