import CustomDump

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

/// Applies the ``BindingAction``s found at a case path of the feature's action.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer(action: \.view.binding)
///   Reduce { state, action in … }
/// }
/// ```
public struct BindingReducer<State, Action>: Reducer {
  @usableFromInline
  let toBindingAction: AnyCasePath<Action, BindingAction<State>>

  /// Creates a reducer that applies the binding actions at `toBindingAction`.
  public init(action toBindingAction: CaseKeyPath<Action, BindingAction<State>>) {
    self.toBindingAction = AnyCasePath(toBindingAction)
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.toBindingAction.extract(from: action)?.apply(to: &state)
    return .none
  }
}
