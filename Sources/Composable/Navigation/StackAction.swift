/// An action of a navigation stack: an element's own action, or the stack changing.
///
/// ```swift
/// case path(StackActionOf<Path>)
/// …
/// case let .path(.element(id: id, action: .detail(.saveButtonTapped))):
/// ```
@CasePathable
public enum StackAction<State, Action> {
  /// An action of the element with `id`.
  indirect case element(id: StackElementID, action: Action)
  /// Pops the element with `id` and every element above it, after the parent has seen this.
  case popFrom(id: StackElementID)
  /// Pushes `state` with `id`, after the parent has seen this.
  indirect case push(id: StackElementID, state: State)
}

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}

/// The ``StackAction`` of a feature: `StackActionOf<Path>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction.AllCasePaths {
  /// A case path to the action of the element with `id`: `\.path[id: id]`.
  public subscript(id id: StackElementID) -> AnyCasePath<StackAction, Action> {
    AnyCasePath(
      embed: { .element(id: id, action: $0) },
      extract: {
        guard case let .element(elementID, action) = $0, elementID == id else { return nil }
        return action
      }
    )
  }
}
