import ActionObservation
import Foundation
@testable import TCATrace
import RuntimeSupport
import TCATraceExamples
import TestSupport
import Testing

/// Issue #59: in a stripped build, a key path into TCA's `@ObservableState` (every property
/// computed) has no symbol to name it by: the standard library describes its components as
/// `<computed 0x… (Type)>`. They are named from the type's reflection metadata, which stripping
/// keeps, and where a type has several properties of a component's type, from the values the
/// states hold. The descriptions here are the ones such a build prints (Tests/RealTCA/check.sh
/// records stripped programs too).
@Suite(.hangGuard)
struct StrippedNamesTests {
  @Test func aComponentIsAPropertyOfItsType() {
    // `State`: the standard library names a nested type as `String(describing:)` does.
    #expect(
      ReflectedKeyPathNames.candidates(
        of: "<computed 0x1 (State)>.<computed 0x2 (String)>", root: AppFeature.State.self)
        == ["login.email", "login.password"]
    )
    // Through a presentation state, read as an optional, to the end of an optional chain.
    #expect(
      ReflectedKeyPathNames.candidates(
        of: "<computed 0x1 (State)>.<computed 0x2 (Optional<State>)>?.<computed 0x3 (String)>?",
        root: AppFeature.State.self
      ) == ["login.twoFactor?.token?", "login.twoFactor?.code?"]
    )
    // A component of a type no property has, a named one, and one that is not a property.
    #expect(
      ReflectedKeyPathNames.candidates(of: "<computed 0x1 (Date)>", root: AppFeature.State.self)
        == nil)
    #expect(
      ReflectedKeyPathNames.candidates(
        of: "login.<computed 0x2 (Bool)>", root: AppFeature.State.self) == ["login.isLoading"])
    #expect(ReflectedKeyPathNames.candidates(of: "login[0]", root: AppFeature.State.self) == nil)
  }

  /// While more than one property may be the key path's, each is redacted; a state where one
  /// holds another value than the key path's rules it out.
  @Test func valuesTellCandidatesApart() {
    let unnamed = UnnamedStatePath(
      \AppFeature.State.login.password, candidates: ["login.email", "login.password"]
    )
    var state = AppFeature.State()
    unnamed.narrow(by: state)
    #expect(unnamed.candidates == ["login.email", "login.password"])
    state.login.email = "blob@example.com"
    unnamed.narrow(by: state)
    #expect(unnamed.candidates == ["login.password"])
    // Once told apart, they stay so.
    state.login.password = "blob@example.com"
    unnamed.narrow(by: state)
    #expect(unnamed.candidates == ["login.password"])
  }

  /// Through an optional chain, a state where the optional is nil tells nothing.
  @Test func aNilOnTheWayTellsNothing() {
    let unnamed = UnnamedStatePath(
      \AppFeature.State.login.twoFactor?.code,
      candidates: ["login.twoFactor?.token?", "login.twoFactor?.code?"]
    )
    var state = AppFeature.State()
    unnamed.narrow(by: state)
    #expect(unnamed.candidates == ["login.twoFactor.code", "login.twoFactor.token"])
    state.login.twoFactor = TwoFactorFeature.State(token: "token-1")
    unnamed.narrow(by: state)
    #expect(unnamed.candidates == ["login.twoFactor.code"])
  }

  /// A binding's key path, ambiguous by type, is named from the change it made.
  @Test func aBindingIsNamedFromItsChange() {
    let changes = [
      StateChange(path: "destination.book.note", kind: .changed, old: #""""#, new: #""Spice""#),
      StateChange(path: "finished[0]", kind: .added, old: nil, new: #""Spice""#),
    ]
    #expect(
      ActionAnalysis.namingBinding(
        #".set(\.<computed 0x55 (String)>, "Spice")"#, changes: changes,
        statePath: "destination.book")
        == #".set(\.note, "Spice")"#
    )
    // A type whose name holds a comma, and a value that no change set.
    #expect(
      ActionAnalysis.namingBinding(
        #".set(\.<computed 0x55 ((Int, Int))>, (1, 2))"#, changes: changes,
        statePath: "destination.book")
        == #".set(\.<computed 0x55 ((Int, Int))>, (1, 2))"#
    )
    #expect(
      ActionAnalysis.namingBinding(
        #".set(\.<computed 0x55 (String)>, "Dune")"#, changes: changes,
        statePath: "destination.book")
        == #".set(\.<computed 0x55 (String)>, "Dune")"#
    )
  }
}
