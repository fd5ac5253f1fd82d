/// The boundary category of an action, at one level of its path or at the feature that owns it.
public enum ActionCategory: String, CaseIterable, Codable, Sendable {
  /// Sent by the feature's view: private to the feature.
  case view
  /// Handled inside the feature: effect responses and embedded children. Private to the feature.
  case `internal`
  /// Told to the feature's parent.
  case delegate
  /// A case of a plain action enum without boundaries.
  case unclassified

  /// The category a case name stands for: `view`, `_internal`/`internal`, `delegate`.
  package init?(caseName: String) {
    switch caseName {
    case "view": self = .view
    case "_internal", "internal": self = .internal
    case "delegate": self = .delegate
    default: return nil
    }
  }
}
