/// The protocol of a live connection, by which an app streams its session to `tcatrace serve
/// --live`: frames, each a message's length (4 bytes, big-endian) and then the message, a JSON
/// object with one member named for its kind.
///
/// The app says `hello` with the server's secret; the server answers `welcome`, or `refused`
/// with a reason and closes. Then the app sends its session's rows as its recorder wrote them
/// into its own file: the `session`, each `action` with its state changes and leaks, each kept
/// `state`, and the session's `end`. While it is connected, the server may send it a `command`
/// the page gave (jump to a state, send an action, lock), which the app answers by its id.
package enum LiveProtocol {
  /// The version of the protocol this build speaks.
  package static let version = 2

  /// The largest message either side sends or takes: a kept state of 16 MiB fits, as its tree
  /// and its JSON.
  package static let maximumMessageBytes = 48 << 20

  /// The largest hello a server takes: it reads no more from an app it does not know yet.
  package static let maximumHelloBytes = 4096
}

/// A live connection that broke the protocol: what was wrong, in one line.
package struct LiveProtocolError: Error, Equatable, Sendable {
  package var reason: String

  package init(_ reason: String) {
    self.reason = reason
  }
}

/// One message of a live connection (see ``LiveProtocol``).
package enum LiveMessage: Equatable, Sendable {
  /// An app's first message: the version of the protocol it speaks, the secret the server
  /// printed, and the app's name, for the file its session is written to.
  case hello(version: Int, secret: String, app: String)
  /// The server took the app's hello.
  case welcome
  /// The server refused the app: why.
  case refused(String)
  /// The server cannot take the app now (too many are connected): why. The app tries again.
  case busy(String)
  /// The session's row.
  case session(LiveSession)
  /// An action with its state changes and leaks.
  case action(LiveAction)
  /// A state kept after action `seq` (0: before the first).
  case state(seq: Int, tree: String, json: String?)
  /// The session ended, at `endedAt` (`nil`: not cleanly), with the actions its recorder
  /// dropped, and those the store's thread analysed because the recorder's backlog was at its
  /// bound (`nil`: not counted; absent from an older app's message).
  case end(endedAt: String?, droppedActions: Int, backlogFallbacks: Int?)
  /// What a debugger did to the app: a row of `debugger_events`.
  case debuggerEvent(afterSeq: Int, timeNs: Int64, kind: String, toSeq: Int?, ignoredActions: Int?)
  /// The server asks the app to do what the page asked; the app answers with the same `id`.
  case command(id: Int, LiveCommand)
  /// The app's answer to command `id`: `refusal`, why it did not do it (`nil` when it did), and
  /// `detail`, what it did.
  case answer(id: Int, refusal: String?, detail: String)
}

/// What the page asks a live app to do.
package enum LiveCommand: Equatable, Sendable {
  /// Take the state after action `seq` of its session: from its memory, or else from `json`,
  /// the state's JSON in the trace (`nil` when the trace has none).
  case jump(seq: Int, json: String?)
  /// Take the state it had before the first jump since the last return.
  case back
  /// Send the action whose JSON (as the trace records it) is `json`.
  case send(json: String)
  /// Ignore, and count, the actions sent from anywhere else than the debugger.
  case lock
  /// Take them again.
  case unlock

  /// The command's name in the protocol and the API.
  package var name: String {
    switch self {
    case .jump: "jump"
    case .back: "back"
    case .send: "send"
    case .lock: "lock"
    case .unlock: "unlock"
    }
  }
}

/// A session's row, as a live connection carries it.
package struct LiveSession: Equatable, Sendable {
  package var name: String
  package var rootFeature: String
  package var startedAt: String
  package var recorderVersion: String

  package init(name: String, rootFeature: String, startedAt: String, recorderVersion: String) {
    self.name = name
    self.rootFeature = rootFeature
    self.startedAt = startedAt
    self.recorderVersion = recorderVersion
  }
}

/// An action's row with its state changes and leaks, as a live connection carries them: the
/// columns of `actions`, `state_changes` and `leaks` (see the schema).
package struct LiveAction: Equatable, Sendable {
  package struct Change: Equatable, Sendable {
    package var path: String
    package var kind: String
    package var old: String?
    package var new: String?
    package var rebuild: String?
    package var shared: String?

    package init(
      path: String, kind: String, old: String?, new: String?, rebuild: String?, shared: String?
    ) {
      self.path = path
      self.kind = kind
      self.old = old
      self.new = new
      self.rebuild = rebuild
      self.shared = shared
    }
  }

  package struct Leak: Equatable, Sendable {
    package var rule: String
    package var feature: String
    package var detail: String

    package init(rule: String, feature: String, detail: String) {
      self.rule = rule
      self.feature = feature
      self.detail = detail
    }
  }

  package var seq: Int
  package var timeNs: Int64
  package var durationNs: Int64
  package var causeSeq: Int?
  package var path: String
  package var rootCategory: String
  package var feature: String
  package var category: String
  package var caseName: String
  package var statePath: String
  package var payload: String?
  package var payloadJSON: String?
  package var jsonChanges: String?
  package var atOnce: Bool
  package var changes: [Change]
  package var leaks: [Leak]
  /// Whether the page sent it (origin `debugger`).
  package var fromDebugger = false

  package init(
    seq: Int, timeNs: Int64, durationNs: Int64, causeSeq: Int?, path: String,
    rootCategory: String, feature: String, category: String, caseName: String,
    statePath: String, payload: String?, payloadJSON: String?, jsonChanges: String?,
    atOnce: Bool, changes: [Change], leaks: [Leak], fromDebugger: Bool = false
  ) {
    self.fromDebugger = fromDebugger
    self.seq = seq
    self.timeNs = timeNs
    self.durationNs = durationNs
    self.causeSeq = causeSeq
    self.path = path
    self.rootCategory = rootCategory
    self.feature = feature
    self.category = category
    self.caseName = caseName
    self.statePath = statePath
    self.payload = payload
    self.payloadJSON = payloadJSON
    self.jsonChanges = jsonChanges
    self.atOnce = atOnce
    self.changes = changes
    self.leaks = leaks
  }
}

// MARK: - Frames

extension LiveMessage {
  /// The message as a frame: its length, 4 bytes big-endian, then its JSON.
  package var frame: [UInt8] {
    var json: [UInt8] = []
    self.encode(into: &json)
    let count = UInt32(json.count)
    return [
      UInt8(truncatingIfNeeded: count >> 24), UInt8(truncatingIfNeeded: count >> 16),
      UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count),
    ] + json
  }

  private func encode(into out: inout [UInt8]) {
    var object = JSONObjectWriter(into: out)
    switch self {
    case let .hello(version, secret, app):
      object.open("hello")
      object.member("version", version)
      object.member("secret", secret)
      object.member("app", app)
      object.close()
    case .welcome:
      object.open("welcome")
      object.close()
    case let .refused(reason):
      object.open("refused")
      object.member("reason", reason)
      object.close()
    case let .busy(reason):
      object.open("busy")
      object.member("reason", reason)
      object.close()
    case let .session(session):
      object.open("session")
      object.member("name", session.name)
      object.member("root_feature", session.rootFeature)
      object.member("started_at", session.startedAt)
      object.member("recorder_version", session.recorderVersion)
      object.close()
    case let .action(action):
      object.open("action")
      object.member("seq", action.seq)
      object.member("time_ns", Int(action.timeNs))
      object.member("duration_ns", Int(action.durationNs))
      object.member("cause_seq", action.causeSeq)
      object.member("path", action.path)
      object.member("root_category", action.rootCategory)
      object.member("feature", action.feature)
      object.member("category", action.category)
      object.member("case_name", action.caseName)
      object.member("state_path", action.statePath)
      object.member("payload", action.payload)
      object.member("payload_json", action.payloadJSON)
      object.member("json_changes", action.jsonChanges)
      object.member("at_once", action.atOnce)
      object.member("debugger", action.fromDebugger)
      object.rows(
        "changes",
        action.changes.map { [$0.path, $0.kind, $0.old, $0.new, $0.rebuild, $0.shared] })
      object.rows("leaks", action.leaks.map { [$0.rule, $0.feature, $0.detail] })
      object.close()
    case let .state(seq, tree, json):
      object.open("state")
      object.member("seq", seq)
      object.member("tree", tree)
      object.member("json", json)
      object.close()
    case let .end(endedAt, droppedActions, backlogFallbacks):
      object.open("end")
      object.member("ended_at", endedAt)
      object.member("dropped_actions", droppedActions)
      object.member("backlog_fallbacks", backlogFallbacks)
      object.close()
    case let .debuggerEvent(afterSeq, timeNs, kind, toSeq, ignoredActions):
      object.open("debugger_event")
      object.member("after_seq", afterSeq)
      object.member("time_ns", Int(timeNs))
      object.member("kind", kind)
      object.member("to_seq", toSeq)
      object.member("ignored_actions", ignoredActions)
      object.close()
    case let .command(id, command):
      object.open("command")
      object.member("id", id)
      object.member("do", command.name)
      switch command {
      case let .jump(seq, json):
        object.member("seq", seq)
        object.member("json", json)
      case let .send(json):
        object.member("json", json)
      case .back, .lock, .unlock:
        break
      }
      object.close()
    case let .answer(id, refusal, detail):
      object.open("answer")
      object.member("id", id)
      object.member("refusal", refusal)
      object.member("detail", detail)
      object.close()
    }
    out = object.finish()
  }
}

/// Writes a message's JSON: `{"kind":{…}}`.
private struct JSONObjectWriter {
  private var out: [UInt8]
  private var isFirst = true

  init(into out: [UInt8]) {
    self.out = out
  }

  mutating func open(_ kind: String) {
    self.out.append(UInt8(ascii: "{"))
    JSONString.quote(kind, into: &self.out)
    self.out += ":{".utf8
  }

  private mutating func key(_ name: String) {
    if !self.isFirst { self.out.append(UInt8(ascii: ",")) }
    self.isFirst = false
    JSONString.quote(name, into: &self.out)
    self.out.append(UInt8(ascii: ":"))
  }

  mutating func member(_ name: String, _ value: String?) {
    self.key(name)
    if let value { JSONString.quote(value, into: &self.out) } else { self.out += "null".utf8 }
  }

  mutating func member(_ name: String, _ value: Int?) {
    self.key(name)
    self.out += (value.map(String.init) ?? "null").utf8
  }

  mutating func member(_ name: String, _ value: Bool) {
    self.key(name)
    self.out += (value ? "true" : "false").utf8
  }

  /// An array of rows, each an array of strings and nulls.
  mutating func rows(_ name: String, _ rows: [[String?]]) {
    self.key(name)
    self.out.append(UInt8(ascii: "["))
    for (offset, row) in rows.enumerated() {
      if offset > 0 { self.out.append(UInt8(ascii: ",")) }
      self.out.append(UInt8(ascii: "["))
      for (index, value) in row.enumerated() {
        if index > 0 { self.out.append(UInt8(ascii: ",")) }
        if let value { JSONString.quote(value, into: &self.out) } else { self.out += "null".utf8 }
      }
      self.out.append(UInt8(ascii: "]"))
    }
    self.out.append(UInt8(ascii: "]"))
  }

  mutating func close() {
    self.out += "}}".utf8
  }

  func finish() -> [UInt8] { self.out }
}

/// Reads the messages of a live connection from its bytes as they arrive.
package struct LiveMessageReader: Sendable {
  private var buffer: [UInt8] = []
  private var start = 0
  /// The longest message taken: a server takes a short hello before it knows the app.
  package var maximumMessageBytes = LiveProtocol.maximumMessageBytes

  package init() {}

  /// The bytes held until a whole message has arrived.
  package var pendingBytes: Int { self.buffer.count - self.start }

  package mutating func append(_ bytes: some Sequence<UInt8>) {
    if self.start > 0, self.start == self.buffer.count {
      self.buffer.removeAll(keepingCapacity: true)
      self.start = 0
    }
    self.buffer.append(contentsOf: bytes)
  }

  /// The next whole message, `nil` until one has arrived.
  ///
  /// - Throws: ``LiveProtocolError`` for a frame longer than ``maximumMessageBytes`` or empty, as soon as its length has arrived, and for
  ///   a message that is not one of ``LiveMessage``'s.
  package mutating func next() throws(LiveProtocolError) -> LiveMessage? {
    guard self.pendingBytes >= 4 else { return nil }
    let length = self.buffer[self.start..<self.start + 4].reduce(0) { $0 << 8 | Int($1) }
    guard length > 0, length <= self.maximumMessageBytes else {
      throw LiveProtocolError(
        "a message of \(length) bytes: a message is 1 to \(self.maximumMessageBytes) bytes"
      )
    }
    guard self.pendingBytes >= 4 + length else { return nil }
    let body = self.start + 4..<self.start + 4 + length
    self.start = body.upperBound
    let message = try self.buffer.withUnsafeBufferPointer { (all) throws(LiveProtocolError) in
      try LiveMessage(json: UnsafeBufferPointer(rebasing: all[body]))
    }
    if self.start == self.buffer.count {
      self.buffer.removeAll(keepingCapacity: true)
      self.start = 0
    } else if self.start > 1 << 20 {
      self.buffer.removeFirst(self.start)
      self.start = 0
    }
    return message
  }
}

extension LiveMessage {
  /// The message `json` holds.
  init(json: UnsafeBufferPointer<UInt8>) throws(LiveProtocolError) {
    var parser = JSONParser(bytes: json)
    let parsed: Any
    do throws(StateJSONError) {
      parsed = try parser.value(depth: 0)
      parser.skipSpace()
      guard parser.index == json.count else { throw parser.failure() }
    } catch {
      throw LiveProtocolError("a message that is not JSON")
    }
    guard let outer = parsed as? [String: Any], outer.count == 1, let member = outer.first,
      let fields = member.value as? [String: Any]
    else {
      throw LiveProtocolError("a message that is not one object with one member")
    }
    let kind = member.key
    let reader = FieldReader(kind: kind, fields: fields)
    switch kind {
    case "hello":
      self = .hello(
        version: try reader.integer("version"), secret: try reader.string("secret"),
        app: try reader.string("app"))
    case "welcome":
      self = .welcome
    case "refused":
      self = .refused(try reader.string("reason"))
    case "busy":
      self = .busy(try reader.string("reason"))
    case "session":
      self = .session(
        LiveSession(
          name: try reader.string("name"), rootFeature: try reader.string("root_feature"),
          startedAt: try reader.string("started_at"),
          recorderVersion: try reader.string("recorder_version")))
    case "action":
      self = .action(
        LiveAction(
          seq: try reader.integer("seq"), timeNs: Int64(try reader.integer("time_ns")),
          durationNs: Int64(try reader.integer("duration_ns")),
          causeSeq: try reader.optionalInteger("cause_seq"), path: try reader.string("path"),
          rootCategory: try reader.string("root_category"), feature: try reader.string("feature"),
          category: try reader.string("category"), caseName: try reader.string("case_name"),
          statePath: try reader.string("state_path"),
          payload: try reader.optionalString("payload"),
          payloadJSON: try reader.optionalString("payload_json"),
          jsonChanges: try reader.optionalString("json_changes"),
          atOnce: try reader.boolean("at_once"),
          changes: try reader.rows("changes", width: 6).map { row throws(LiveProtocolError) in
            guard let path = row[0], let kind = row[1] else {
              throw LiveProtocolError("an action whose state change has no path or kind")
            }
            return LiveAction.Change(
              path: path, kind: kind, old: row[2], new: row[3], rebuild: row[4], shared: row[5])
          },
          leaks: try reader.rows("leaks", width: 3).map { row throws(LiveProtocolError) in
            guard let rule = row[0], let feature = row[1], let detail = row[2] else {
              throw LiveProtocolError("an action whose leak lacks its rule, feature or detail")
            }
            return LiveAction.Leak(rule: rule, feature: feature, detail: detail)
          },
          fromDebugger: try reader.boolean("debugger")
        ))
    case "state":
      self = .state(
        seq: try reader.integer("seq"), tree: try reader.string("tree"),
        json: try reader.optionalString("json"))
    case "end":
      self = .end(
        endedAt: try reader.optionalString("ended_at"),
        droppedActions: try reader.integer("dropped_actions"),
        backlogFallbacks: try reader.optionalInteger("backlog_fallbacks"))
    case "debugger_event":
      self = .debuggerEvent(
        afterSeq: try reader.integer("after_seq"), timeNs: Int64(try reader.integer("time_ns")),
        kind: try reader.string("kind"), toSeq: try reader.optionalInteger("to_seq"),
        ignoredActions: try reader.optionalInteger("ignored_actions"))
    case "command":
      let command: LiveCommand
      switch try reader.string("do") {
      case "jump":
        command = .jump(seq: try reader.integer("seq"), json: try reader.optionalString("json"))
      case "back": command = .back
      case "send": command = .send(json: try reader.string("json"))
      case "lock": command = .lock
      case "unlock": command = .unlock
      default: throw LiveProtocolError("a command the protocol does not have")
      }
      self = .command(id: try reader.integer("id"), command)
    case "answer":
      self = .answer(
        id: try reader.integer("id"), refusal: try reader.optionalString("refusal"),
        detail: try reader.string("detail"))
    default:
      throw LiveProtocolError("a message of no kind the protocol has")
    }
  }
}

/// Reads a message's fields, each of the type it must be.
private struct FieldReader {
  let kind: String
  let fields: [String: Any]

  private func wrong(_ name: String, _ type: String) -> LiveProtocolError {
    LiveProtocolError("a '\(self.kind)' message whose '\(name)' is not \(type)")
  }

  func string(_ name: String) throws(LiveProtocolError) -> String {
    guard let value = self.fields[name] as? String else { throw self.wrong(name, "a string") }
    return value
  }

  func optionalString(_ name: String) throws(LiveProtocolError) -> String? {
    switch self.fields[name] {
    case let value as String: return value
    case is JSONParser.Null, nil: return nil
    default: throw self.wrong(name, "a string or null")
    }
  }

  func integer(_ name: String) throws(LiveProtocolError) -> Int {
    guard let value = self.fields[name] as? Int else { throw self.wrong(name, "an integer") }
    return value
  }

  func optionalInteger(_ name: String) throws(LiveProtocolError) -> Int? {
    switch self.fields[name] {
    case let value as Int: return value
    case is JSONParser.Null, nil: return nil
    default: throw self.wrong(name, "an integer or null")
    }
  }

  func boolean(_ name: String) throws(LiveProtocolError) -> Bool {
    guard let value = self.fields[name] as? Bool else { throw self.wrong(name, "true or false") }
    return value
  }

  /// An array of rows of `width` strings or nulls.
  func rows(_ name: String, width: Int) throws(LiveProtocolError) -> [[String?]] {
    guard let rows = self.fields[name] as? [Any] else { throw self.wrong(name, "an array") }
    var result: [[String?]] = []
    result.reserveCapacity(rows.count)
    for row in rows {
      guard let row = row as? [Any], row.count == width else {
        throw self.wrong(name, "an array of rows of \(width)")
      }
      var values: [String?] = []
      for value in row {
        switch value {
        case let text as String: values.append(text)
        case is JSONParser.Null: values.append(nil)
        default: throw self.wrong(name, "an array of rows of strings and nulls")
        }
      }
      result.append(values)
    }
    return result
  }
}
