import ActionObservation
import Dispatch
import RuntimeSupport

/// Tells which actions an effect sent at once: processed by the store before it had finished
/// processing the action whose effect sent them (an effect such as `.send`, which the store
/// runs as it starts it). A `TestStore` has processed such an action when the `send` (or
/// `receive`) of the action that began the processing returns, and a change it makes to a
/// `@Shared` value is seen there.
///
/// A store processes what is sent at once without returning to its thread's run loop, and an
/// effect that runs later (`.run`, a publisher on a scheduler) reaches the store from a later
/// turn of it: the actions of one turn of the main queue are one processing. The first action
/// of a turn whose effects may send actions asks the main queue to end the turn after what it
/// is running now; an effect's action is sent at once when its cause was processed in the same
/// turn. A cause's effects send actions, so it comes no earlier than that first action when it
/// was processed in the turn, and before it otherwise: an action whose effects send none (a
/// timer's tick, a keystroke) need not open a turn, nor ask the queue for anything. (On
/// `Composable`, the effect that dismisses a presented feature is counted as none, and sends its
/// action after it has waited for the dismissal, from a later job: never at once.) Stores run
/// on the main actor, whose jobs that queue runs in order, so the turn ends before any job an
/// action of it started.
final class SynchronousSends: Sendable {
  /// The seq of the first action of the turn in progress whose effects may send actions; `nil`
  /// between turns.
  private let firstOfTurn = Locked<Int?>(nil)

  /// Whether the action `id`, from `origin`, was sent at once; notes it in the turn when its
  /// effects may send actions (`mayCauseActions`).
  func isAtOnce(id: Int, origin: ActionOrigin, mayCauseActions: Bool = true) -> Bool {
    // NB: A send whose effects send nothing neither opens a turn nor is in one: the turn is not
    // read (a lock at each action of a burst of sends).
    if !mayCauseActions, origin == .send { return false }
    let (atOnce, opensTurn) = self.firstOfTurn.withLock { first -> (Bool, Bool) in
      let opensTurn = first == nil && mayCauseActions
      if opensTurn { first = id }
      guard case let .effect(cause) = origin, let first else { return (false, opensTurn) }
      return (cause >= first, opensTurn)
    }
    if opensTurn {
      DispatchQueue.main.async { [weak self] in
        self?.firstOfTurn.withLock { $0 = nil }
      }
    }
    return atOnce
  }
}
