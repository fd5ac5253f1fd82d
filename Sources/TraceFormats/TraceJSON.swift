import TCATraceFile
import ToolSupport

// What the programs that read traces print as JSON, one rendering each: `tcatrace`'s
// `--format json` and `tcatrace serve`'s API alike.

extension TracedAction {
  /// The action in `--format json|jsonl`.
  package func json(showsChanges: Bool) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("session", .integer(self.sessionID)),
      ("seq", .integer(Int64(self.seq))),
      ("time_ns", .integer(self.timeNs)),
      ("duration_ns", .integer(self.durationNs)),
    ]
    switch self.origin {
    case .send, .debugger: members += [("origin", .string(self.origin.name)), ("cause_seq", .null)]
    case let .effect(cause):
      members += [("origin", .string("effect")), ("cause_seq", .integer(Int64(cause)))]
    }
    members += [
      ("path", .string(self.path)),
      ("root_category", .string(self.rootCategory.rawValue)),
      ("feature", .string(self.feature)),
      ("category", .string(self.category.rawValue)),
      ("case", .string(self.caseName)),
      ("state_path", .string(self.statePath)),
      ("payload", JSONValue(self.payload)),
      ("payload_json", JSONValue(self.payloadJSON)),
    ]
    if showsChanges {
      members.append(
        (
          "changes",
          .array(self.changes.map(\.json))
        )
      )
    }
    members.append(
      (
        "leaks",
        .array(
          self.leaks.map {
            .object([
              ("rule", .string($0.rule.rawValue)), ("feature", .string($0.feature)),
              ("detail", .string($0.detail)),
            ])
          }
        )
      )
    )
    // NB: Only on an action copied from a flight journal: the others' JSON is as it was.
    if let flight = self.flight { members.append(("flight", .string(flight.rawValue))) }
    return .object(members)
  }
}

extension StateChange {
  /// A change in `--format json`: its `path`, `kind`, `old` and `new`.
  package var json: JSONValue {
    .object([
      ("path", .string(self.path)), ("kind", .string(self.kind.rawValue)),
      ("old", JSONValue(self.old)), ("new", JSONValue(self.new)),
    ])
  }
}

extension StateNode {
  /// The tree in `--format json`: each node an object saying what it is.
  package var jsonValue: JSONValue {
    switch self {
    case let .text(text):
      return .object([("text", .string(text))])
    case let .multilineString(string, _):
      return .object([("string", .string(string))])
    case let .enumCase(type, description):
      return .object([("type", .string(type)), ("case", .string(description))])
    case let .some(wrapped):
      return wrapped.jsonValue
    case let .container(container):
      var fields: [(String, JSONValue)] = []
      switch container.kind {
      case let .structure(type): fields.append(("type", .string(type)))
      case .tuple: fields.append(("tuple", .bool(true)))
      case .collection: fields.append(("collection", .bool(true)))
      case .dictionary: fields.append(("dictionary", .bool(true)))
      case .set: fields.append(("set", .bool(true)))
      case let .enumCase(type, name):
        fields.append(("type", .string(type)))
        fields.append(("case", .string(name)))
      }
      fields.append(
        (
          "children",
          .array(
            container.children.map { child in
              .object([
                ("label", JSONValue(child.label)), ("key", .string(child.key)),
                ("value", child.node.jsonValue),
              ])
            }
          )
        )
      )
      return .object(fields)
    }
  }
}

extension StateNode {
  /// The state after action `seq` in `--format json` (and `tcatrace serve`'s): `node` is the
  /// state or, with `path`, the value there; `json` the state's own JSON.
  package static func stateJSON(
    session: Int64, after seq: Int, path: String?, node: StateNode, json: String?
  ) -> JSONValue {
    .object([
      ("session", .integer(session)),
      ("after", .integer(Int64(seq))),
      ("path", JSONValue(path)),
      ("rendered", .string(node.rendered())),
      ("tree", node.jsonValue),
      ("json", JSONValue(json)),
    ])
  }
}

extension TraceValue {
  /// The value as table and CSV cells show it: `NULL`, numbers, text, `x'…'` for blobs.
  package var text: String {
    switch self {
    case .null: "NULL"
    case let .integer(integer): String(integer)
    case let .real(real): String(real)
    case let .text(text): text
    case let .blob(bytes): "x'" + bytes.map { String(cFormat: "%02x", $0) }.joined() + "'"
    }
  }

  package var json: JSONValue {
    switch self {
    case .null: .null
    case let .integer(integer): .integer(integer)
    case let .real(real): .number(real)
    case let .text(text): .string(text)
    case .blob: .string(self.text)
    }
  }
}

extension TraceFileError {
  /// A query's error on one line, with what to do.
  package func queryExplanation(file: String) -> String {
    let sqliteMessage = self.message
    if self.kind == .notWritable || sqliteMessage.contains("readonly") {
      return
        "tcatrace sql runs read-only queries, and this one would change '\(file)' (\(sqliteMessage)): use SELECT"
    }
    if sqliteMessage.contains("attached databases") {
      return "tcatrace sql cannot attach other databases: query '\(file)' alone"
    }
    return "\(self.cliDescription): check the query"
  }
}
