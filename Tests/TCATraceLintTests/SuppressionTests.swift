import TCATraceLint
import TestSupport
import Testing

/// Issue #62: comments that silence one rule's findings on a line or in a region, and the
/// report of those that silence nothing.
@Suite(.hangGuard)
struct SuppressionTests {
  @Test func disableNextSilencesTheNamedRuleOnTheNextLineOnly() {
    let source = """
      switch action {
      // tcatrace-lint:disable:next parent-reacts-to-private-child-action
      case ._internal(.tasks(.view)): break
      case ._internal(.tasks(.view(.onAppear))): break
      }
      """
    #expect(findings(source) == ["4:25 parent-reacts-to-private-child-action"])
  }

  @Test func disableThisSilencesItsOwnLine() {
    let source = """
      switch action {
      case ._internal(.tasks(.view)): break  // tcatrace-lint:disable:this parent-reacts-to-private-child-action
      case ._internal(.tasks(.view(.onAppear))): break
      }
      """
    #expect(findings(source) == ["3:25 parent-reacts-to-private-child-action"])
  }

  @Test func disableAndEnableSilenceTheLinesBetween() {
    let source = """
      switch action {
      // tcatrace-lint:disable parent-reacts-to-private-child-action
      case ._internal(.tasks(.view)): break
      case ._internal(.tasks(.view(.onAppear))): break
      // tcatrace-lint:enable parent-reacts-to-private-child-action
      case ._internal(.tasks(.view(.onDisappear))): break
      }
      """
    #expect(findings(source) == ["6:25 parent-reacts-to-private-child-action"])
  }

  @Test func aDisableWithoutEnableSilencesToTheEndOfTheFile() {
    let source = """
      // tcatrace-lint:disable parent-reacts-to-private-child-action
      switch action {
      case ._internal(.tasks(.view)): break
      case ._internal(.tasks(.view(.onAppear))): break
      }
      """
    #expect(findings(source) == [])
  }

  @Test func aSuppressionSilencesOnlyTheRulesItNames() {
    let source = """
      switch action {
      // tcatrace-lint:disable:next ancestor-reacts-to-grandchild-delegate
      case ._internal(.tasks(.view)): break
      }
      """
    #expect(
      findings(source) == [
        "2:1 unused-suppression",
        "3:25 parent-reacts-to-private-child-action",
      ])
  }

  @Test func theFirstSpellingStillSilencesTheNextLine() {
    let source = """
      switch action {
      // tcatrace:disable:next-line parent-reacts-to-private-child-action
      case ._internal(.tasks(.view)): break
      }
      """
    #expect(findings(source) == [])
  }

  /// One that silences nothing is a warning that says so, as are comments that name no rule, an
  /// unknown rule, or enable what nothing disabled.
  @Test func aSuppressionThatSilencesNothingIsReported() {
    let source = """
      // tcatrace-lint:disable:next effect-sends-view-action
      let x = 1
      // tcatrace-lint:disable:this no-such-rule
      // tcatrace-lint:disable:next
      // tcatrace-lint:enable parent-reacts-to-private-child-action
      // tcatrace-lint:silence parent-reacts-to-private-child-action
      """
    let found = BoundaryLinter.lint(source: source, file: "Feature.swift")
    #expect(found.allSatisfy { $0.rule == .unusedSuppression && $0.severity == .warning })
    #expect(
      found.map { "\($0.line):\($0.column) \($0.message)" } == [
        "1:1 '// tcatrace-lint:disable:next effect-sends-view-action' silences no 'effect-sends-view-action' finding: remove it",
        "3:1 '// tcatrace-lint:disable:this no-such-rule' names no rule 'no-such-rule'; the rules are parent-reacts-to-private-child-action, child-private-action-sent, ancestor-reacts-to-grandchild-delegate, effect-sends-view-action, view-sends-private-action",
        "4:1 '// tcatrace-lint:disable:next' names no rule: name the rules it silences",
        "5:1 '// tcatrace-lint:enable parent-reacts-to-private-child-action' enables 'parent-reacts-to-private-child-action', which no earlier tcatrace-lint:disable disabled",
        "6:1 '// tcatrace-lint:silence parent-reacts-to-private-child-action' is not a suppression: write tcatrace-lint:disable:next, disable:this, disable or enable, and the rules",
      ])
  }

  /// Issue #72: a comment written with a rule's former name still silences it, and is still
  /// closed by the rule's name.
  @Test func aRulesFormerNameStillSilencesIt() {
    let source = """
      switch action {
      // tcatrace-lint:disable:next child-private-action-access
      case ._internal(.tasks(.view)): break
      // tcatrace-lint:disable child-private-action-access
      case ._internal(.tasks(.view(.onAppear))): break
      // tcatrace-lint:enable parent-reacts-to-private-child-action
      case ._internal(.tasks(.view(.onDisappear))): break
      }
      """
    #expect(findings(source) == ["7:25 parent-reacts-to-private-child-action"])
  }

  /// Checking some rules only, a suppression of another is not judged.
  @Test func suppressionsOfRulesNotCheckedAreNotReported() {
    let source = """
      // tcatrace-lint:disable:next effect-sends-view-action
      let x = 1
      """
    #expect(findings(source, rules: [.parentReactsToPrivateChildAction]) == [])
    #expect(
      findings(source, rules: [.effectSendsViewAction, .unusedSuppression]) == [
        "1:1 unused-suppression"
      ])
  }
}
