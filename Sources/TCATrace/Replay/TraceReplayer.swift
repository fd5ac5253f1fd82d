#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif
import CustomDump
import Foundation
import IssueReporting
import TerminalSafeText

/// Re-runs a recorded session against a reducer — today's code — and says where its behaviour
/// differs from the recording's.
///
/// ```swift
/// let replay = try TraceReplayer(path: "checkout-bug.db", session: 3)
/// let report = try await replay.run(AppFeature())   // or .verify(AppFeature()) in a test
/// print(report)
/// ```
///
/// The replay starts from the session's recorded initial state, and sends the recorded actions
/// in the order the store processed them. Effects are not executed (no network, no clocks): the
/// actions the recorded effects sent are delivered instead, in their recorded order, after the
/// action that caused them. After each action, the state is compared with the recorded one;
/// and an action whose reducer now returns no effect that can send anything, where the
/// recording shows actions its effects sent, diverges too. The replay stops at the first
/// divergence.
///
/// Where the debugger of `tcatrace serve --live` jumped the app (or took it back), the replay
/// takes the same state, decoded from the trace's JSON of it, before the next action.
///
/// What a session needs to be replayed: its feature's `State` and `Action` `Codable` when it
/// was recorded, so that the trace keeps the initial state's JSON and each action's (see
/// ``TraceReader/stateJSON(session:after:)`` and ``TracedAction/payloadJSON``).
public struct TraceReplayer: Sendable {
  /// The trace file.
  public let path: String
  /// The session replayed.
  public let session: Int64

  /// Opens `session` of the trace at `path` for replaying.
  ///
  /// - Throws: `TraceFileError` when the file cannot be read or has no such session.
  public init(path: String, session: Int64) throws {
    self.path = path
    self.session = session
    _ = try TraceReader(path: path).session(id: session)
  }

  /// Replays the session against `reducer`, with the dependencies `prepareDependencies` sets
  /// (the reducer's own code runs; its effects do not).
  ///
  /// - Returns: How far the replay got, and the first divergence, if any.
  /// - Throws: ``TraceReplayError`` when the session cannot be replayed at all: the trace keeps
  ///   no JSON of its initial state or of an action, or the initial state no longer decodes;
  ///   `TraceFileError` when the file cannot be read.
  @MainActor
  public func run<R: Reducer>(
    _ reducer: R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) async throws -> TraceReplayReport where R.State: Decodable, R.Action: Decodable {
    let reader = try TraceReader(path: self.path)
    let extent = try reader.actionExtent(session: self.session)
    // NB: A session whose first actions were trimmed starts from the state kept before the
    // first action left: `base`, the step of that state (0 for the initial state).
    let base = try reader.firstStep(session: self.session)
    var report = TraceReplayReport(
      path: self.path, session: self.session, reducer: typeName(R.self), replayed: 0,
      total: extent.count, divergence: nil
    )
    // NB: Every action must be there: one the recorder dropped changed the state unseen.
    func gap(at seq: Int) -> TraceReplayError {
      TraceReplayError(
        message:
          "session \(self.session) of '\(self.path)' lacks action #\(seq) (the recorder dropped it, or the file was changed): a replay needs every action"
      )
    }
    if extent.count != extent.lastSeq - base {
      throw gap(at: try reader.firstMissingSeq(session: self.session) ?? extent.lastSeq)
    }
    let initialName =
      base == 0 ? "its initial state" : "its state after action #\(base), where it begins"
    guard let json = try reader.stateJSON(session: self.session, after: base) else {
      throw TraceReplayError(
        message:
          "session \(self.session) of '\(self.path)' keeps no JSON of \(initialName): \(typeName(R.State.self)) was not Encodable when it was recorded (or the file is older than schema version 3); make it Codable and record again"
      )
    }
    let (initial, reducer) = try withDependencies(prepareDependencies) {
      @Dependency(\.self) var dependencies
      let initial: R.State
      do {
        initial = try JSONDecoder().decode(R.State.self, from: Data(json.utf8))
      } catch {
        throw TraceReplayError(
          message:
            "\(base == 0 ? "the initial state" : "the state after action #\(base)") of session \(self.session) of '\(self.path)' no longer decodes as \(typeName(R.State.self)): \(Self.describe(error, in: json))"
        )
      }
      return (initial, reducer.dependency(\.self, dependencies))
    }

    // Whether the action with each seq returned no effect that can send an action, by seq less
    // `base` (index 0: the state the replay starts from).
    var returnedNoEffect = [false]
    returnedNoEffect.reserveCapacity(extent.count + 1)
    /// Whether the action `cause` returned no effect that can send an action; `false` for one
    /// not replayed (trimmed before the session's kept part, or not reached).
    func noEffect(_ cause: Int) -> Bool {
      let index = cause - base
      return index > 0 && index < returnedNoEffect.count && returnedNoEffect[index]
    }
    /// The first divergence, which is `divergence` (at its action) unless an action before it,
    /// or the action itself, returned no effect where the recording shows actions its effects
    /// sent after it.
    func first(_ divergence: TraceDivergence) throws -> TraceDivergence {
      try missingEffect(through: divergence.seq) ?? divergence
    }
    /// The divergence of the first action through `seq` that returned no effect where the
    /// recording shows actions its effects sent after `seq`.
    func missingEffect(through seq: Int) throws -> TraceDivergence? {
      let missing = try reader.effectActions(
        session: self.session, causedThrough: seq, sentAfter: seq
      )
      .first { noEffect($0.cause) }
      guard let missing else { return nil }
      return try self.missingEffect(
        cause: missing.cause, sent: missing.seq, sentPath: missing.path, reader)
    }
    /// The first place where the replayed state after `seq` (the action at `path`) differs from
    /// the recorded one.
    func difference(after seq: Int, path: String, _ state: R.State) throws -> TraceDivergence? {
      let recorded = try reader.state(session: self.session, after: seq)
      guard let difference = StateTree.node(of: state).firstDifference(from: recorded) else {
        return nil
      }
      return try first(
        TraceDivergence(
          seq: seq, actionPath: path,
          kind: .state(
            path: difference.path, recorded: difference.recorded, replayed: difference.replayed)
        )
      )
    }

    /// The report of a replay that diverged: the actions before the divergence were replayed.
    func diverged(_ divergence: TraceDivergence) -> TraceReplayReport {
      report.divergence = divergence
      report.replayed = max(0, divergence.seq - base - 1)
      return report
    }

    var state = initial
    if let divergence = try difference(after: base, path: "", state) {
      return diverged(divergence)
    }
    // NB: The debugger's jumps and returns (`tcatrace serve --live`), in the order it did them:
    // the store took another state between two actions, and so does the replay.
    let jumps = try reader.debuggerEvents(session: self.session)
      .filter { $0.kind == .jump || $0.kind == .back }
    var nextJump = jumps.startIndex
    /// The state before the first jump since the last return, which a return takes back, as
    /// the app's store does.
    var beforeJumps: R.State?
    /// Takes the states the debugger had the store take after the action `seq`.
    func takeJumps(through seq: Int) throws {
      while nextJump < jumps.endIndex, jumps[nextJump].afterSeq <= seq {
        let event = jumps[nextJump]
        nextJump += 1
        let what =
          "after action #\(event.afterSeq) of session \(self.session) of '\(self.path)', the debugger of tcatrace serve --live"
        guard event.kind == .jump else {
          // NB: Trimming drops the events of the actions it drops: a return whose jump went
          // with them has no state to take back.
          guard let before = beforeJumps else {
            throw TraceReplayError(
              message:
                "\(what) took the app back to the state it had before its first jump, which is not in the trace (the jump was trimmed away with the actions before it); the replay cannot take it"
            )
          }
          state = before
          beforeJumps = nil
          continue
        }
        let to = event.toSeq ?? 0
        guard let json = try reader.stateJSON(session: self.session, after: to) else {
          throw TraceReplayError(
            message:
              "\(what) had the app take the state after #\(to), and the trace keeps no JSON of it (\(typeName(R.State.self)) was not Encodable when it was recorded, or the actions up to it were trimmed away); the replay cannot take it"
          )
        }
        let taken: R.State
        do {
          taken = try withDependencies(prepareDependencies) {
            try JSONDecoder().decode(R.State.self, from: Data(json.utf8))
          }
        } catch {
          throw TraceReplayError(
            message:
              "\(what) had the app take the state after #\(to), which no longer decodes as \(typeName(R.State.self)): \(Self.describe(error, in: json))"
          )
        }
        if beforeJumps == nil { beforeJumps = state }
        state = taken
      }
    }
    // NB: The state is diffed as the recorder diffs it, through its kind, learned once.
    let kind = NodeKind.of(R.State.self)
    // NB: A session repeats its actions (taps, ticks): each JSON is decoded once.
    var decodedActions: [String: R.Action] = [:]
    // NB: The actions are read on a thread of their own, ahead of the replay.
    let feed = ReplayFeed(path: self.path, session: self.session)
    while let batch = try await feed.next() {
      for action in batch {
        guard action.seq == base + returnedNoEffect.count else {
          throw gap(at: base + returnedNoEffect.count)
        }
        // An effect's action whose cause returned no effect: the replay diverged at the cause.
        if case let .effect(cause) = action.origin, noEffect(cause) {
          return diverged(
            try self.missingEffect(cause: cause, sent: action.seq, sentPath: action.path, reader))
        }
        guard let json = action.payloadJSON else {
          // NB: A divergence before this action comes first.
          if let divergence = try missingEffect(through: action.seq - 1) {
            return diverged(divergence)
          }
          throw TraceReplayError(
            message:
              "action #\(action.seq) (\(action.path)) of session \(self.session) of '\(self.path)' was recorded without its JSON: \(typeName(R.Action.self)) was not Encodable when it was recorded; make it Codable and record again"
          )
        }
        let decoded: R.Action
        if let known = decodedActions[json] {
          decoded = known
        } else {
          do {
            decoded = try JSONDecoder().decode(R.Action.self, from: Data(json.utf8))
          } catch {
            let reason = "\(typeName(R.Action.self)) \(Self.describe(error, in: json))"
            return diverged(
              try first(
                TraceDivergence(
                  seq: action.seq, actionPath: action.path, kind: .undecodableAction(reason: reason)
                ))
            )
          }
          decodedActions[json] = decoded
        }
        try takeJumps(through: action.seq - 1)
        let before = state
        let effect = reducer.reduce(into: &state, action: decoded)
        returnedNoEffect.append(effect.cannotSendActions)
        // NB: The states were equal before the action; they are after it when it changed the
        // same values in the same way. Only when it did not is the whole state compared.
        let changes = withUnsafePointer(to: before) { before in
          withUnsafePointer(to: state) { after in
            StateDiff.changes(
              from: UnsafeRawPointer(before), to: UnsafeRawPointer(after), kind: kind
            ).list
          }
        }
        if !Self.sameChanges(changes, action.changes),
          let divergence = try difference(after: action.seq, path: action.path, state)
        {
          return diverged(divergence)
        }
        report.replayed += 1
      }
    }
    // NB: A session being recorded may have grown since it was counted.
    report.total = report.replayed
    return report
  }

  /// The divergence of the action `cause`, which returned no effect where the recording shows
  /// its effects sent `sent` (at `sentPath`).
  private func missingEffect(
    cause: Int, sent: Int, sentPath: String, _ reader: TraceReader
  ) throws -> TraceDivergence {
    TraceDivergence(
      seq: cause, actionPath: try reader.action(session: self.session, seq: cause)?.path ?? "",
      kind: .missingEffect(sentSeq: sent, sentPath: sentPath)
    )
  }

  /// Whether the changes a replayed action made are the ones recorded: a recorded
  /// `<redacted>` matches any value.
  private static func sameChanges(_ replayed: [StateChange], _ recorded: [StateChange]) -> Bool {
    guard replayed.count == recorded.count else { return false }
    func same(_ value: String?, _ recorded: String?) -> Bool {
      value == recorded || recorded == TraceRedaction.marker
    }
    return zip(replayed, recorded).allSatisfy { replayed, recorded in
      replayed.path == recorded.path && replayed.kind == recorded.kind
        && same(replayed.old, recorded.old) && same(replayed.new, recorded.new)
    }
  }

  /// Replays the session against `reducer`, as ``run(_:withDependencies:)`` does, and reports
  /// an issue with the replay's report when it diverges: a recording becomes a regression test.
  ///
  /// ```swift
  /// @Test func checkoutBug() async throws {
  ///   try await TraceReplayer(path: "checkout-bug.db", session: 3).verify(AppFeature())
  /// }
  /// ```
  @MainActor
  public func verify<R: Reducer>(
    _ reducer: R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async throws where R.State: Decodable, R.Action: Decodable {
    let report = try await self.run(reducer, withDependencies: prepareDependencies)
    if report.divergence != nil {
      reportIssue(
        report.description, fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }

  /// What a decoding error says, and which case it could not find: Swift's decoding of an enum
  /// says only that it found no key it knows, so the key is read from `json` where it failed.
  static func describe(_ error: any Error, in json: String) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    let context: DecodingError.Context
    switch error {
    case let .typeMismatch(_, found), let .valueNotFound(_, found), let .keyNotFound(_, found),
      let .dataCorrupted(found):
      context = found
    @unknown default:
      return "\(error)"
    }
    let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
    let at = path.isEmpty ? "" : " at \(path.joined(separator: "."))"
    var value = try? JSONSerialization.jsonObject(
      with: Data(json.utf8), options: [.fragmentsAllowed])
    for key in context.codingPath {
      if let index = key.intValue, let array = value as? [Any], array.indices.contains(index) {
        value = array[index]
      } else {
        value = (value as? [String: Any])?[key.stringValue]
      }
    }
    if case .typeMismatch = error, let object = value as? [String: Any], object.count == 1,
      let name = object.keys.first
    {
      return "has no case '\(name)'\(at): it was renamed or removed since the recording"
    }
    if case let .keyNotFound(key, _) = error {
      return
        "needs '\(key.stringValue)'\(at), which the recording does not have: it was added or renamed since the recording"
    }
    return "does not decode\(at): \(context.debugDescription)"
  }
}

/// Why a session cannot be replayed at all.
public struct TraceReplayError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public var description: String { self.message }
}

/// How far a replay got, and where it diverged from the recording.
public struct TraceReplayReport: Sendable, Equatable, CustomStringConvertible {
  public var path: String
  public var session: Int64
  /// The reducer replayed: its type's name.
  public var reducer: String
  /// The actions replayed with the state they left equal to the recording's.
  public var replayed: Int
  /// The actions in the session.
  public var total: Int
  /// The first divergence; `nil` when the replay matched the recording throughout.
  public var divergence: TraceDivergence?

  /// The report, its lines as they are and every other control from the trace escaped
  /// (`\u{1B}`): a case name or a value in a trace must not act on the terminal that shows it.
  public var description: String {
    self.text.terminalSafeLineByLine
  }

  private var text: String {
    let head =
      "Replayed \(self.replayed) of \(self.total) actions of session \(self.session) of '\(self.path)' against \(self.reducer)"
    guard let divergence = self.divergence else {
      return head + ": every state is the recorded one."
    }
    return head + ": it diverges at " + divergence.text
  }
}

/// Where a replay first differs from its recording.
public struct TraceDivergence: Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// The state after the action differs at `path`: the values there, rendered (`nil`: the
    /// value is not there).
    case state(path: String, recorded: String?, replayed: String?)
    /// The action now returns no effect that can send an action, where the recording shows its
    /// effects sent `sentSeq`.
    case missingEffect(sentSeq: Int, sentPath: String)
    /// The recorded action does not decode as today's action type.
    case undecodableAction(reason: String)
  }

  /// The action; 0 for the initial state.
  public var seq: Int
  /// The action's case path, as recorded (`_internal.login.view.emailChanged`).
  public var actionPath: String
  public var kind: Kind

  public init(seq: Int, actionPath: String, kind: Kind) {
    self.seq = seq
    self.actionPath = actionPath
    self.kind = kind
  }

  /// Where and how, its lines as they are and every other control from the trace escaped.
  public var description: String {
    self.text.terminalSafeLineByLine
  }

  fileprivate var text: String {
    let action =
      self.seq == 0
      ? "the initial state"
      : self.actionPath.isEmpty
        ? "the state after action #\(self.seq), where the session begins"
        : "action #\(self.seq) \(self.actionPath)"
    switch self.kind {
    case let .state(path, recorded, replayed):
      let place = path.isEmpty ? "the state" : "the state at \(path)"
      return """
        \(action).
        After it, \(place) differs (− recorded, + replayed):
        \(Self.diff(recorded: recorded, replayed: replayed))
        """
    case let .missingEffect(sentSeq, sentPath):
      return """
        \(action).
        It returns no effect that can send an action, but in the recording its effects sent \
        #\(sentSeq) \(sentPath).
        """
    case let .undecodableAction(reason):
      return """
        \(action).
        The recorded action does not decode: \(reason).
        """
    }
  }

  /// The two renderings line by line, the lines they share shown once.
  static func diff(recorded: String?, replayed: String?) -> String {
    let old =
      recorded.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
      ?? []
    let new =
      replayed.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
      ?? []
    var prefix = 0
    while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < min(old.count, new.count) - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    var lines = old[..<prefix].map { "  " + $0 }
    lines += old[prefix..<(old.count - suffix)].map { "− " + $0 }
    lines += new[prefix..<(new.count - suffix)].map { "+ " + $0 }
    lines += old[(old.count - suffix)...].map { "  " + $0 }
    if recorded == nil { lines.insert("− (nothing)", at: 0) }
    if replayed == nil { lines.append("+ (nothing)") }
    return lines.joined(separator: "\n")
  }
}

/// `type`'s name without its module, and without the context Swift names a private type by.
private func typeName(_ type: Any.Type) -> String {
  String(reflecting: type).split(separator: ".").dropFirst()
    .filter { !$0.hasPrefix("(unknown context") }
    .joined(separator: ".")
}

extension StateNode {
  /// The first place, depth first, where this state (replayed) differs from `recorded`: a
  /// recorded `<redacted>` matches any value.
  func firstDifference(from recorded: StateNode) -> (
    path: String, recorded: String?, replayed: String?
  )? {
    self.firstDifference(from: recorded, at: "")
  }

  private func firstDifference(from recorded: StateNode, at path: String) -> (
    path: String, recorded: String?, replayed: String?
  )? {
    if recorded == .text(TraceRedaction.marker) || self == recorded { return nil }
    switch (self, recorded) {
    case let (.some(mine), .some(theirs)):
      return mine.firstDifference(from: theirs, at: path)
    case let (.container(mine), .container(theirs)) where mine.kind == theirs.kind:
      let keys = mine.children.map(\.key)
      // Children with the same keys in the same order are compared one by one; otherwise the
      // container differs as a whole (an element added, removed or moved).
      if keys == theirs.children.map(\.key) {
        for (child, recordedChild) in zip(mine.children, theirs.children) {
          let childPath: String
          if child.key.isEmpty {
            childPath = path
          } else if child.key.hasPrefix("[") || path.isEmpty {
            childPath = path + child.key
          } else {
            childPath = path + "." + child.key
          }
          if let difference = child.node.firstDifference(from: recordedChild.node, at: childPath) {
            return difference
          }
        }
        // NB: A collection prints its children labelled with their offsets, whatever label a
        // child kept (a rebuilt element keeps its id's).
        if mine.kind == .collection || mine.children.map(\.label) == theirs.children.map(\.label) {
          return nil
        }
      }
    default:
      break
    }
    return (path, recorded.renderedNested(), self.renderedNested())
  }
}
