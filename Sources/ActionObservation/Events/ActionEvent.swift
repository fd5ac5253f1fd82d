/// What a store did with one action: the seam that recorders and debuggers observe.
///
/// A store created with an observer (``Store/init(initialState:observer:reducer:)``) hands one
/// event to it for every action it processes, in processing order, on the main actor, after
/// the reducer ran and before the action's effects start.
///
/// ```swift
/// let store = Store(initialState: AppFeature.State(), observer: { event in
///   print(event.id, event.origin, event.route.statePath)
/// }) {
///   AppFeature()
/// }
/// store.send(.view(.onAppear))
/// // 1 send
/// ```
public struct ActionEvent<State, Action> {
  /// The action's position in the store's processing order, from 1.
  public let id: Int

  /// The action, as the root reducer received it.
  public let action: Action

  /// Whether the action was sent from outside or by an effect, and which action's effect.
  public let origin: ActionOrigin

  /// The root state before the reducer ran.
  public let stateBefore: State

  /// The root state after the reducer ran.
  public let stateAfter: State

  /// The chain of child features the action was routed to by `Scope`, `ifLet` and `forEach`,
  /// from the root's child down; empty when no child received it.
  public let route: [ActionRoute]

  /// How many effects each reducer along ``route`` returned itself, not counting those its
  /// children returned: index 0 is the root reducer, index `i` the child reached through
  /// `route[i - 1]`. Its count is `route.count + 1`.
  public let ownEffectCounts: [Int]

  /// When the reducer started, in nanoseconds of a monotonic clock.
  public let timestamp: UInt64

  /// How long the reducer ran, in nanoseconds.
  public let duration: UInt64

  @inlinable @inline(__always)
  public init(
    id: Int,
    action: Action,
    origin: ActionOrigin,
    stateBefore: State,
    stateAfter: State,
    route: [ActionRoute],
    ownEffectCounts: [Int],
    timestamp: UInt64,
    duration: UInt64
  ) {
    self.id = id
    self.action = action
    self.origin = origin
    self.stateBefore = stateBefore
    self.stateAfter = stateAfter
    self.route = route
    self.ownEffectCounts = ownEffectCounts
    self.timestamp = timestamp
    self.duration = duration
  }
}

/// Where an action processed by a store came from.
public enum ActionOrigin: Hashable, Sendable {
  /// Sent from outside the store: a view, a test, or a scoped store.
  case send
  /// Sent by an effect that the reducer returned for the action with this ``ActionEvent/id``.
  case effect(cause: Int)
}
