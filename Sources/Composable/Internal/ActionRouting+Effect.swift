import ActionObservation

extension ActionRouting {
  /// Runs `body`, a child reducer's call, as a step of the route (see ``ActionRouting``).
  @inline(__always)
  static func route<Action>(
    _ route: @autoclosure () -> ActionRoute,
    _ body: () -> Effect<Action>
  ) -> Effect<Action> {
    self.route(route(), effectCount: { $0.operation.count }, body)
  }
}

/// Runs `body`, a reducer call, while collecting the route `Scope`, `ifLet` and `forEach` take;
/// for reducer modifiers that observe actions themselves.
///
/// - Returns: The effect `body` returned, the route from the root down, and the effects each
///   reducer along the route returned itself (see ``ActionEvent/ownEffectCounts``).
package func collectingActionRoute<Action>(
  _ body: () -> Effect<Action>
) -> (effect: Effect<Action>, route: [ActionRoute], ownEffectCounts: [Int]) {
  let (effect, route, counts) = collectingActionRoute(body, effectCount: { $0.operation.count })
  return (effect, route, counts)
}
