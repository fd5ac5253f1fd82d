import Composable
import CustomDump
import Foundation
import TCATrace
import TCATraceExamples
import TestSupport
import Testing

private final class Box: Sendable, CustomStringConvertible {
  let name: String
  init(_ name: String) { self.name = name }
  var description: String { "Box(\(self.name))" }
}

private enum Order: Equatable, Sendable {
  case ascending, descending
  case custom(String)
}

/// An action with every shape a recorder meets: payloads at the chain's end and before it,
/// enums rendered as payloads, indirect cases, existentials holding enums or not.
private enum MixedAction: Sendable {
  enum View: Sendable {
    case tapped
    case typed(String)
    case sorted(Order)
    case maybeSorted(Order?)
    case object(Box)
  }
  indirect enum Internal: Sendable {
    case response(Result<Int, APIError>)
    case child(LoginFeature.Action)
    case anything(any Sendable)
    case rows(IdentifiedActionOf<TodoRowFeature>)
    case again(Internal)
    case pair(Order, Int)
  }
  case view(View)
  case _internal(Internal)
  case delegate(Never)
}

/// A feature written without the boundaries, holding another (issue #71).
private enum PlainChild {
  enum Action: Sendable {
    case tapped
    case response(Int)
    case order(Order)
  }
}

private enum PlainAction: Sendable {
  case child(PlainChild.Action)
  case loaded(Result<Int, APIError>)
  case order(Order)
}

/// The recorder classifies an action it has seen the cases of before from what it kept; these
/// tests check, through the trace file, that it always says what reflection says.
@MainActor
@Suite(.hangGuard)
struct ClassificationCacheTests {
  /// Records `actions` twice over and reads them back.
  private func recorded<Action: Sendable>(_ actions: [Action]) async throws -> [TracedAction] {
    let directory = try TemporaryDirectory()
    let path = directory.path("cache.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let store = RecordingStore(initialState: 0, recorder: recorder) {
      Reduce<Int, Action> { state, _ in
        state += 1
        return .none
      }
    }
    for action in actions + actions { store.send(action) }
    try await recorder.close()
    return try TraceReader(path: path).actions()
  }

  private func expectReflected<Action: Sendable>(
    _ actions: [Action], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let traced = try await self.recorded(actions)
    try #require(traced.count == 2 * actions.count, sourceLocation: sourceLocation)
    for (action, row) in zip(actions + actions, traced) {
      let expected = ActionClassification(action)
      let read = [
        row.path, row.rootCategory.rawValue, row.feature, row.category.rawValue, row.caseName,
        row.payload ?? "—",
      ]
      let reflected = [
        expected.path, expected.rootCategory.rawValue, expected.featurePath,
        expected.category.rawValue, expected.caseName, expected.payload ?? "—",
      ]
      #expect(read == reflected, "action #\(row.seq)", sourceLocation: sourceLocation)
    }
  }

  @Test func exampleAppActionsAreClassifiedAsReflectionDoes() async throws {
    typealias App = AppFeature.Action
    try await self.expectReflected([
      App.view(.settingsButtonTapped),
      App._internal(.login(.view(.emailChanged("a@b.c")))),
      App._internal(.login(.view(.emailChanged("other@b.c")))),
      App._internal(.login(._internal(.loginResponse(.success(.twoFactorRequired(token: "t")))))),
      App._internal(
        .login(._internal(.loginResponse(.success(.loggedIn(User(id: 1, name: "a"))))))),
      App._internal(.login(._internal(.loginResponse(.failure(.offline))))),
      App._internal(.login(._internal(.twoFactor(.presented(.view(.codeChanged("1234"))))))),
      App._internal(.login(._internal(.twoFactor(.presented(.view(.codeChanged("9"))))))),
      App._internal(
        .login(._internal(.twoFactor(.presented(.delegate(.didVerify(User(id: 2, name: "b")))))))),
      App._internal(.login(._internal(.twoFactor(.dismiss)))),
      App._internal(.login(.delegate(.didLogin(User(id: 3, name: "c"))))),
      App._internal(.todos(._internal(.rows(.element(id: 3, action: .view(.toggleCompleted)))))),
      App._internal(.todos(._internal(.rows(.element(id: 4, action: .view(.toggleCompleted)))))),
      App._internal(.todos(._internal(.rows(.element(id: 4, action: .view(.titleChanged("x"))))))),
      App._internal(.todos(._internal(.todosLoaded(.success([]))))),
      App._internal(.todos(._internal(.todosLoaded(.failure(.offline))))),
      App._internal(.todos(.view(.alert(.presented(.confirmClearCompleted))))),
      App._internal(.todos(.view(.alert(.dismiss)))),
      App._internal(.path(.element(id: 0, action: .settings(.view(.saveButtonTapped))))),
      App._internal(
        .path(
          .element(
            id: 0,
            action: .settings(.delegate(.didSave(displayName: "Blob", notificationsEnabled: true))))
        )
      ),
      App._internal(
        .path(
          .element(
            id: 1,
            action: .settings(
              .delegate(.didSave(displayName: "Other", notificationsEnabled: false)))))
      ),
      App._internal(.path(.popFrom(id: 0))),
      App._internal(.path(.push(id: 2, state: .settings(SettingsFeature.State())))),
    ])
  }

  @Test func childrenWithoutBoundariesAreClassifiedAsReflectionDoes() async throws {
    try await self.expectReflected([
      PlainAction.child(.tapped),
      .child(.response(1)),
      .child(.response(2)),
      .child(.order(.ascending)),
      .child(.order(.custom("x"))),
      .loaded(.success(1)),
      .loaded(.failure(.offline)),
      .order(.custom("y")),
    ])
  }

  @Test func everyShapeOfPayloadIsClassifiedAsReflectionDoes() async throws {
    try await self.expectReflected([
      MixedAction.view(.tapped),
      .view(.typed("a")),
      .view(.typed("b")),
      .view(.sorted(.ascending)),
      .view(.sorted(.descending)),
      .view(.sorted(.custom("by name"))),
      .view(.maybeSorted(nil)),
      .view(.maybeSorted(.custom("x"))),
      .view(.object(Box("one"))),
      ._internal(.response(.success(1))),
      ._internal(.response(.success(2))),
      ._internal(.response(.failure(.invalidCode))),
      ._internal(.child(.view(.loginButtonTapped))),
      ._internal(.child(.delegate(.didLogin(User(id: 1, name: "a"))))),
      ._internal(.anything(Order.ascending)),
      ._internal(.anything(Order.custom("y"))),
      ._internal(.anything(7)),
      ._internal(.anything(LoginFeature.Action.view(.loginButtonTapped))),
      ._internal(.rows(.element(id: 1, action: .view(.toggleCompleted)))),
      ._internal(.rows(.element(id: 2, action: .delegate(.completionChanged(isComplete: true))))),
      ._internal(.again(.response(.success(3)))),
      ._internal(.again(.again(.child(.view(.passwordChanged("p")))))),
      ._internal(.again(.pair(.descending, 4))),
      ._internal(.pair(.ascending, 5)),
    ])
  }

  @Test func aRecorderGivenToReducersOfTwoTypesReadsEachEventWithItsOwnTypes() async throws {
    struct Counter: Equatable { var count = 0 }
    struct Title: Equatable {
      var title = ""
      var edits = 0
    }
    let directory = try TemporaryDirectory()
    let path = directory.path("two.db")
    let recorder = try TraceRecorder(path: path, policy: .recordOnly)
    let counter = Store(initialState: Counter()) {
      Reduce<Counter, MixedAction> { state, _ in
        state.count += 1
        return .none
      }
      .recording(to: recorder)
    }
    let title = Store(initialState: Title()) {
      Reduce<Title, Order> { state, order in
        state.title = order == .descending ? "down" : "other"
        state.edits += 1
        return .none
      }
      .recording(to: recorder)
    }
    counter.send(.view(.typed("a")))
    title.send(.custom("b"))
    counter.send(.view(.tapped))
    title.send(.descending)
    try await recorder.close()

    let rows = try TraceReader(path: path).actions()
    #expect(rows.map(\.path) == ["view.typed", "custom", "view.tapped", "descending"])
    #expect(rows.map(\.payload) == [#""a""#, #""b""#, nil, nil])
    #expect(
      rows.map { $0.changes.map { "\($0.path): \($0.old ?? "-") → \($0.new ?? "-")" } } == [
        ["count: 0 → 1"],
        [#"title: "" → "other""#, "edits: 0 → 1"],
        ["count: 1 → 2"],
        [#"title: "other" → "down""#, "edits: 1 → 2"],
      ]
    )
  }

  @Test func keptClassificationsReleaseWhatTheyRead() async throws {
    weak var released: Box?
    do {
      let box = Box("kept")
      released = box
      let traced = try await self.recorded([MixedAction.view(.object(box))])
      #expect(traced.map(\.payload) == [String(customDumping: box), String(customDumping: box)])
    }
    #expect(released == nil)
  }
}
