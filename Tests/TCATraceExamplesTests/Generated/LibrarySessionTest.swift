// Generated from session 1 (library) of library.db by:
//   tcatrace test library.db --session 1 --name replaysLibrarySession --import LibraryExample --dependencies '$0.continuousClock = ImmediateClock()' --initial-state 'Library.State()'
// On Linux, link IssueReportingTestSupport into its test target, or a failed assertion
// will not fail it.

import Composable
import Foundation
import Testing
@testable import LibraryExample

@MainActor
@Test
func replaysLibrarySession() async throws {
  let store = TestStore(initialState: Library.State()) {
    Library()
  } withDependencies: {
    $0.continuousClock = ImmediateClock()
  }

  await store.send(.view(.openTapped)) {
    $0.destination = .book(.init(title: "Dune", page: 0, isReading: false, note: ""))
  }

  await store.send(._internal(.destination(.presented(.book(.view(.binding(.set(\.note, "Spice")))))))) {
    $0.destination?.modify(\.book) { $0.note = "Spice" }
  }

  await store.send(._internal(.destination(.presented(.book(.view(.startTapped)))))) {
    $0.destination?.modify(\.book) { $0.isReading = true }
  }

  await store.receive(\._internal.destination.presented.book._internal.tick) {
    $0.destination?.modify(\.book) { $0.page = 1 }
  }

  await store.receive(\._internal.destination.presented.book._internal.tick) {
    $0.destination?.modify(\.book) { $0.page = 2 }
  }

  await store.receive(\._internal.destination.presented.book.delegate.finished) {
    $0.finished = ["Dune"]
  }

  await store.send(._internal(.destination(.dismiss))) {
    $0.destination = nil
  }

  await store.send(.view(.pushTapped)) {
    $0.path[id: 0] = .book(.init(title: "Emma", page: 0, isReading: false, note: ""))
  }

  await store.send(._internal(.path(.element(id: 0, action: .book(.view(.slowStartTapped)))))) {
    $0.path[id: 0, case: \.book]?.isReading = true
  }

  await store.send(._internal(.path(.element(id: 0, action: .book(.view(.stopTapped)))))) {
    $0.path[id: 0, case: \.book]?.isReading = false
    $0.peeks = 1
  }

  await store.send(.view(.returnAllTapped)) {
    $0.destination = .alert(
      AlertState {
        TextState("Return all?")
      } actions: {
        ButtonState(role: .destructive, action: .send(.confirmReturnAll)) {
          TextState("Return")
        }
        ButtonState(role: .cancel) {
          TextState("Cancel")
        }
      }
    )
  }

  await store.send(._internal(.destination(.presented(.alert(.confirmReturnAll))))) {
    $0.destination = nil
    $0.returned = 1
  }

  // With the changes of shared values by #14, which effects sent at once: a TestStore sees them here.
  await store.send(._internal(.shelf(._internal(.book(.view(.stopTapped)))))) {
    $0.shelf.$borrowed.withLock { $0 = 1 }
    $0.$borrowed.withLock { $0 = 1 }
  }

  await store.receive(\._internal.shelf._internal.lookedUp) {
    $0.shelf.lookups = 1
  }

  await store.send(._internal(.mode(.browsing(.view(.binding(.set(\.note, "Dorothea"))))))) {
    $0.mode.modify(\.browsing) { $0.note = "Dorothea" }
  }

  await store.send(._internal(.desk(.view(.sitTapped)))) {
    $0.desk = .reading(.init(title: "Walden", page: 0, isReading: false, note: ""))
  }

  await store.send(._internal(.desk(._internal(.reading(.view(.binding(.set(\.note, "Ponds")))))))) {
    $0.desk.modify(\.reading) { $0.note = "Ponds" }
  }

  await store.send(.view(.borrowTwiceTapped)) {
    $0.shelf.$borrowed.withLock { $0 = 3 }
    $0.$borrowed.withLock { $0 = 3 }
  }
}

/// A value from the JSON the trace recorded of it.
private func decoded<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
  try JSONDecoder().decode(type, from: Data(json.utf8))
}
