/// A boundary rule of DESIGN.md that an action broke.
public enum LeakRule: String, CaseIterable, Codable, Hashable, Sendable {
  /// A feature reacted to a child's view or internal action: it changed state outside the
  /// child's, or returned an effect.
  case parentReactsToPrivateChildAction = "parent-reacts-to-private-child-action"
  /// A feature reacted to the delegate action of a child two or more levels down.
  case ancestorReactsToGrandchildDelegate = "ancestor-reacts-to-grandchild-delegate"
  /// An effect sent a view action; only the view sends those.
  case effectSendsViewAction = "effect-sends-view-action"
  /// Something outside the store sent an internal or delegate action.
  case viewSendsPrivateAction = "view-sends-private-action"
}

/// One broken boundary rule: which rule, which feature broke it, and what it did.
public struct Leak: Hashable, Sendable {
  public var rule: LeakRule
  /// The path of the feature that broke the rule; empty for the root feature.
  public var feature: String
  /// What changed, or what was sent, in words.
  public var detail: String

  public init(rule: LeakRule, feature: String, detail: String) {
    self.rule = rule
    self.feature = feature
    self.detail = detail
  }
}
