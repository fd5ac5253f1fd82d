/// Collects an action's route while a store with an observer runs its reducer.
///
/// `Scope`, `ifLet` and `forEach` report each child they hand the action to; the store reads
/// the deepest route and the effect counts afterwards. Without an observer no collector is
/// bound and routing costs one task-local read.
enum ActionRouting {
  @TaskLocal static var collector: RouteCollector?

  @inline(__always)
  static func route<Action>(
    _ route: @autoclosure () -> ActionRoute,
    _ body: () -> Effect<Action>
  ) -> Effect<Action> {
    guard let collector = self.collector else { return body() }
    collector.enter(route())
    let effect = body()
    collector.exit(effectCount: effect.operation.count)
    return effect
  }
}

// NB: A collector is created for one action, bound as a task local for the duration of one
// synchronous reducer call on the store's actor, and read right after; it is never touched
// from two threads.
final class RouteCollector: @unchecked Sendable {
  private var stack: [ActionRoute] = []
  private(set) var route: [ActionRoute] = []
  /// `totals[d]`: effects returned by the children at depth `d`, their descendants included.
  private var totals: [Int] = [0]

  func enter(_ route: ActionRoute) {
    self.stack.append(route)
    if self.stack.count > self.route.count { self.route = self.stack }
    if self.totals.count <= self.stack.count { self.totals.append(0) }
  }

  func exit(effectCount: Int) {
    self.totals[self.stack.count] += effectCount
    self.stack.removeLast()
  }

  /// The effects each reducer along ``route`` returned itself, given the root's total.
  func ownEffectCounts(rootTotal: Int) -> [Int] {
    var totals = self.totals
    totals[0] = rootTotal
    while totals.count < self.route.count + 1 { totals.append(0) }
    return (0...self.route.count).map { depth in
      let children = depth + 1 < totals.count ? totals[depth + 1] : 0
      return max(0, totals[depth] - children)
    }
  }
}

/// Runs `body`, a reducer call, while collecting the route `Scope`, `ifLet` and `forEach` take;
/// for reducer modifiers that observe actions themselves, as an adapter for TCA would.
///
/// - Returns: The effect `body` returned, the route from the root down, and the effects each
///   reducer along the route returned itself (see ``ActionEvent/ownEffectCounts``).
package func collectingActionRoute<Action>(
  _ body: () -> Effect<Action>
) -> (effect: Effect<Action>, route: [ActionRoute], ownEffectCounts: [Int]) {
  let collector = RouteCollector()
  let effect = ActionRouting.$collector.withValue(collector) { body() }
  return (effect, collector.route, collector.ownEffectCounts(rootTotal: effect.operation.count))
}
