#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif
import Foundation

#if ComposableArchitecture
  /// The reducer of a store that `tcatrace serve --live` drives on TCA: the app's (recorded),
  /// with the debugger's commands around it. TCA's store changes its state only through its
  /// reducer: a command is left with the driver (`StoreDriver.carry(_:to:)`) and carried in by
  /// an action of the app's, which this reducer takes for the command and does not reduce. So
  /// the app holds the store itself: a store scoped from one whose actions were the app's and
  /// the debugger's (as Redux DevTools lifts a store) cost each action its scoping (the action
  /// embedded, its state read and compared as the parent's was set). `Composable`'s store
  /// takes a debugger's state and lock through doors of its own (`Store.replaceState(_:)`,
  /// `admits`), and keeps its observer.
  struct DrivenReducer<Base: Reducer>: Reducer {
    typealias State = Base.State
    typealias Action = Base.Action

    let base: Base
    let driver: StoreDriver<Base.State, Base.Action>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      if let command = self.driver.takePending() {
        switch command {
        case .take(let taken):
          state = taken
          self.driver.recorder.stateWasReplaced()
          return .none
        case .send:
          self.driver.recorder.debuggerWillSend()
          return self.reduce(into: &state, app: action)
        }
      }
      guard !self.driver.isLocked else {
        self.driver.ignore()
        return .none
      }
      return self.reduce(into: &state, app: action)
    }

    private func reduce(into state: inout State, app action: Action) -> Effect<Action> {
      let effect = self.base.reduce(into: &state, action: action)
      self.driver.keep(state, seq: self.driver.recorder.lastModifierSeq, after: action)
      return effect
    }
  }
#endif

/// What the debugger does to the store.
enum DebuggerAction<State, Action> {
  /// Take this state (a jump, or the return from one).
  case take(State)
  /// Reduce this action, sent from the page.
  case send(Action)
}

/// What drives a ``RecordingStore`` from the page: it keeps the recent states, jumps, sends and
/// locks. On the main actor, where the store runs; its reducer reads it there too.
final class StoreDriver<State, Action>: @unchecked Sendable {
  // NB: `@unchecked`: every stored property is touched on the main actor only, by the store's
  // reducer and by `perform(_:)`.

  /// How many of the latest states the app keeps in memory to jump to, with the state before
  /// the first action: what it costs is what those states hold that the current one no longer
  /// shares.
  static var keptStates: Int { 256 }

  let recorder: TraceRecorder
  /// Has the store do a command of the debugger's; `false` when it did not take it.
  var send: (@MainActor (DebuggerAction<State, Action>) -> Bool)?
  /// Reads the store's state.
  var currentState: (@MainActor () -> State?)?
  /// The state before the first action.
  private let initialState: State
  /// The latest states, by seq: a ring of ``keptStates``.
  private var kept: [(seq: Int, state: State)] = []
  private var nextSlot = 0
  private(set) var isLocked = false
  private var ignored = 0
  /// The state before the first jump since the last return.
  private var beforeJumps: State?

  init(recorder: TraceRecorder, initialState: State) {
    self.recorder = recorder
    self.initialState = initialState
    self.kept.reserveCapacity(Self.keptStates)
  }

  /// The seq of the last action the store recorded; 0 before the first.
  private var lastSeq = 0
  #if ComposableArchitecture
    /// The command the next action carries into the store's reducer (``DrivenReducer``).
    private var pending: DebuggerAction<State, Action>?
    /// The app's last action: what carries a command that brings no action of its own.
    private var lastAction: Action?

    /// The command the action being reduced carries, once.
    func takePending() -> DebuggerAction<State, Action>? {
      self.pending.take()
    }

    /// Has `store` do `command`: sent in by the action it brings, or by the app's last;
    /// `false` when the store did not take it.
    ///
    /// NB: The store reduces the carrier before its `send` returns: the page's commands come
    /// on the main actor between the store's actions, never while it reduces one (TCA's store
    /// would then keep the carrier for later, and the command is not left for it).
    @MainActor
    func carry(_ command: DebuggerAction<State, Action>, to store: Store<State, Action>) -> Bool {
      let carrier: Action
      switch command {
      case let .send(action): carrier = action
      case .take:
        // NB: `perform(_:)` asks for a state only once the store has reduced an action.
        guard let last = self.lastAction else { return false }
        carrier = last
      }
      self.pending = command
      store.send(carrier)
      // NB: Taken by the reducer, it is `nil` here; else it is cleared, not left for the next.
      return self.pending.take() == nil
    }

    /// Keeps the state after the action just recorded, `seq`, and the action, to carry the
    /// debugger's commands.
    func keep(_ state: State, seq: Int, after action: Action) {
      self.lastAction = action
      self.keep(state, seq: seq)
    }
  #endif
  #if !ComposableArchitecture
    /// Whether the next action the store reduces is the debugger's.
    var debuggerIsSending = false
    /// Whether the action being reduced is the debugger's.
    private(set) var isReducingDebuggers = false
  #endif

  /// Keeps the state after the action just recorded, `seq`.
  func keep(_ state: State, seq: Int) {
    self.lastSeq = seq
    let entry = (seq: seq, state: state)
    if self.kept.count < Self.keptStates {
      self.kept.append(entry)
    } else {
      self.kept[self.nextSlot] = entry
      self.nextSlot = (self.nextSlot + 1) % Self.keptStates
    }
  }

  /// An action that came while locked, ignored.
  func ignore() {
    self.ignored += 1
    self.recorder.discardPendingCause()
  }

  #if !ComposableArchitecture
    /// Whether `Composable`'s store reduces an action from `origin`: not the app's own while
    /// the store is locked, which are ignored and counted. Asked of every action, before it is
    /// numbered.
    func admits(_ origin: ActionOrigin) -> Bool {
      let isDebuggers = self.debuggerIsSending && origin == .send
      self.debuggerIsSending = false
      self.isReducingDebuggers = isDebuggers
      guard self.isLocked, !isDebuggers else { return true }
      self.ignore()
      return false
    }
  #endif

  /// Does `command` on the store: the reason it did not, or what it did.
  @MainActor
  func perform(_ command: LiveCommand) -> (refusal: String?, detail: String) {
    guard let send = self.send, let current = self.currentState?() else {
      return ("the app's store has gone (its RecordingStore was released)", "")
    }
    #if ComposableArchitecture
      // NB: On TCA a state is carried into the store by an action of the app's.
      if case .jump = command, self.lastAction == nil {
        return ("the store has reduced no action yet: its state is the one it began with", "")
      }
    #endif
    switch command {
    case let .jump(seq, json):
      let taken: State
      let source: String
      if seq == 0 {
        (taken, source) = (self.initialState, "from the app's memory")
      } else if let kept = self.kept.last(where: { $0.seq == seq }) {
        (taken, source) = (kept.state, "from the app's memory")
      } else {
        switch Self.decode(State.self, json) {
        case let .success(state): (taken, source) = (state, "from the trace's JSON")
        case let .failure(reason):
          return (
            """
            the state after #\(seq) is no longer in the app's memory (it keeps the last \
            \(Self.keptStates)), and \(reason)
            """, ""
          )
        }
      }
      guard send(.take(taken)) else { return Self.busy }
      if self.beforeJumps == nil { self.beforeJumps = current }
      self.recorder.record(debuggerEvent: .jump, afterSeq: self.lastSeq, toSeq: seq)
      return (nil, "took the state after #\(seq), \(source)")
    case .back:
      guard let before = self.beforeJumps else {
        return ("the app has not jumped since it last came back", "")
      }
      guard send(.take(before)) else { return Self.busy }
      self.beforeJumps = nil
      self.recorder.record(debuggerEvent: .back, afterSeq: self.lastSeq)
      return (nil, "took the state it had before the first jump")
    case let .send(json):
      switch Self.decode(Action.self, json) {
      case let .success(action):
        guard send(.send(action)) else { return Self.busy }
        return (nil, "sent the action")
      case let .failure(reason):
        return ("the action was not sent: \(reason)", "")
      }
    case .lock:
      if !self.isLocked {
        self.ignored = 0
        self.recorder.record(debuggerEvent: .lock, afterSeq: self.lastSeq)
      }
      self.isLocked = true
      return (nil, "locked: the app's own actions are ignored until it is unlocked")
    case .unlock:
      guard self.isLocked else { return (nil, "the app was not locked") }
      self.isLocked = false
      let ignored = self.ignored
      self.recorder.record(debuggerEvent: .unlock, afterSeq: self.lastSeq, ignored: ignored)
      return (
        nil, "unlocked; \(ignored) action\(ignored == 1 ? " was" : "s were") ignored while locked"
      )
    }
  }

  /// What the page is told when the store did not take a command.
  private static var busy: (refusal: String?, detail: String) {
    ("the app's store was reducing an action and did not take the command: try again", "")
  }

  /// `json` decoded as a `Value`, or why it cannot be.
  private static func decode<Value>(_: Value.Type, _ json: String?) -> Result<Value, Reason> {
    guard let decodable = Value.self as? any Decodable.Type else {
      return .failure(Reason("\(Value.self) is not Decodable"))
    }
    guard let json else {
      return .failure(Reason("the trace has no JSON of it"))
    }
    // NB: A value the recorder redacted reads "<redacted>" in the trace: decoded, the app would
    // take the marker for the value.
    guard !json.contains("\"<redacted>\"") else {
      return .failure(Reason("its JSON in the trace has redacted values"))
    }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
      try JSONDecoder().decode(type, from: Data(json.utf8))
    }
    do {
      guard let value = try decode(decodable) as? Value else {
        return .failure(Reason("its JSON does not decode as \(Value.self)"))
      }
      return .success(value)
    } catch {
      return .failure(Reason("its JSON does not decode as \(Value.self): \(Self.describe(error))"))
    }
  }

  private struct Reason: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// A decoding error in a line: what was wrong, and where.
  private static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
      return path.isEmpty ? "" : " at \(path.joined(separator: "."))"
    }
    switch error {
    case let .typeMismatch(_, context), let .valueNotFound(_, context),
      let .keyNotFound(_, context), let .dataCorrupted(context):
      return context.debugDescription + path(context)
    @unknown default:
      return "\(error)"
    }
  }
}
