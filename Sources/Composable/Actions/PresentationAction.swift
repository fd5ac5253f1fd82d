/// The action of an optional child feature presented by its parent: the child's own actions, or
/// the parent dismissing it.
///
/// ```swift
/// case settings(PresentationAction<SettingsFeature.Action>)
/// …
/// .ifLet(\.settings, action: \.settings) { SettingsFeature() }
/// ```
@CasePathable
public enum PresentationAction<Action> {
  /// An action of the presented child.
  case presented(Action)
  /// Dismisses the child: `ifLet` sets its state to `nil` after the parent has seen this action.
  case dismiss
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
extension PresentationAction: Decodable where Action: Decodable {}
extension PresentationAction: Encodable where Action: Encodable {}
