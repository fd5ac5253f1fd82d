import CustomDump
import Foundation
import TCATraceFile
import TestSupport
import Testing

/// An app written as TCA's own examples are, without the boundaries
/// (Tests/Fixtures/Library/Game.swift, issue #71): recorded, read, rebuilt at every step, and
/// turned into the test kept in TCATraceExamplesTests/Generated, which compiles and passes
/// there.
@Suite(.hangGuard)
struct TCAStyleAppTests {
  /// A child's actions, its bindings included, are its own, whether or not the child has
  /// boundaries, and the root `@Reducer enum` is named as its code names it (`Game`, where its
  /// `body`'s type is `_IfCaseLetReducer<_IfCaseLetReducer<Reduce<…>, SignIn>, Play>`).
  @Test func theChildrensActionsAreTheirsAndTheRootIsNamedAsWritten() async throws {
    let trace = try await RecordedTrace(fixture: "record-game", name: "game.db")
    let reader = try TraceReader(path: trace.path)
    #expect(try reader.sessions().map(\.rootFeature) == ["Game"])
    let actions = try reader.actions()
    // NB: A payload of several lines (the places) is shown as `…`.
    expectNoDifference(
      actions.map {
        "\($0.feature) \($0.path) \($0.payload.map { $0.contains("\n") ? "…" : $0 } ?? "")"
      },
      [
        #"signIn signIn.binding .set(\.email, "blob@example.com")"#,
        "signIn signIn.signInTapped ",
        #"signIn signIn.signInResponse "blob""#,
        #"play play.binding .set(\.query, "Central")"#,
        "play play.searchTapped ",
        "play play.searchResponse …",
        #"play play.binding .set(\.query, "Hyde")"#,
        "play play.searchTapped ",
        "play play.searchResponse …",
        "play play.placeTapped …",
      ]
    )
    // NB: `results` is a plain array of `Identifiable` places: its elements go by index.
    let changes = actions.flatMap(\.changes).map(\.path)
    #expect(changes.contains("play.results[0].name"))
    #expect(!changes.contains { $0.contains("[id:") })
  }

  /// Every step rebuilds, and `tcatrace test` writes the test kept in the suite, where it
  /// compiles and passes: changes inside the enum state's case are made through the case
  /// (`$0.modify(\.signIn) { … }`), the reducer is `Game.body`, the places' ids are `UUID(0)`,
  /// as TCA's tests write them, and the place chosen, a struct in an action that is not
  /// `Encodable`, is sent as `.placeTapped(.init(id: UUID(2), name: "Hyde Park"))`.
  @Test func generatingTheGamesTestGivesTheFileKeptInTheSuite() async throws {
    let trace = try await RecordedTrace(fixture: "record-game", name: "game.db")
    for step in 0...10 {
      let state = try await trace.run(["state", "game.db", "--session", "1", "--at", "\(step)"])
      #expect(state.status == 0, "step \(step): \(state.stderr)")
    }
    let result = try await trace.run([
      "test", "game.db", "--session", "1", "--name", "replaysGameSession",
      "--import", "LibraryExample", "--initial-state", "Game.State.signIn(SignIn.State())",
      "--dependencies", "$0.uuid = .incrementing",
    ])
    #expect(result.status == 0)
    #expect(
      result.stderr.contains(
        "note: the root state is an enum, so the reducer is written 'Game.body'"))
    expectNoDifference(result.stdout, try TestGenerationSafetyTests.kept("GameSessionTest.swift"))
  }
}
