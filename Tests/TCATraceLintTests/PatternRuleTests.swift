import Testing
import TCATraceLint
import TestSupport

/// Lints `source` and returns each finding as `line:column rule`; the column is the offending
/// case name's first character.
func findings(_ source: String, rules: Set<LintRule> = Set(LintRule.allCases)) -> [String] {
  BoundaryLinter.lint(source: source, file: "Feature.swift", rules: rules)
    .map { "\($0.line):\($0.column) \($0.rule.rawValue)" }
}

/// The call sites of the seed article ("Call sites"), and the forms a regex misses.
@Suite(.hangGuard) struct PatternRuleTests {
  @Test func theSeedsForbiddenCallSitesAreFindings() {
    let source = """
      switch action {
      case ._internal(.userSettings(.view(action))):
        break
      case ._internal(.userSettings(.view(.onDayEndChanged))):
        break
      case ._internal(.userSettings(._internal)):
        break
      case ._internal(.userSettings(.view)):
        break
      default:
        break
      }
      """
    #expect(
      findings(source) == [
        "2:32 parent-reacts-to-private-child-action",
        "4:32 parent-reacts-to-private-child-action",
        "6:32 parent-reacts-to-private-child-action",
        "8:32 parent-reacts-to-private-child-action",
      ])
  }

  @Test func theSeedsAllowedCallSitesAreNot() {
    let source = """
      switch action {
      case ._internal(.userSettings(.delegate)):
        break
      case ._internal(.dataLoaded):
        break
      case ._internal(.subset(.ignore)):
        break
      case let ._internal(.subset(action)):
        break
      case ._internal(.userSettings), ._internal(.tasks):
        break
      default:
        break
      }
      """
    #expect(findings(source) == [])
  }

  @Test func multiLineLetBoundAndQualifiedPatterns() {
    let source = """
      switch action {
      case ._internal(
        .userSettings(
          .view(let action)
        )
      ):
        break
      case let ._internal(.userSettings(.view(.toggled(isOn)))):
        break
      case ._internal(.userSettings(let .view(action))):
        break
      case AppFeature.Action._internal(.userSettings(UserSettingsFeature.Action.view(_))):
        break
      case Action._internal(UserSettingsFeature.Action.InternalAction.userSettings(._internal(.loaded))):
        break
      default:
        break
      }
      """
    #expect(
      findings(source) == [
        "4:6 parent-reacts-to-private-child-action",
        "8:36 parent-reacts-to-private-child-action",
        "10:36 parent-reacts-to-private-child-action",
        "12:75 parent-reacts-to-private-child-action",
        "14:79 parent-reacts-to-private-child-action",
      ])
  }

  @Test func ifGuardAndForCaseAndSwitchesInClosures() {
    let source = """
      if case ._internal(.userSettings(.view)) = action {}
      guard case let ._internal(.tasks(.view(.rowTapped(id)))) = action else { return }
      for case ._internal(.tasks(._internal)) in actions {}
      let reducer = Reduce { state, action in
        switch action {
        case ._internal(.tasks(.view(.onAppear))): return .none
        default: return .none
        }
      }
      """
    #expect(
      findings(source) == [
        "1:35 parent-reacts-to-private-child-action",
        "2:35 parent-reacts-to-private-child-action",
        "3:29 parent-reacts-to-private-child-action",
        "6:27 parent-reacts-to-private-child-action",
      ])
  }

  @Test func childrenInPresentationAndIdentifiedActions() {
    let source = """
      switch action {
      case ._internal(.destination(.presented(.view(.saveTapped)))): break
      case ._internal(.destination(.presented(.delegate(.saved)))): break
      case ._internal(.destination(.dismiss)): break
      case ._internal(.rows(.element(id: _, action: .view(.toggled)))): break
      case let ._internal(.rows(.element(id: id, action: .delegate(.deleted)))): break
      default: break
      }
      """
    #expect(
      findings(source) == [
        "2:42 parent-reacts-to-private-child-action",
        "5:48 parent-reacts-to-private-child-action",
      ])
  }

  @Test func aSwitchOverTheInternalActionsNamesChildrenWithoutTheInternalCase() {
    // As in `reduce(into:internalAction:)` of a `ComposedBoundingReducer`.
    let source = """
      switch action {
      case .child(.view(.buttonTapped)): break
      case .child(.delegate(.didFinish)): break
      case .loaded(.success(let value)): break
      case .child: break
      }
      """
    #expect(findings(source) == ["2:14 parent-reacts-to-private-child-action"])
  }

  @Test func grandchildDelegatesAreOneFindingOfTheirOwn() {
    let source = """
      switch action {
      case ._internal(.child(._internal(.grandchild(.delegate(.didFinish))))): break
      case .child(._internal(.grandchild(.delegate))): break
      case ._internal(.a(._internal(.b(._internal(.c(.delegate(.done))))))): break
      case ._internal(.child(._internal(.grandchild(.view)))): break
      case ._internal(.child(.delegate(.didFinish))): break
      default: break
      }
      """
    #expect(
      findings(source) == [
        "2:48 ancestor-reacts-to-grandchild-delegate",
        "3:37 ancestor-reacts-to-grandchild-delegate",
        "4:49 ancestor-reacts-to-grandchild-delegate",
        "5:25 parent-reacts-to-private-child-action",
      ])
  }

  @Test func commentsAndStringsAreNeverFindings() {
    let source = #"""
      // case ._internal(.userSettings(.view(action))):
      /* case ._internal(.userSettings(.view)): */
      /// `case ._internal(.userSettings(._internal))`
      let pattern = "case ._internal(.userSettings(.view(action))):"
      let multiline = """
        case ._internal(.userSettings(.view)):
        store.send(._internal(.refresh))
        """
      let raw = #"case ._internal(.tasks(.view)): \(store.send(.delegate(.x)))"#
      print("\(store.send(._internal(.loaded)))")
      """#
    #expect(findings(source) == [])
  }

  @Test func aDisableCommentSilencesTheNamedRuleOnTheNextLineOnly() {
    let source = """
      switch action {
      // tcatrace:disable:next-line parent-reacts-to-private-child-action
      case ._internal(.userSettings(.view(action))): break
      // tcatrace:disable:next-line ancestor-reacts-to-grandchild-delegate
      case ._internal(.tasks(.view)): break
      case ._internal(.tasks(._internal)): break // tcatrace:disable:next-line parent-reacts-to-private-child-action
      case ._internal(.tasks(.view(.onAppear))): break

      case ._internal(.tasks(.view(.onDisappear))): break
      default: break
      }
      """
    // NB: The comment on line 4 names a rule not broken on line 5: it silences nothing.
    #expect(
      findings(source) == [
        "4:1 unused-suppression",
        "5:25 parent-reacts-to-private-child-action",
        "6:25 parent-reacts-to-private-child-action",
        "9:25 parent-reacts-to-private-child-action",
      ])
  }

  @Test func rulesCanBeChosen() {
    let source = """
      switch action {
      case ._internal(.child(._internal(.grandchild(.delegate)))): break
      case ._internal(.child(.view)): break
      default: break
      }
      """
    #expect(
      findings(source, rules: [.ancestorReactsToGrandchildDelegate]) == [
        "2:48 ancestor-reacts-to-grandchild-delegate"
      ])
    #expect(findings(source, rules: [.effectSendsViewAction]) == [])
  }

  @Test func findingsSayWhatWasMatchedAndWhatToDo() {
    let found = BoundaryLinter.lint(
      source:
        "switch action {\ncase ._internal(.userSettings(.view(.tapped))): break\ndefault: break\n}",
      file: "Sources/Parent.swift"
    )
    #expect(
      found.map(\.description) == [
        "Sources/Parent.swift:2:32: error: '._internal(.userSettings(.view))' matches a view action of the child 'userSettings'; a parent reacts only to its children's delegate actions [parent-reacts-to-private-child-action]"
      ])
  }
}
