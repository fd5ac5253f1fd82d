import IssueReporting

extension Reducer {
  /// Runs an element reducer on each element of a collection of child features, for the
  /// actions addressed to that element's id.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .forEach(\.rows, action: \.rows) {
  ///       TodoRowFeature()
  ///     }
  /// }
  /// ```
  ///
  /// The element runs before this reducer. An element's running effects are cancelled when the
  /// parent removes it. An action for an id that is not in the collection is reported as an
  /// issue.
  ///
  /// - Parameters:
  ///   - toElementsState: A key path to the identified array of element states.
  ///   - toElementAction: A case key path to the ``IdentifiedAction`` of the elements.
  ///   - element: The element reducer.
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    self.forEach(
      toElementsState, toElementAction: AnyCasePath(toElementAction), element: element(),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// ``forEach(_:action:element:fileID:filePath:line:column:)`` with a type-erased case path.
  package func forEach<ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, Element.State>>,
    toElementAction: AnyCasePath<Action, IdentifiedAction<ID, Element.Action>>,
    element: Element,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) -> _ForEachReducer<Self, ID, Element> {
    _ForEachReducer(
      parent: self,
      element: element,
      toElementsState: toElementsState,
      toElementAction: toElementAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// A reducer with a collection of child features; built by ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)``.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  let parent: Parent
  let element: Element
  let toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  let toElementAction: AnyCasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  let location: SourceLocation

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let elementEffect = self.reduceElement(into: &state, action: action)
    let idsBefore = state[keyPath: self.toElementsState].ids
    let parentEffect = self.parent.reduce(into: &state, action: action)
    let idsAfter = state[keyPath: self.toElementsState].ids
    // NB: Only a shrinking collection is searched for removed ids, so the cost of an action
    // does not grow with the collection's size.
    var cancelEffect = Effect<Parent.Action>.none
    if idsAfter.count < idsBefore.count {
      cancelEffect = .merge(
        idsBefore.subtracting(idsAfter).map { .cancel(id: self.cancelID(for: $0)) }
      )
    }
    return elementEffect.merge(with: parentEffect).merge(with: cancelEffect)
  }

  private func cancelID(for id: ID) -> KeyPathID {
    KeyPathID(keyPath: self.toElementsState, elementID: ActionRoute.ElementID(id))
  }

  private func reduceElement(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard case let .element(id, elementAction) = self.toElementAction.extract(from: action)
    else { return .none }
    guard state[keyPath: self.toElementsState][id: id] != nil else {
      reportIssue(
        """
        A "forEach" at "\(self.location.fileID):\(self.location.line)" received an action for \
        a missing element:

          Action: \(String(reflecting: action))

        The parent removed the element before its action was sent, or the action was sent to \
        a store scoped to an element that is no longer in the collection.
        """,
        fileID: self.location.fileID,
        filePath: self.location.filePath,
        line: self.location.line,
        column: self.location.column
      )
      return .none
    }
    let route = ActionRoute(
      keyPath: self.toElementsState, kind: .element(id: ActionRoute.ElementID(id))
    )
    let effect = ActionRouting.route(route) {
      self.element.reduce(
        into: &state[keyPath: self.toElementsState][id: id]!, action: elementAction)
    }
    let toElementAction = self.toElementAction
    return
      effect
      .map { toElementAction.embed(.element(id: id, action: $0)) }
      .cancellable(id: self.cancelID(for: id))
  }
}
