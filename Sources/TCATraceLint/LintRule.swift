/// A boundary rule that can be seen in source code, without running it.
///
/// A rule a running app can break too has the name the trace gives it (``LeakRule`` in
/// TCATraceFile): `effect-sends-view-action` is one rule, whether the linter or the recorder
/// finds it.
public enum LintRule: String, CaseIterable, Sendable, Comparable {
  /// A parent matches a child's `view` or internal action.
  case parentReactsToPrivateChildAction = "parent-reacts-to-private-child-action"
  /// A parent's reducer or effects send an embedded child's `view` or internal action.
  case childPrivateActionSent = "child-private-action-sent"
  /// A feature matches the delegate action of a feature two or more embeddings down.
  case ancestorReactsToGrandchildDelegate = "ancestor-reacts-to-grandchild-delegate"
  /// An effect sends a view action.
  case effectSendsViewAction = "effect-sends-view-action"
  /// Code outside a reducer or effect (a view, a test, a coordinator) sends an internal or a
  /// delegate action.
  case viewSendsPrivateAction = "view-sends-private-action"
  /// A suppression comment silences nothing (see the README's "Lint"): its rule is not broken
  /// where it applies, or it names no rule.
  case unusedSuppression = "unused-suppression"

  /// The rule `name` names: its name, or its former name (``formerNames``).
  public init?(name: String) {
    guard let rule = Self(rawValue: name) ?? Self.formerNames[name] else { return nil }
    self = rule
  }

  /// The names the linter gave, until December 2026, the four rules a trace also finds, which
  /// now take the trace's names (as `tcatrace leaks` and the `leaks` table give them): still
  /// read wherever a rule is named, in `.tcatrace-lint.yml`, `--rule`, suppression comments and
  /// baselines.
  public static let formerNames: [String: LintRule] = [
    "child-private-action-access": .parentReactsToPrivateChildAction,
    "grandchild-delegate-access": .ancestorReactsToGrandchildDelegate,
    "view-action-from-effect": .effectSendsViewAction,
    "private-action-sent-from-view": .viewSendsPrivateAction,
  ]

  /// The rules of the boundaries pattern: all but ``unusedSuppression``.
  public static var boundaryRules: [LintRule] {
    Self.allCases.filter { $0 != .unusedSuppression }
  }

  /// How a finding of the rule is reported: the boundary rules' as errors, an unused
  /// suppression as a warning.
  public var severity: LintSeverity {
    self == .unusedSuppression ? .warning : .error
  }

  /// What the rule forbids, in one line.
  public var summary: String {
    switch self {
    case .parentReactsToPrivateChildAction:
      "A parent reacts only to the delegate actions of the features it embeds, never to their view or internal actions."
    case .ancestorReactsToGrandchildDelegate:
      "A feature reacts only to its direct children's delegate actions, not to a grandchild's."
    case .effectSendsViewAction:
      "View actions come from the view; an effect sends internal actions."
    case .viewSendsPrivateAction:
      "Outside a feature's reducer and effects, send only its view actions."
    case .childPrivateActionSent:
      "A parent's reducer and effects never send the view or internal actions of the features it embeds."
    case .unusedSuppression:
      "A tcatrace-lint:disable comment silences a finding of the rule it names where it applies; one that silences nothing is removed."
    }
  }

  public static func < (lhs: LintRule, rhs: LintRule) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}

/// How a finding is reported: a warning does not fail the lint (exit 0), an error does (exit 1).
public enum LintSeverity: String, Sendable, Equatable {
  case warning
  case error
}

/// One place where the source breaks a rule.
public struct LintFinding: Equatable, Hashable, Sendable {
  /// The file, as it was given (a path, or the name given to ``BoundaryLinter/lint(source:file:rules:)``).
  public var file: String
  /// 1-based line and column (columns count UTF-8 bytes, as compilers do).
  public var line: Int
  public var column: Int
  public var rule: LintRule
  public var message: String
  /// How it is reported: its rule's own severity unless a configuration says otherwise.
  public var severity: LintSeverity

  public init(
    file: String, line: Int, column: Int, rule: LintRule, message: String,
    severity: LintSeverity? = nil
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.rule = rule
    self.message = message
    self.severity = severity ?? rule.severity
  }

  /// `file:line:column: error: message [rule]` (or `warning:`).
  public var description: String {
    "\(self.file):\(self.line):\(self.column): \(self.severity.rawValue): \(self.message) [\(self.rule.rawValue)]"
  }
}
