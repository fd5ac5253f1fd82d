/// The action of one element of a collection of child features, identified by the element's id.
///
/// ```swift
/// case rows(IdentifiedActionOf<TodoRowFeature>)
/// …
/// .forEach(\.rows, action: \.rows) { TodoRowFeature() }
/// ```
@CasePathable
public enum IdentifiedAction<ID: Hashable & Sendable, Action> {
  /// An action of the element with this id.
  case element(id: ID, action: Action)
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}
extension IdentifiedAction: Decodable where ID: Decodable, Action: Decodable {}
extension IdentifiedAction: Encodable where ID: Encodable, Action: Encodable {}

/// The ``IdentifiedAction`` of a feature whose state is `Identifiable`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable

extension IdentifiedAction.AllCasePaths {
  /// A case path to the action of the element with `id`: `\.rows[id: 3]`.
  public subscript(id id: ID) -> AnyCasePath<IdentifiedAction, Action> {
    AnyCasePath(
      embed: { .element(id: id, action: $0) },
      extract: {
        guard case let .element(elementID, action) = $0, elementID == id else { return nil }
        return action
      }
    )
  }
}
