import ActionObservation
import RuntimeSupport

/// The case paths of a ``TCAFeatureAction``'s three categories, built once per action type.
///
/// NB: The protocol's requirements are embed functions, which enum cases witness. Extracting
/// needs a case path; one is derived from each embed function by reflection, and kept, because
/// deriving it costs far more than using it.
struct BoundaryCasePaths<Action: TCAFeatureAction>: @unchecked Sendable {
  // NB: `@unchecked`: the case paths only capture the action type's embed functions.
  let view: AnyCasePath<Action, Action.ViewAction>
  let `internal`: AnyCasePath<Action, Action.InternalAction>
  let delegate: AnyCasePath<Action, Action.DelegateAction>

  static var shared: Self {
    let key = ObjectIdentifier(Action.self)
    if let cached = boundaryCasePathsCache.withLock({ $0[key] }) as? Self { return cached }
    let casePaths = Self(
      view: AnyCasePath(unsafe: { Action.view($0) }),
      internal: AnyCasePath(unsafe: { Action._internal($0) }),
      delegate: AnyCasePath(unsafe: { Action.delegate($0) })
    )
    boundaryCasePathsCache.withLock { $0[key] = casePaths }
    return casePaths
  }
}

// NB: One cache for every action type: a static stored property cannot be generic.
private let boundaryCasePathsCache = Locked<[ObjectIdentifier: Any]>([:])
