/// A boundary rule that can be seen in source code, without running it.
public enum LintRule: String, CaseIterable, Sendable, Comparable {
  /// A parent matches a child's `view` or internal action.
  case childPrivateActionAccess = "child-private-action-access"
  /// A parent's reducer or effects send an embedded child's `view` or internal action.
  case childPrivateActionSent = "child-private-action-sent"
  /// A feature matches the delegate action of a feature two or more embeddings down.
  case grandchildDelegateAccess = "grandchild-delegate-access"
  /// An effect sends a view action.
  case viewActionFromEffect = "view-action-from-effect"
  /// Code outside a reducer or effect (a view, a test, a coordinator) sends an internal or a
  /// delegate action.
  case privateActionSentFromView = "private-action-sent-from-view"
  /// A suppression comment silences nothing (see the README's "Lint"): its rule is not broken
  /// where it applies, or it names no rule.
  case unusedSuppression = "unused-suppression"

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
    case .childPrivateActionAccess:
      "A parent reacts only to the delegate actions of the features it embeds, never to their view or internal actions."
    case .grandchildDelegateAccess:
      "A feature reacts only to its direct children's delegate actions, not to a grandchild's."
    case .viewActionFromEffect:
      "View actions come from the view; an effect sends internal actions."
    case .privateActionSentFromView:
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
