/// The action of an optional child feature presented by its parent: the child's own actions, or
/// the parent dismissing it.
///
/// ```swift
/// case settings(PresentationAction<SettingsFeature.Action>)
/// …
/// .ifLet(\.settings, action: \.settings) { SettingsFeature() }
/// ```
public enum PresentationAction<Action> {
  /// An action of the presented child.
  case presented(Action)
  /// Dismisses the child: `ifLet` sets its state to `nil` after the parent has seen this action.
  case dismiss
}

// NB: Written out, as TCA's is, rather than by `@CasePathable`: besides `\.presented` and
// `\.dismiss`, a case key path goes through `presented` to the child's cases,
// `\.alert.confirmTapped` for `\.alert.presented.confirmTapped`, as tests send and receive them.
extension PresentationAction: CasePathable {
  public static var allCasePaths: AllCasePaths { AllCasePaths() }

  /// The case paths of a presentation action: its two cases, and the child's cases through
  /// `presented`.
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    /// The child's action.
    public var presented: AnyCasePath<PresentationAction, Action> {
      AnyCasePath(
        embed: { .presented($0) },
        extract: {
          guard case let .presented(action) = $0 else { return nil }
          return action
        }
      )
    }

    /// The dismissal.
    public var dismiss: AnyCasePath<PresentationAction, Void> {
      AnyCasePath(
        embed: { .dismiss },
        extract: {
          guard case .dismiss = $0 else { return nil }
          return ()
        }
      )
    }

    /// A case of the child's action, presented: `\.alert.confirmTapped`.
    public subscript<AppendedAction>(
      dynamicMember keyPath: CaseKeyPath<Action, AppendedAction>
    ) -> AnyCasePath<PresentationAction, AppendedAction>
    where Action: CasePathable {
      Self.presented(AnyCasePath(keyPath))
    }

    /// A case of the child's action as a presentation action of its own, dismissal included.
    @_disfavoredOverload
    public subscript<AppendedAction>(
      dynamicMember keyPath: CaseKeyPath<Action, AppendedAction>
    ) -> AnyCasePath<PresentationAction, PresentationAction<AppendedAction>>
    where Action: CasePathable {
      Self.presentedOrDismissed(AnyCasePath(keyPath))
    }

    // NB: The closures are made where `Action` has no requirement: a `@Sendable` closure made
    // where `Action: CasePathable` captures that conformance, and with it `Action`'s metatype,
    // which need not be `Sendable` (Swift 6.2's `SendableMetatype` warns of it).
    private static func presented<AppendedAction>(
      _ child: AnyCasePath<Action, AppendedAction>
    ) -> AnyCasePath<PresentationAction, AppendedAction> {
      AnyCasePath(
        embed: { .presented(child.embed($0)) },
        extract: {
          guard case let .presented(action) = $0 else { return nil }
          return child.extract(from: action)
        }
      )
    }

    private static func presentedOrDismissed<AppendedAction>(
      _ child: AnyCasePath<Action, AppendedAction>
    ) -> AnyCasePath<PresentationAction, PresentationAction<AppendedAction>> {
      AnyCasePath(
        embed: {
          switch $0 {
          case .dismiss: .dismiss
          case let .presented(action): .presented(child.embed(action))
          }
        },
        extract: {
          switch $0 {
          case .dismiss: .dismiss
          case let .presented(action): child.extract(from: action).map { .presented($0) }
          }
        }
      )
    }
  }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
extension PresentationAction: Decodable where Action: Decodable {}
extension PresentationAction: Encodable where Action: Encodable {}
