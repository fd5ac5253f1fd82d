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
