/// A recorded session, as `TraceReader/sessions()` lists it.
public struct TraceSession: Equatable, Sendable {
  public var id: Int64
  public var name: String
  /// The root feature's type name: `AppFeature`.
  public var rootFeature: String
  /// When recording started: ISO 8601, UTC.
  public var startedAt: String
  /// When the recorder closed; `nil` while recording, or if the process died.
  public var endedAt: String?
  /// Actions the recorder could not write.
  public var droppedActions: Int
  public var recorderVersion: String
  /// Actions recorded.
  public var actionCount: Int
  /// Leaks recorded.
  public var leakCount: Int
  /// From the session's start to the end of its last action, in nanoseconds.
  public var durationNs: Int64
  /// Where the session was recorded, when `tcatrace merge` copied it from another file;
  /// `nil` for a session recorded in this one.
  public var source: Source?
  /// Actions removed from the session's start, oldest first: outside the last part of the
  /// session an export kept (`TraceRecorder.exportSession(to:last:)`, `tcatrace export
  /// --format trace --last`). Its actions then begin at a later seq, from the state the file
  /// kept before them. `0` in traces older than schema version 6.
  public var trimmedActions: Int
  /// Actions the store's thread analysed itself, at the app's cost, because the recorder's
  /// analysis backlog was at its bound: the app sent actions faster than the recorder's writer
  /// analysed them. Counted over the session as recorded: an export of its last part keeps the
  /// count. `nil` when not counted: while recording, if the process died, or if its file failed;
  /// when the store's thread analysed actions whatever the backlog held (with the leak policy
  /// `.reportIssue` in a test, with `.stopInDebug`, or for a state that may hold a `@Shared`
  /// value); in traces older than schema version 9.
  public var backlogFallbacks: Int?

  /// The trace file a merged session was recorded in, and its id there.
  public struct Source: Equatable, Sendable {
    /// The file, as `tcatrace merge` was given it.
    public var file: String
    /// The session's id in that file.
    public var sessionID: Int64

    public init(file: String, sessionID: Int64) {
      self.file = file
      self.sessionID = sessionID
    }
  }

  public init(
    id: Int64, name: String, rootFeature: String, startedAt: String, endedAt: String?,
    droppedActions: Int, recorderVersion: String, actionCount: Int, leakCount: Int,
    durationNs: Int64, source: Source? = nil, trimmedActions: Int = 0,
    backlogFallbacks: Int? = nil
  ) {
    self.id = id
    self.name = name
    self.rootFeature = rootFeature
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.droppedActions = droppedActions
    self.recorderVersion = recorderVersion
    self.actionCount = actionCount
    self.leakCount = leakCount
    self.durationNs = durationNs
    self.source = source
    self.trimmedActions = trimmedActions
    self.backlogFallbacks = backlogFallbacks
  }
}

/// A recorded action with its state changes and leaks, as `TraceReader` streams it.
public struct TracedAction: Equatable, Sendable {
  /// Where the action came from.
  public enum Origin: Hashable, Sendable {
    /// Sent from outside the store: a view, a test, or a scoped store.
    case send
    /// Sent by an effect of the action with this ``TracedAction/seq`` in the same session.
    case effect(cause: Int)
    /// Sent to the app from the page of `tcatrace serve --live` (**Send to the app**), as a
    /// view sends one.
    case debugger

    /// Its name in the trace (`actions.origin`): `send`, `effect` or `debugger`.
    public var name: String {
      switch self {
      case .send: "send"
      case .effect: "effect"
      case .debugger: "debugger"
      }
    }
  }

  /// The action's row id: increases with every action written to the file.
  public var id: Int64
  public var sessionID: Int64
  /// The action's number in its session, from 1.
  public var seq: Int
  /// When the reducer started, in nanoseconds since the session started.
  public var timeNs: Int64
  /// Time spent in the reducer, in nanoseconds.
  public var durationNs: Int64
  public var origin: Origin
  /// The case path: `_internal.login.view.loginButtonTapped`.
  public var path: String
  public var rootCategory: ActionCategory
  /// The owning feature's path; empty for the root.
  public var feature: String
  /// The category at the owning feature.
  public var category: ActionCategory
  public var caseName: String
  /// The state path of the feature the store routed the action to.
  public var statePath: String
  public var payload: String?
  public var payloadJSON: String?
  public var changes: [StateChange]
  public var leaks: [Leak]
  /// Whether an effect sent it at once: the store processed it before it had finished
  /// processing its cause (an effect such as `.send`), so a `TestStore` has processed it when
  /// the `send` or `receive` that began the processing returns. `false` in traces older than
  /// schema version 5, which do not say.
  public var atOnce: Bool
  /// For an action of a process that ended before its recorder wrote it, which the next
  /// recorder copied from the flight journal: how its reducer ended. Its state changes and
  /// leaks are not known. `nil` for an action its recorder wrote.
  public var flight: Flight?

  /// How an action copied from a flight journal ended.
  public enum Flight: String, Hashable, Sendable {
    /// Its reducer had returned.
    case returned
    /// The process ended in its reducer.
    case endedProcess = "ended_process"
  }

  public init(
    id: Int64, sessionID: Int64, seq: Int, timeNs: Int64, durationNs: Int64,
    origin: Origin, path: String, rootCategory: ActionCategory, feature: String,
    category: ActionCategory, caseName: String, statePath: String, payload: String?,
    payloadJSON: String?, changes: [StateChange], leaks: [Leak], atOnce: Bool = false,
    flight: Flight? = nil
  ) {
    self.id = id
    self.sessionID = sessionID
    self.seq = seq
    self.timeNs = timeNs
    self.durationNs = durationNs
    self.origin = origin
    self.path = path
    self.rootCategory = rootCategory
    self.feature = feature
    self.category = category
    self.caseName = caseName
    self.statePath = statePath
    self.payload = payload
    self.payloadJSON = payloadJSON
    self.changes = changes
    self.leaks = leaks
    self.atOnce = atOnce
    self.flight = flight
  }
}

/// Which actions `TraceReader` streams. Every condition set must hold.
public struct TraceFilter: Equatable, Sendable {
  /// Only this session's actions. Default: every session.
  public var session: Int64?
  /// Only actions whose own category (at the feature that owns them) is one of these.
  public var categories: Set<ActionCategory>?
  /// Only actions owned by this feature or a feature below it: `login` matches `login`,
  /// `login.twoFactor` and `login[id: 1]`, not `loginHelp`.
  public var feature: String?
  /// Only actions that broke a boundary rule.
  public var leaksOnly: Bool
  /// Only actions numbered from this seq on.
  public var fromSeq: Int?
  /// Only actions numbered up to this seq.
  public var toSeq: Int?
  /// Only actions whose case path or payload contains this text (case-sensitive).
  public var text: String?
  /// Only actions that changed the value at this state path (`login.email`,
  /// `todos[id: 3].title`): a change at the path, at a path below it, or at a path above it,
  /// which may have replaced the value (`login.twoFactor` added, for `login.twoFactor.code`),
  /// unless it only put a collection in a new order. The empty path is the whole state: every
  /// action that changed anything.
  public var changedPath: String?
  /// Only actions written after the one with this row id: for following a growing file.
  public var afterID: Int64?

  public init(
    session: Int64? = nil,
    categories: Set<ActionCategory>? = nil,
    feature: String? = nil,
    leaksOnly: Bool = false,
    fromSeq: Int? = nil,
    toSeq: Int? = nil,
    text: String? = nil,
    changedPath: String? = nil,
    afterID: Int64? = nil
  ) {
    self.session = session
    self.categories = categories
    self.feature = feature
    self.leaksOnly = leaksOnly
    self.fromSeq = fromSeq
    self.toSeq = toSeq
    self.text = text
    self.changedPath = changedPath
    self.afterID = afterID
  }
}
