// Generated from session 1 (game) of game.db by:
//   tcatrace test game.db --session 1 --name replaysGameSession --import LibraryExample --dependencies '$0.uuid = .incrementing' --initial-state 'Game.State.signIn(SignIn.State())'
// On Linux, link IssueReportingTestSupport into its test target, or a failed assertion
// will not fail it.

import Composable
import Foundation
import Testing
@testable import LibraryExample

@MainActor
@Test
func replaysGameSession() async throws {
  let store = TestStore(initialState: Game.State.signIn(SignIn.State())) {
    Game.body
  } withDependencies: {
    $0.uuid = .incrementing
  }

  await store.send(.signIn(.binding(.set(\.email, "blob@example.com")))) {
    $0.modify(\.signIn) { $0.email = "blob@example.com" }
  }

  await store.send(.signIn(.signInTapped)) {
    $0.modify(\.signIn) { $0.isSigningIn = true }
  }

  await store.receive(\.signIn.signInResponse) {
    $0 = .play(.init(player: "blob", query: "", results: [], chosen: nil))
  }

  await store.send(.play(.binding(.set(\.query, "Central")))) {
    $0.modify(\.play) { $0.query = "Central" }
  }

  await store.send(.play(.searchTapped))

  await store.receive(\.play.searchResponse) {
    $0.modify(\.play) {
      $0.results = [
        .init(id: UUID(0), name: "Central Park"),
        .init(id: UUID(1), name: "Central Lake"),
      ]
    }
  }

  await store.send(.play(.binding(.set(\.query, "Hyde")))) {
    $0.modify(\.play) { $0.query = "Hyde" }
  }

  await store.send(.play(.searchTapped))

  await store.receive(\.play.searchResponse) {
    $0.modify(\.play) { $0.results[0].id = UUID(2) }
    $0.modify(\.play) { $0.results[0].name = "Hyde Park" }
    $0.modify(\.play) { $0.results[1].id = UUID(3) }
    $0.modify(\.play) { $0.results[1].name = "Hyde Lake" }
  }

  await store.send(.play(.placeTapped(.init(id: UUID(2), name: "Hyde Park")))) {
    $0.modify(\.play) { $0.chosen = .init(id: UUID(2), name: "Hyde Park") }
  }
}

/// A value from the JSON the trace recorded of it.
private func decoded<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
  try JSONDecoder().decode(type, from: Data(json.utf8))
}
