extension Reducer {
  /// Sets one dependency for this reducer and the effects it returns.
  ///
  /// ```swift
  /// Scope(state: \.feature, action: \.feature) {
  ///   Feature()
  ///     .dependency(\.apiClient, .mock)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The dependency to set.
  ///   - value: Its value while this reducer and its effects run.
  @inlinable
  @warn_unqualified_access
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Sets the dependency registered by the type of `value` (a `TestDependencyKey` that is its own
  /// value) for this reducer and its effects.
  @inlinable
  @warn_unqualified_access
  public func dependency<Value: TestDependencyKey>(
    _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> where Value.Value == Value {
    _DependencyKeyWritingReducer(base: self) { $0[Value.self] = value }
  }

  /// Changes one dependency, starting from its current value, for this reducer and its effects.
  ///
  /// ```swift
  /// Feature()
  ///   .transformDependency(\.apiClient) { apiClient in
  ///     apiClient.fetchTodos = { [] }
  ///   }
  /// ```
  ///
  /// `transform` runs for every action the reducer receives: keep it cheap.
  @inlinable
  @warn_unqualified_access
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    transform: @escaping (_ dependency: inout Value) -> Void
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { transform(&$0[keyPath: keyPath]) }
  }
}

/// A reducer that runs its base, and the effects the base returns, with changed dependencies;
/// built by ``Reducer/dependency(_:_:)`` and ``Reducer/transformDependency(_:transform:)``.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  @usableFromInline
  let base: Base

  @usableFromInline
  let update: (inout DependencyValues) -> Void

  @usableFromInline
  init(base: Base, update: @escaping (inout DependencyValues) -> Void) {
    self.base = base
    self.update = update
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    // NB: `Effect.run` captures the dependencies it is created with, so the effects the base
    // returns keep these values when they run later.
    withDependencies(self.update) {
      self.base.reduce(into: &state, action: action)
    }
  }

  /// Chained calls change the dependencies in one step.
  @inlinable
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> Self {
    let update = self.update
    return Self(base: self.base) { values in
      values[keyPath: keyPath] = value
      update(&values)
    }
  }

  /// Chained calls change the dependencies in one step.
  @inlinable
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    transform: @escaping (inout Value) -> Void
  ) -> Self {
    let update = self.update
    return Self(base: self.base) { values in
      transform(&values[keyPath: keyPath])
      update(&values)
    }
  }
}
