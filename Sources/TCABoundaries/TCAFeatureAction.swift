/// The action of a feature built with action boundaries: what its view may send, what it
/// handles inside, and what it tells its parent.
///
/// Enum cases witness the requirements:
///
/// ```swift
/// @CasePathable
/// enum Action: TCAFeatureAction {
///   @CasePathable
///   enum ViewAction: Equatable { case loginButtonTapped }
///   @CasePathable
///   enum InternalAction: Equatable { case loginResponse(Result<User, APIError>) }
///   @CasePathable
///   enum DelegateAction: Equatable { case didLogin(User) }
///
///   case view(ViewAction)
///   case delegate(DelegateAction)
///   case _internal(InternalAction)
/// }
/// ```
///
/// View and internal actions are private to the feature. A parent embeds a child's action in
/// its own `InternalAction`, and reacts only to the child's delegate actions.
///
/// The conformance may not be isolated to a global actor (`SendableMetatype`): reducers and
/// recorders take actions apart by their cases from any thread.
public protocol TCAFeatureAction: FeatureActionMetatype {
  /// What the feature's view sends: taps, appearances, field edits.
  associatedtype ViewAction
  /// What the feature tells its parent.
  associatedtype DelegateAction
  /// What the feature handles inside: effect responses and embedded children.
  associatedtype InternalAction

  static func view(_ action: ViewAction) -> Self
  static func delegate(_ action: DelegateAction) -> Self
  static func _internal(_ action: InternalAction) -> Self
}

/// A ``TCAFeatureAction`` taken apart by its boundary category.
public enum ActionBoundary<ViewAction, InternalAction, DelegateAction> {
  case view(ViewAction)
  case _internal(InternalAction)
  case delegate(DelegateAction)
}

extension TCAFeatureAction {
  /// The action's boundary category and its payload.
  ///
  /// ```swift
  /// switch action.boundary {
  /// case let .view(action): …
  /// case let ._internal(action): …
  /// case let .delegate(action): …
  /// }
  /// ```
  public var boundary: ActionBoundary<ViewAction, InternalAction, DelegateAction> {
    let casePaths = BoundaryCasePaths<Self>.shared
    if let action = casePaths.view.extract(from: self) { return .view(action) }
    if let action = casePaths.internal.extract(from: self) { return ._internal(action) }
    if let action = casePaths.delegate.extract(from: self) { return .delegate(action) }
    preconditionFailure(
      """
      '\(Self.self)' is not one of its 'view', '_internal' or 'delegate' cases: \
      \(String(reflecting: self)). A 'TCAFeatureAction' must be an enum with exactly these \
      three cases.
      """
    )
  }
}

#if compiler(>=6.2)
  public typealias FeatureActionMetatype = SendableMetatype
#else
  public typealias FeatureActionMetatype = Any
#endif
