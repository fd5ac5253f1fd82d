/// One processed action, rendered and ready to be written: what leaves the store's thread.
package struct ActionRecord: Sendable {
  package init(
    seq: Int, timeNs: Int64, durationNs: Int64, origin: ActionOrigin,
    classification: ActionClassification, statePath: String, payloadJSON: String?,
    changes: [StateChange], leaks: [Leak]
  ) {
    self.seq = seq
    self.timeNs = timeNs
    self.durationNs = durationNs
    self.origin = origin
    self.classification = classification
    self.statePath = statePath
    self.payloadJSON = payloadJSON
    self.changes = changes
    self.leaks = leaks
  }

  package var seq: Int
  package var timeNs: Int64
  package var durationNs: Int64
  package var origin: ActionOrigin
  package var classification: ActionClassification
  package var statePath: String
  package var payloadJSON: String?
  package var changes: [StateChange]
  package var leaks: [Leak]
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
