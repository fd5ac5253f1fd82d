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
      // tcatrace-lint:disable:next child-private-action-access
      case ._internal(.tasks(.view)): break
      case ._internal(.tasks(.view(.onAppear))): break
      }
      """
    #expect(findings(source) == ["4:25 child-private-action-access"])
  }

  @Test func disableThisSilencesItsOwnLine() {
    let source = """
      switch action {
      case ._internal(.tasks(.view)): break  // tcatrace-lint:disable:this child-private-action-access
      case ._internal(.tasks(.view(.onAppear))): break
      }
      """
    #expect(findings(source) == ["3:25 child-private-action-access"])
  }

  @Test func disableAndEnableSilenceTheLinesBetween() {
    let source = """
      switch action {
      // tcatrace-lint:disable child-private-action-access
      case ._internal(.tasks(.view)): break
      case ._internal(.tasks(.view(.onAppear))): break
      // tcatrace-lint:enable child-private-action-access
      case ._internal(.tasks(.view(.onDisappear))): break
      }
      """
    #expect(findings(source) == ["6:25 child-private-action-access"])
  }

  @Test func aDisableWithoutEnableSilencesToTheEndOfTheFile() {
    let source = """
      // tcatrace-lint:disable child-private-action-access
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
      // tcatrace-lint:disable:next grandchild-delegate-access
      case ._internal(.tasks(.view)): break
      }
      """
    #expect(
      findings(source) == [
        "2:1 unused-suppression",
        "3:25 child-private-action-access",
      ])
  }

  @Test func theFirstSpellingStillSilencesTheNextLine() {
    let source = """
      switch action {
      // tcatrace:disable:next-line child-private-action-access
      case ._internal(.tasks(.view)): break
      }
      """
    #expect(findings(source) == [])
  }

  /// One that silences nothing is a warning that says so, as are comments that name no rule, an
  /// unknown rule, or enable what nothing disabled.
  @Test func aSuppressionThatSilencesNothingIsReported() {
    let source = """
      // tcatrace-lint:disable:next view-action-from-effect
      let x = 1
      // tcatrace-lint:disable:this no-such-rule
      // tcatrace-lint:disable:next
      // tcatrace-lint:enable child-private-action-access
      // tcatrace-lint:silence child-private-action-access
      """
    let found = BoundaryLinter.lint(source: source, file: "Feature.swift")
    #expect(found.allSatisfy { $0.rule == .unusedSuppression && $0.severity == .warning })
    #expect(
      found.map { "\($0.line):\($0.column) \($0.message)" } == [
        "1:1 '// tcatrace-lint:disable:next view-action-from-effect' silences no 'view-action-from-effect' finding: remove it",
        "3:1 '// tcatrace-lint:disable:this no-such-rule' names no rule 'no-such-rule'; the rules are child-private-action-access, child-private-action-sent, grandchild-delegate-access, view-action-from-effect, private-action-sent-from-view",
        "4:1 '// tcatrace-lint:disable:next' names no rule: name the rules it silences",
        "5:1 '// tcatrace-lint:enable child-private-action-access' enables 'child-private-action-access', which no earlier tcatrace-lint:disable disabled",
        "6:1 '// tcatrace-lint:silence child-private-action-access' is not a suppression: write tcatrace-lint:disable:next, disable:this, disable or enable, and the rules",
      ])
  }

  /// Checking some rules only, a suppression of another is not judged.
  @Test func suppressionsOfRulesNotCheckedAreNotReported() {
    let source = """
      // tcatrace-lint:disable:next view-action-from-effect
      let x = 1
      """
    #expect(findings(source, rules: [.childPrivateActionAccess]) == [])
    #expect(
      findings(source, rules: [.viewActionFromEffect, .unusedSuppression]) == [
        "1:1 unused-suppression"
      ])
  }
}
