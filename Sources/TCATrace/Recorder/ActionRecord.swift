/// One processed action, rendered and ready to be written: what leaves the store's thread.
struct ActionRecord: Sendable {
  var seq: Int
  var timeNs: Int64
  var durationNs: Int64
  var origin: ActionOrigin
  var classification: ActionClassification
  var statePath: String
  var payloadJSON: String?
  var changes: [StateChange]
  var leaks: [Leak]
}

/// A session's row, written before its first action.
struct SessionRecord: Sendable {
  var name: String
  var rootFeature: String
  var startedAt: String
  var recorderVersion: String
}
