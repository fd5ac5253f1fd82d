#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Collects an action's route while a store with an observer runs its reducer.
///
/// `Scope`, `ifLet` and `forEach` report each child they hand the action to; the store reads
/// the deepest route and the effect counts afterwards. Without an observer no collector is
/// bound and routing costs one thread-local read.
enum ActionRouting {
  // NB: A thread-local, not a task-local: a reducer runs synchronously on the thread that
  // calls it, and binding a task-local cost a store with an observer ~0.4 µs per action.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The collector of the reducer call running on this thread, if any.
  static var collector: RouteCollector? {
    pthread_getspecific(self.key).map { Unmanaged<RouteCollector>.fromOpaque($0).takeUnretainedValue() }
  }

  /// Runs `body` with `collector` bound on this thread.
  static func withCollector<T>(_ collector: RouteCollector, _ body: () -> T) -> T {
    let previous = pthread_getspecific(self.key)
    pthread_setspecific(self.key, Unmanaged.passUnretained(collector).toOpaque())
    defer { pthread_setspecific(self.key, previous) }
    return withExtendedLifetime(collector) { body() }
  }

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

// NB: A collector is created for one action, bound to the thread for the duration of one
// synchronous reducer call, and read right after; it is never touched from two threads.
final class RouteCollector: @unchecked Sendable {
  private static let rootOnlyCounts: [[Int]] = (0..<8).map { [$0] }

  private var stack: [ActionRoute] = []
  private(set) var route: [ActionRoute] = []
  /// `totals[d]`: effects returned by the children at depth `d`, their descendants included;
  /// 0 past the end. `totals[0]`, the root's, is given to ``ownEffectCounts(rootTotal:)``.
  private var totals: [Int] = []

  /// Whether a child was entered since the last ``reset()``.
  private var isUsed = false

  /// Forgets the last action's route, to collect the next one's.
  func reset() {
    // NB: Most actions stay in the root: their collector has nothing to forget, and emptying
    // its three arrays anyway cost each recorded action ~0.08 µs.
    guard self.isUsed else { return }
    self.isUsed = false
    self.stack.removeAll(keepingCapacity: true)
    self.route = []
    self.totals.removeAll(keepingCapacity: true)
  }

  func enter(_ route: ActionRoute) {
    self.isUsed = true
    self.stack.append(route)
    if self.stack.count > self.route.count { self.route = self.stack }
    while self.totals.count <= self.stack.count { self.totals.append(0) }
  }

  func exit(effectCount: Int) {
    self.totals[self.stack.count] += effectCount
    self.stack.removeLast()
  }

  /// The effects each reducer along ``route`` returned itself, given the root's total.
  func ownEffectCounts(rootTotal: Int) -> [Int] {
    // NB: Most actions stay in the root and return few effects: their counts are shared
    // arrays, not one allocated per action.
    if self.route.isEmpty, rootTotal < Self.rootOnlyCounts.count {
      return Self.rootOnlyCounts[rootTotal]
    }
    func total(_ depth: Int) -> Int {
      depth == 0 ? rootTotal : depth < self.totals.count ? self.totals[depth] : 0
    }
    return (0...self.route.count).map { depth in max(0, total(depth) - total(depth + 1)) }
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
  let effect = ActionRouting.withCollector(collector) { body() }
  return (effect, collector.route, collector.ownEffectCounts(rootTotal: effect.operation.count))
}
