import CustomDump
import RuntimeSupport

/// An action that sets one field of a feature's state, as a SwiftUI binding would.
///
/// ```swift
/// enum ViewAction: Equatable {
///   case binding(BindingAction<State>)
/// }
/// store.send(.view(.binding(.set(\.displayName, "Blob"))))
/// ```
///
/// ``BindingReducer`` applies it to the state.
public struct BindingAction<Root>: Equatable, Sendable, CustomDebugStringConvertible,
  CustomDumpStringConvertible
{
  /// The field the action sets.
  public let keyPath: any PartialKeyPath<Root> & Sendable
  /// The new value.
  public let value: any Sendable
  private let setter: @Sendable (inout Root) -> Void
  private let isEqualValue: @Sendable (any Sendable) -> Bool

  /// An action that sets the field at `keyPath` to `value`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: any WritableKeyPath<Root, Value> & Sendable,
    _ value: Value
  ) -> Self {
    Self(
      keyPath: keyPath,
      value: value,
      setter: { $0[keyPath: keyPath] = value },
      isEqualValue: { ($0 as? Value) == value }
    )
  }

  /// Sets the field in `root`.
  public func apply(to root: inout Root) {
    self.setter(&root)
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.isEqualValue(rhs.value)
  }

  public var debugDescription: String {
    ".set(\\.\(KeyPathNames.name(of: self.keyPath)), \(String(reflecting: self.value)))"
  }

  /// `.set(\.displayName, "Blob")`, as CustomDump renders it in diffs and traces.
  public var customDumpDescription: String {
    ".set(\\.\(KeyPathNames.name(of: self.keyPath)), \(String(customDumping: self.value)))"
  }
}

extension BindingAction {
  /// Matches a binding action that sets the field at `keyPath`: `case .binding(\.displayName):`.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, bindingAction: Self) -> Bool
  {
    (bindingAction.keyPath as AnyKeyPath) == (keyPath as AnyKeyPath)
  }
}

/// An action that can carry a ``BindingAction`` in its `binding` case:
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case saveButtonTapped
/// }
/// ```
public protocol BindableAction {
  /// The state the binding actions set.
  associatedtype State

  /// Embeds a binding action.
  static func binding(_ action: BindingAction<State>) -> Self

  /// The binding action this action carries, if any.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  public var binding: BindingAction<State>? {
    // NB: The `binding` case is the only one whose payload is a `BindingAction<State>`.
    Mirror(reflecting: self).children.first?.value as? BindingAction<State>
  }
}

/// A binding action is bindable by itself, so that `BindingReducer(action: \.view.binding)`
/// reads it at any case path.
extension BindingAction: BindableAction {
  public typealias State = Root

  public static func binding(_ action: Self) -> Self {
    action
  }

  public var binding: Self? {
    self
  }
}

/// Applies the ``BindingAction``s of a feature to its state.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()                 // Action: BindableAction
///   Reduce { state, action in … }
/// }
/// ```
///
/// `BindingReducer(action: \.view)` reads them from a bindable view action, and
/// `BindingReducer(action: \.view.binding)` from any case path to a binding action.
public struct BindingReducer<State, Action, ViewAction: BindableAction>: Reducer
where State == ViewAction.State {
  @usableFromInline
  let toViewAction: (Action) -> ViewAction?

  /// Applies the binding actions of a bindable `Action`.
  public init() where Action == ViewAction {
    self.toViewAction = { $0 }
  }

  /// Applies the binding actions found at `toViewAction`.
  public init(action toViewAction: CaseKeyPath<Action, ViewAction>) {
    let toViewAction = AnyCasePath(toViewAction)
    self.toViewAction = { toViewAction.extract(from: $0) }
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.toViewAction(action)?.binding?.apply(to: &state)
    return .none
  }
}

/// A binding action's case paths, one per field of an `@ObservableState` root, as TCA's:
/// `\.binding.displayName` matches `.binding(.set(\.displayName, …))`, and
/// `action[case: \.displayName]` reads the value it sets.
extension BindingAction: CasePathable {
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    public init() {}
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension BindingAction.AllCasePaths where Root: ObservableState {
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<Root, Value>
  ) -> AnyCasePath<BindingAction, Value> {
    // NB: Key paths are immutable; one formed from a literal is always safe to share.
    BindingAction.casePath(
      unsafeBitCast(keyPath, to: (any WritableKeyPath<Root, Value> & Sendable).self))
  }
}

extension BindingAction {
  // NB: Made where `Root` has no requirement: a `@Sendable` closure made where
  // `Root: ObservableState` captures that conformance, and with it `Root`'s metatype, which
  // need not be `Sendable` (Swift 6.2's `SendableMetatype` warns of it).
  fileprivate static func casePath<Value: Equatable & Sendable>(
    _ keyPath: any WritableKeyPath<Root, Value> & Sendable
  ) -> AnyCasePath<BindingAction, Value> {
    AnyCasePath(
      embed: { .set(keyPath, $0) },
      extract: { $0.keyPath as AnyKeyPath == keyPath as AnyKeyPath ? $0.value as? Value : nil }
    )
  }
}
