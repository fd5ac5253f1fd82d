/// One processed action, rendered and ready to be written: what leaves the store's thread.
package struct ActionRecord: Sendable {
  package init(
    seq: Int, timeNs: Int64, durationNs: Int64, origin: ActionOrigin,
    classification: ActionClassification, statePath: String, payloadJSON: String?,
    changes: [StateChange], leaks: [Leak], atOnce: Bool = false
  ) {
    self.seq = seq
    self.timeNs = timeNs
    self.durationNs = durationNs
    self.origin = origin
    self.analysedClassification = classification
    self.statePath = statePath
    self.payloadJSON = payloadJSON
    self.changes = changes
    self.leaks = leaks
    self.atOnce = atOnce
  }

  /// The record of action `seq` before its analysis, which the writer's thread makes from
  /// `deferred` (see ``AnalysisBacklog``).
  init(seq: Int, deferred: DeferredAnalysis) {
    self.seq = seq
    self.timeNs = 0
    self.durationNs = 0
    self.origin = .send
    self.analysedClassification = nil
    self.statePath = ""
    self.payloadJSON = nil
    self.changes = []
    self.leaks = []
    self.atOnce = false
    self.deferred = deferred
  }

  package var seq: Int
  package var timeNs: Int64
  package var durationNs: Int64
  package var origin: ActionOrigin
  /// The action's classification; empty until the action is analysed.
  package var classification: ActionClassification {
    _read {
      if self.analysedClassification != nil {
        yield self.analysedClassification!
      } else {
        yield ActionClassification.empty
      }
    }
    _modify {
      if self.analysedClassification == nil { self.analysedClassification = .empty }
      yield &self.analysedClassification!
    }
  }
  /// The classification, once the action is analysed.
  ///
  /// NB: Optional, so that a record handed over unanalysed makes none: an empty classification
  /// copied from a constant cost the store's thread about 150 instructions an action, and one
  /// made anew, about 270.
  private var analysedClassification: ActionClassification?
  package var statePath: String
  package var payloadJSON: String?
  package var changes: [StateChange]
  package var leaks: [Leak]
  /// Whether an effect sent the action while the store was still processing its cause (see
  /// ``SynchronousSends``).
  package var atOnce: Bool
  /// Whether the page of `tcatrace serve --live` sent the action (its origin is then
  /// `debugger`, not `send`).
  package var fromDebugger = false
  /// Whole states to keep with the action: the state before the session's first action, and
  /// keyframes (see ``StateSnapshot``).
  package var states: [StateSnapshot] = []
  /// The state after the action, when it is `Encodable`: the writer finds how its JSON
  /// changed from the state after the action before.
  package var stateAfter: StateAfterAction?
  /// What the writer's thread needs to analyse the action, when the store's thread handed it
  /// over unanalysed (see ``AnalysisBacklog``); `nil` once it is analysed.
  var deferred: DeferredAnalysis?

  /// Keeps `states`, and the state after the action, with the action.
  package mutating func keep(
    _ states: consuming [StateSnapshot], stateAfter: consuming StateAfterAction? = nil
  ) {
    self.states = states
    self.stateAfter = stateAfter
  }
}

/// A whole state for the writer to keep: its tree is built on the writer's thread, not the
/// store's.
package struct StateSnapshot: @unchecked Sendable {
  // NB: `@unchecked`: a state is a value; the writer only reads it.

  /// The seq of the action the state follows; 0 for the state before the first action.
  package var seq: Int
  /// The state.
  package var value: Any
  /// Redacts the state's tree as the recorder redacts its changes.
  package var redact: @Sendable (inout StateNode, Any) -> Void
  /// Redacts the state's JSON likewise.
  package var redactJSON: @Sendable (String, Any) -> String
  /// Told the size of the tree once it is built (see ``StateNode/nodeCount``).
  package var built: @Sendable (Int) -> Void

  package init(
    seq: Int, value: Any, redact: @escaping @Sendable (inout StateNode, Any) -> Void,
    redactJSON: @escaping @Sendable (String, Any) -> String = { json, _ in json },
    built: @escaping @Sendable (Int) -> Void
  ) {
    self.seq = seq
    self.value = value
    self.redact = redact
    self.redactJSON = redactJSON
    self.built = built
  }
}

/// The state after an action, for the writer to follow its JSON (see ``JSONDiff``).
package struct StateAfterAction: @unchecked Sendable {
  // NB: `@unchecked`: a state is a value; the writer only reads it.

  /// Redacts the changes of the JSON, given the values they set and the states before and
  /// after the action.
  package typealias Redact = @Sendable ([StateJSONChange], [Any?], Any, Any) -> [StateJSONChange]

  package var value: Any
  package var redact: Redact

  package init(value: Any, redact: @escaping Redact) {
    self.value = value
    self.redact = redact
  }
}

/// A session's row, written before its first action.
package struct SessionRecord: Sendable {
  package init(name: String, rootFeature: String, startedAt: String, recorderVersion: String) {
    self.name = name
    self.rootFeature = rootFeature
    self.startedAt = startedAt
    self.recorderVersion = recorderVersion
  }

  package var name: String
  package var rootFeature: String
  package var startedAt: String
  package var recorderVersion: String
}

/// What a debugger did to the app between two actions (see `debugger_events`).
package struct DebuggerEventRecord: Sendable {
  package enum Kind: Sendable {
    case jump, back, lock, unlock

    var name: String {
      switch self {
      case .jump: "jump"
      case .back: "back"
      case .lock: "lock"
      case .unlock: "unlock"
      }
    }
  }

  /// The last action the store had processed; 0 before the first.
  package var afterSeq: Int
  package var timeNs: Int64
  package var kind: Kind
  /// For a jump: the action whose state the store took.
  package var toSeq: Int?
  /// For an unlock: the app's actions ignored while it was locked.
  package var ignoredActions: Int?
}
