#if canImport(SwiftUI)
  import SwiftUI
#endif

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

/// A type with a ``Store`` whose actions have view actions, that sends them without `.view(…)`;
/// the ``ViewAction(for:)`` macro conforms a type to it.
///
/// ```swift
/// @ViewAction(for: LoginFeature.self)
/// struct LoginView {
///   let store: StoreOf<LoginFeature>
///   func loginButtonTapped() {
///     send(.loginButtonTapped)   // store.send(.view(.loginButtonTapped))
///   }
/// }
/// ```
public protocol ViewActionSending<StoreState, StoreAction> {
  associatedtype StoreState
  associatedtype StoreAction: ViewAction
  @preconcurrency @MainActor var store: Store<StoreState, StoreAction> { get }
}

extension ViewActionSending {
  /// Sends a view action to the store.
  @discardableResult
  @MainActor
  public func send(_ action: StoreAction.ViewAction) -> StoreTask {
    self.store.send(.view(action))
  }

  /// Sends a view action to the store with `animation`, as ``Store/send(_:animation:)`` does.
  @discardableResult
  @MainActor
  public func send(_ action: StoreAction.ViewAction, animation: Animation?) -> StoreTask {
    self.store.send(.view(action), animation: animation)
  }

  /// Sends a view action to the store in `transaction`, as ``Store/send(_:transaction:)`` does.
  @discardableResult
  @MainActor
  public func send(_ action: StoreAction.ViewAction, transaction: Transaction) -> StoreTask {
    self.store.send(.view(action), transaction: transaction)
  }
}
