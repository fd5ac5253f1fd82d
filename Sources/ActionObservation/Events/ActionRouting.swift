import RuntimeSupport

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
package enum ActionRouting {
  // NB: A thread-local, not a task-local: a reducer runs synchronously on the thread that
  // calls it, and a task-local would be bound at every action, which costs more than the
  // action's recording otherwise adds to the store.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The collector of the reducer call running on this thread, if any.
  package static var collector: RouteCollector? {
    pthread_getspecific(self.key).map {
      Unmanaged<RouteCollector>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// Binds `collector` on this thread until ``unbind(restoring:)``, which is given what this
  /// returns: for a caller that must not hand the reducer's call to a closure (an isolated
  /// closure checks its executor each time it runs). The caller keeps `collector` alive.
  package static func bind(_ collector: RouteCollector) -> UnsafeMutableRawPointer? {
    let previous = pthread_getspecific(self.key)
    pthread_setspecific(self.key, Unmanaged.passUnretained(collector).toOpaque())
    return previous
  }

  /// Binds again what was bound before ``bind(_:)``.
  package static func unbind(restoring previous: UnsafeMutableRawPointer?) {
    pthread_setspecific(self.key, previous)
  }

  /// Runs `body` with `collector` bound on this thread.
  package static func withCollector<T>(_ collector: RouteCollector, _ body: () -> T) -> T {
    let previous = self.bind(collector)
    defer { self.unbind(restoring: previous) }
    return withExtendedLifetime(collector) { body() }
  }

  /// Notes that a feature whose action is of `actionType` returned `count` effects itself, for
  /// the collector bound on this thread, if any.
  package static func reportOwnEffects(_ count: Int, actionType: ObjectIdentifier) {
    self.collector?.report(ownEffects: count, actionType: actionType)
  }

  /// Notes that a feature whose action is of `actionType` returned `count` effects in all: its
  /// own and its children's, for the collector bound on this thread, if any.
  package static func reportTotalEffects(_ count: Int, actionType: ObjectIdentifier) {
    self.collector?.report(totalEffects: count, actionType: actionType)
  }

  /// Runs `body`, a child reducer's call, as a step of the route: `effectCount` tells how many
  /// effects its result holds.
  @inline(__always)
  package static func route<Result>(
    _ route: @autoclosure () -> ActionRoute,
    effectCount: (Result) -> Int,
    _ body: () -> Result
  ) -> Result {
    guard let collector = self.collector else { return body() }
    collector.enter(route())
    let result = body()
    collector.exit(effectCount: effectCount(result))
    return result
  }
}

/// A collector that the calls of one reducer modifier take in turn, so that an action does not
/// make one (and a dictionary or two) of its own: a call that finds it taken, by another thread
/// or by a call it runs, makes its own.
package final class ReusableRouteCollector: Sendable {
  private let collector = RouteCollector()
  private let isTaken = AtomicWord(0)

  package init() {}

  /// The collector, emptied, or a new one while it is taken; given back with ``giveBack(_:)``.
  package func take() -> RouteCollector {
    guard self.isTaken.compareExchange(expected: 0, desired: 1) else { return RouteCollector() }
    self.collector.reset()
    return self.collector
  }

  /// Ends the use of `collector`, which ``take()`` returned.
  package func giveBack(_ collector: RouteCollector) {
    // NB: What the call wrote into the collector is seen by the next that takes it.
    if collector === self.collector { self.isTaken.storeReleasing(0) }
  }
}

// NB: A collector is bound to the thread for the duration of one synchronous reducer call, and
// read right after; one call uses it at a time. One that is reused (`ReusableRouteCollector`)
// passes from call to call, and from thread to thread, through an atomic flag whose taking and
// giving back order what each call wrote.
package final class RouteCollector: @unchecked Sendable {
  private static let rootOnlyCounts: [[Int]] = (0..<8).map { [$0] }

  // NB: Unchecked: one thread uses a collector at a time (see above), and the checks of
  // exclusive access cost each action about 75 instructions a property.
  @exclusivity(unchecked) private var stack: [ActionRoute] = []
  @exclusivity(unchecked) package private(set) var route: [ActionRoute] = []
  /// `totals[d]`: effects returned by the children at depth `d`, their descendants included;
  /// 0 past the end. `totals[0]`, the root's, is given to ``ownEffectCounts(rootTotal:)``.
  @exclusivity(unchecked) private var totals: [Int] = []

  /// Whether a child was entered since the last ``reset()``.
  @exclusivity(unchecked) private var isUsed = false

  package init() {}

  /// Forgets the last action's route and effects, to collect the next one's.
  package func reset() {
    if !self.ownEffectsByActionType.isEmpty {
      self.ownEffectsByActionType.removeAll(keepingCapacity: true)
    }
    if !self.totalEffectsByActionType.isEmpty {
      self.totalEffectsByActionType.removeAll(keepingCapacity: true)
    }
    // NB: Most actions stay in the root: their collector has nothing to forget, and is not
    // asked to empty its three arrays again.
    guard self.isUsed else { return }
    self.isUsed = false
    self.stack.removeAll(keepingCapacity: true)
    self.route = []
    self.totals.removeAll(keepingCapacity: true)
  }

  /// The effects features returned themselves, by their action's type: what features report on a
  /// host whose scoping reducers do not report the route (TCA; see ``ActionRouting/reportOwnEffects(_:actionType:)``).
  @exclusivity(unchecked) package private(set) var ownEffectsByActionType: [ObjectIdentifier: Int] =
    [:]

  package func report(ownEffects count: Int, actionType: ObjectIdentifier) {
    self.ownEffectsByActionType[actionType, default: 0] += count
  }

  /// The effects features returned in all, their children's included, by their action's type:
  /// reported where a feature's `body` runs, on a host whose scoping reducers do not report the
  /// route (TCA; see ``ActionRouting/reportTotalEffects(_:actionType:)``).
  @exclusivity(unchecked) package private(set) var totalEffectsByActionType:
    [ObjectIdentifier: Int] = [:]

  package func report(totalEffects count: Int, actionType: ObjectIdentifier) {
    self.totalEffectsByActionType[actionType, default: 0] += count
  }

  package func enter(_ route: ActionRoute) {
    self.isUsed = true
    self.stack.append(route)
    if self.stack.count > self.route.count { self.route = self.stack }
    while self.totals.count <= self.stack.count { self.totals.append(0) }
  }

  package func exit(effectCount: Int) {
    self.totals[self.stack.count] += effectCount
    self.stack.removeLast()
  }

  /// The effect counts of a route that stays in the root, whose feature returned `count`
  /// effects itself (none, for a count below 0): a shared array for a few.
  package static func rootOnly(_ count: Int) -> [Int] {
    let count = max(0, count)
    return count < Self.rootOnlyCounts.count ? Self.rootOnlyCounts[count] : [count]
  }

  /// The effect counts of a route that stays in the root, whose feature's actions are of
  /// `actionType`: what it reported it returned itself (see ``report(ownEffects:actionType:)``).
  ///
  /// NB: Here, not read by the caller: read from another module, the dictionary's access was
  /// checked for exclusivity at every action, its attribute aside (36 instructions an action
  /// more in TCA's burst).
  package func rootOnlyOwnEffectCounts(actionType: ObjectIdentifier) -> [Int] {
    Self.rootOnly(self.ownEffectsByActionType[actionType] ?? 0)
  }

  /// The effects each reducer along ``route`` returned itself, given the root's total.
  package func ownEffectCounts(rootTotal: Int) -> [Int] {
    // NB: Most actions stay in the root and return few effects: their counts are shared
    // arrays, not one allocated per action.
    if self.route.isEmpty { return Self.rootOnly(rootTotal) }
    func total(_ depth: Int) -> Int {
      depth == 0 ? rootTotal : depth < self.totals.count ? self.totals[depth] : 0
    }
    return (0...self.route.count).map { depth in max(0, total(depth) - total(depth + 1)) }
  }
}

/// Runs `body`, a reducer call, while collecting the route `Scope`, `ifLet` and `forEach` take;
/// for reducer modifiers that observe actions themselves. `effectCount` tells how many effects
/// `body`'s result holds.
///
/// - Returns: What `body` returned, the route from the root down, and the effects each reducer
///   along the route returned itself (see ``ActionEvent/ownEffectCounts``).
package func collectingActionRoute<Result>(
  _ body: () -> Result, effectCount: (Result) -> Int
) -> (result: Result, route: [ActionRoute], ownEffectCounts: [Int]) {
  let collector = RouteCollector()
  let result = ActionRouting.withCollector(collector) { body() }
  return (result, collector.route, collector.ownEffectCounts(rootTotal: effectCount(result)))
}
