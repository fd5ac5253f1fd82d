import ActionObservation
import RuntimeSupport
/// The state of an optional child feature that its parent presents: a sheet, a pushed screen, an
/// alert. `@Presents var destination: Destination.State?` keeps it.
///
/// ```swift
/// @ObservableState
/// struct State {
///   @Presents var destination: Destination.State?
/// }
/// …
/// .ifLet(\.$destination, action: \.destination)
/// ```
///
/// It reads as the optional it holds: its mirror is the optional's, so CustomDump and the
/// recorder show the child's state, not the wrapper.
@propertyWrapper
public struct PresentationState<State> {
  /// The presented child's state, or `nil` when nothing is presented.
  public var wrappedValue: State?

  public init(wrappedValue: State?) {
    self.wrappedValue = wrappedValue
  }

  /// The presentation state itself: `$destination`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// A value of the presented child's state, if one is presented.
  public subscript<Case>(case path: CaseKeyPath<State, Case>) -> Case?
  where State: CasePathable {
    get { self.wrappedValue.flatMap { $0[case: path] } }
    set {
      guard let newValue, self.wrappedValue?[case: path] != nil else { return }
      self.wrappedValue = path(newValue)
    }
  }
}

extension PresentationState: Equatable where State: Equatable {}
extension PresentationState: Hashable where State: Hashable {}
extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Codable where State: Codable {
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try State?(from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    try self.wrappedValue.encode(to: encoder)
  }
}

extension PresentationState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(reflecting: self.wrappedValue as Any)
  }
}

extension PresentationState: _TransparentStateWrapper, _StateWrapperType {
  package var wrappedState: Any { self.wrappedValue as Any }
  package static var wrappedStateType: Any.Type { State.self }
  package static var readsAsOptional: Bool { true }
}
