/// An action whose view actions are in a `view` case: `enum Action: ViewAction`.
///
/// ```swift
/// enum Action: ViewAction {
///   case loginResponse(Bool)
///   case view(View)
///   enum View { case loginButtonTapped }
/// }
/// ```
public protocol ViewAction<ViewAction> {
  associatedtype ViewAction
  static func view(_ action: ViewAction) -> Self
}
