import FlyingFox
import Foundation
import TCATraceFile
import ToolSupport
import GeneratedTestCheck
import TestGeneration
import TraceFormats

// NB: FlyingFox has a `JSONValue` too.
private typealias JSONValue = ToolSupport.JSONValue

/// `tcatrace serve`'s HTTP side: the page, and the read-only JSON API it reads traces through
/// (Documentation/serve-openapi.yaml).
///
/// Every request must come to the address it serves (its `Host`, against DNS rebinding) and
/// carry the token made at start (`X-TCATrace-Token`, or `token` in the query). Only `GET`.
/// Nothing it answers is HTML built from a trace: the page is static, and a trace's text
/// reaches it as JSON strings, which the page shows as text.
struct TraceServer: HTTPHandler {
  /// The files given, in order, then those apps' sessions are written to as they connect
  /// (`--live`): the API names them by index.
  let files: ServedFiles
  let token: String
  /// Whether apps' sessions arrive as the server runs (`--live`).
  var isLive = false
  /// The `Host` values accepted: the address and port it listens on.
  let hosts: Set<String>
  /// What SQLite's check of each file found.
  let checks = FileChecks()

  /// The largest page of actions one request gets.
  static let maximumPageSize = 500

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard let host = request.headers[.host], self.hosts.contains(host.lowercased()) else {
      return Self.error(
        .forbidden,
        "this server answers only requests to \(self.hosts.sorted().first ?? "its address")")
    }
    guard Self.isEqual(self.token(of: request), self.token) else {
      return Self.error(
        .unauthorized, "the token is missing or wrong: open the URL tcatrace serve printed")
    }
    let components = request.path.split(separator: "/", omittingEmptySubsequences: true).map(
      String.init)
    // NB: The one thing that changes anything is a live app, driven from the page: `POST
    // /api/files/{file}/live/{command}`. No file changes.
    if components.count == 5, components[0] == "api", components[1] == "files",
      components[3] == "live"
    {
      guard request.method == .POST else {
        var refusal = Self.error(.methodNotAllowed, "a live app's commands are POST requests")
        refusal.headers[HTTPHeader("Allow")] = "POST"
        return refusal
      }
      // NB: The token in a header, not the query: a page elsewhere cannot send the header
      // without asking first (CORS' preflight), which this server does not answer.
      guard request.headers[HTTPHeader("X-TCATrace-Token")] != nil else {
        return Self.error(
          .unauthorized,
          "a live app's commands carry the token as X-TCATrace-Token, as the page sends it")
      }
      do {
        return try await self.drive(fileIndex: components[2], command: components[4], request)
      } catch let error as APIError {
        return Self.error(error.status, error.message)
      }
    }
    guard request.method == .GET || request.method == .HEAD else {
      var refusal = Self.error(
        .methodNotAllowed, "only GET: this server changes nothing but a live app, from its page")
      refusal.headers[HTTPHeader("Allow")] = "GET, HEAD"
      return refusal
    }
    do {
      switch components.first {
      case nil, "index.html":
        return Self.asset(
          PageAssets.index(token: self.token, live: self.isLive), type: "text/html; charset=utf-8")
      case "app.js":
        return Self.asset(PageAssets.script, type: "text/javascript; charset=utf-8")
      case "app.css":
        return Self.asset(PageAssets.style, type: "text/css; charset=utf-8")
      case "api":
        return try self.api(Array(components.dropFirst()), query: request.query)
      default:
        return Self.error(.notFound, "no page '\(request.path)'")
      }
    } catch let error as APIError {
      return Self.error(error.status, error.message)
    } catch let error as TraceFileError {
      // NB: A session or action the file does not hold is a resource that is not there; a
      // file that cannot be read is one the request cannot be answered from.
      return Self.error(
        error.kind == .notInFile ? .notFound : .unprocessableContent, error.cliDescription)
    } catch let error as CLIError {
      return Self.error(.unprocessableContent, error.message)
    } catch {
      return Self.error(.unprocessableContent, "\(error)")
    }
  }

  // MARK: - The API

  private func api(_ path: [String], query: [HTTPRequest.QueryItem]) throws -> HTTPResponse {
    let query = Query(query)
    if path == ["files"] {
      let files = self.files.all
      return Self.json(.array(files.indices.map { self.fileSummary($0, files[$0]) }))
    }
    if path.count == 3, path[0] == "files", path[2] == "sql" {
      return try self.sql(file: try self.file(path[1]), query: query)
    }
    // files/{file}/sessions/{session}/…
    guard path.count >= 4, path[0] == "files", path[2] == "sessions" else {
      throw APIError(.notFound, "no API '/api/\(path.joined(separator: "/"))'")
    }
    let file = try self.file(path[1])
    guard let session = Int64(path[3]), session > 0 else {
      throw APIError(.badRequest, "'\(path[3])' is not a session id: ids are 1 or more")
    }
    let rest = Array(path.dropFirst(4))
    if rest == ["actions"] {
      return try self.actions(file: file, session: session, query: query)
    }
    if rest.count == 2, rest[0] == "actions" {
      guard let seq = Int(rest[1]), seq > 0 else {
        throw APIError(.badRequest, "'\(rest[1])' is not an action's seq: seqs are 1 or more")
      }
      return try self.action(file: file, session: session, seq: seq)
    }
    if rest == ["state"] {
      return try self.state(file: file, session: session, query: query)
    }
    if rest == ["leaks"] {
      return try self.leaks(file: file, session: session)
    }
    if rest == ["features"] {
      return try self.features(file: file, session: session)
    }
    if rest == ["debugger"] {
      return try self.debuggerEvents(file: file, session: session)
    }
    if rest == ["compare"] {
      return try self.compare(fileIndex: path[1], session: session, query: query)
    }
    if rest == ["perfetto"] {
      return try self.perfetto(file: file, session: session)
    }
    if rest == ["test"] {
      return try self.test(file: file, session: session)
    }
    throw APIError(.notFound, "no API '/api/\(path.joined(separator: "/"))'")
  }

  // MARK: - Driving a live app

  /// The largest action a page sends an app, as JSON.
  static let maximumSentActionBytes = 1 << 20

  /// `POST /api/files/F/live/C`: has the app whose session file F holds, while it is connected,
  /// do C: `jump?seq=N` (take the state after action N, 0 for the state before the first),
  /// `back`, `send` (the action whose JSON is the request's body), `lock` or `unlock`. Answers
  /// `{"done": what the app did}`, or 409 with the reason the app gave, or the server's.
  private func drive(
    fileIndex: String, command name: String, _ request: HTTPRequest
  ) async throws -> HTTPResponse {
    let files = self.files.all
    guard let index = Int(fileIndex), files.indices.contains(index) else {
      throw APIError(
        .notFound, "no file '\(fileIndex)': files are numbered from 0 to \(files.count - 1)")
    }
    let file = files[index]
    guard let live = file.live else {
      throw APIError(
        .conflict,
        "'\((file.path as NSString).lastPathComponent)' is not an app's live session: only those can be driven"
      )
    }
    guard live.isConnected, let app = live.app else {
      throw APIError(.conflict, "the app of this session has left: start it again to drive it")
    }
    let query = Query(request.query)
    let command: LiveCommand
    switch name {
    case "jump":
      guard let text = query["seq"], let seq = Int(text), seq >= 0 else {
        throw APIError(
          .badRequest,
          "jump needs seq, the action whose state the app takes: 0 (before the first) or more")
      }
      // NB: The app has the recent states in memory; for an older one, the trace's JSON,
      // which the app decodes when its state is Decodable.
      // NB: Its last seq, not its count: a session the recorder dropped actions of, or trimmed,
      // has fewer actions than its last seq.
      let found = try self.read(path: file.path) {
        reader -> (id: Int64, lastSeq: Int, json: String?)? in
        guard let extent = try reader.sessions().last.map({ try reader.sessionExtent(id: $0.id) })
        else { return nil }
        let json =
          seq <= extent.lastSeq ? try? reader.stateJSON(session: extent.id, after: seq) : nil
        return (extent.id, extent.lastSeq, json ?? nil)
      }
      guard let found, seq <= found.lastSeq else {
        throw APIError(
          .notFound,
          "the session's last action so far is #\(found?.lastSeq ?? 0): jump to one up to it, or to 0"
        )
      }
      let json = found.json
      command = .jump(seq: seq, json: json)
    case "back":
      command = .back
    case "send":
      if let length = request.headers[.contentLength].flatMap(Int.init),
        length > Self.maximumSentActionBytes
      {
        throw APIError(
          .payloadTooLarge,
          "an action of \(length) bytes: an action sent is \(Self.maximumSentActionBytes) bytes at most"
        )
      }
      // NB: Read a chunk at a time, and no further than the bound: a chunked body says no length.
      var body = Data()
      for try await chunk in request.bodySequence {
        body += chunk
        guard body.count <= Self.maximumSentActionBytes else {
          throw APIError(
            .payloadTooLarge,
            "an action of more than \(Self.maximumSentActionBytes) bytes: an action sent is \(Self.maximumSentActionBytes) bytes at most"
          )
        }
      }
      guard let json = String(data: body, encoding: .utf8),
        !json.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
      else {
        throw APIError(
          .badRequest, "send needs the action's JSON, as the trace records it, as its body")
      }
      command = .send(json: json)
    case "lock":
      command = .lock
    case "unlock":
      command = .unlock
    default:
      throw APIError(
        .notFound, "no command '\(name)': jump, back, send, lock or unlock")
    }
    switch await app.perform(command) {
    case let .done(detail):
      return Self.json(.object([("done", .string(detail))]))
    case let .refused(reason):
      return Self.error(.conflict, reason)
    }
  }

  /// `/api/files`: each file's name, and its sessions or the one line saying what is wrong;
  /// for a file an app's session is written to live, whether the app is connected and when it
  /// left.
  private func fileSummary(_ index: Int, _ file: ServedFiles.File) -> JSONValue {
    let path = file.path
    var members: [(String, JSONValue)] = [
      ("index", .integer(Int64(index))),
      ("name", .string((path as NSString).lastPathComponent)),
      ("path", .string(path)),
    ]
    if let live = file.live {
      members.append(
        (
          "live",
          .object([
            ("connected", .bool(live.isConnected)),
            ("left_at", live.leftAt.map { .string(Self.timestamp($0)) } ?? .null),
          ])
        ))
    }
    do {
      let sessions = try self.read(path: path) { reader in
        try reader.sessions().map { ($0, try reader.firstStep(session: $0.id) + 1) }
      }
      members.append(
        (
          "sessions",
          .array(
            sessions.map { session, firstSeq in
              .object([
                ("id", .integer(session.id)),
                ("name", .string(session.name)),
                ("root_feature", .string(session.rootFeature)),
                ("started_at", .string(session.startedAt)),
                ("actions", .integer(Int64(session.actionCount))),
                ("leaks", .integer(Int64(session.leakCount))),
                ("first_seq", .integer(Int64(firstSeq))),
                ("trimmed_actions", .integer(Int64(session.trimmedActions))),
                (
                  "backlog_fallbacks",
                  session.backlogFallbacks.map { .integer(Int64($0)) } ?? .null
                ),
              ])
            })
        ))
    } catch let error as TraceFileError {
      members.append(("error", .string(error.cliDescription)))
    } catch {
      members.append(("error", .string("\(error)")))
    }
    return .object(members)
  }

  /// `/api/files/F/sessions/S/actions?from=SEQ&limit=N&category=…&feature=…&leaks=true&text=…&changed=…`:
  /// a page of actions from a seq on, read by the session's index, and the seq the next page
  /// starts from (`null` at the end). `changed` is a state path: its history, as `tcatrace replay
  /// --changed` lists it.
  private func actions(file: String, session: Int64, query: Query) throws -> HTTPResponse {
    var filter = TraceFilter(session: session)
    filter.fromSeq = try query.integer("from", minimum: 1) ?? 1
    let limit = try query.integer("limit", minimum: 1, maximum: Self.maximumPageSize) ?? 100
    if let categories = query["category"] {
      var set: Set<ActionCategory> = []
      for name in categories.split(separator: ",", omittingEmptySubsequences: false) {
        guard let category = ActionCategory(rawValue: String(name)) else {
          throw APIError(
            .badRequest,
            "'\(name)' is not a category: view, internal, delegate or unclassified")
        }
        set.insert(category)
      }
      filter.categories = set
    }
    filter.feature = query["feature"].flatMap { $0.isEmpty ? nil : $0 }
    filter.text = query["text"].flatMap { $0.isEmpty ? nil : $0 }
    // NB: As `replay --changed ''`, the empty path is the whole state.
    filter.changedPath = query["changed"]
    filter.leaksOnly = try query.boolean("leaks")
    // NB: One action more than the page: the next page starts at its seq.
    let (actions, next) = try self.read(path: file) { reader in
      _ = try reader.sessionExtent(id: session)
      var actions: [JSONValue] = []
      var next: Int?
      try reader.forEachAction(
        matching: filter, order: .seqAscending, limit: limit + 1, includeChanges: false
      ) { action in
        if actions.count < limit {
          actions.append(action.json(showsChanges: false))
        } else {
          next = action.seq
        }
      }
      return (actions, next)
    }
    return Self.json(
      .object([("actions", .array(actions)), ("next", next.map { .integer(Int64($0)) } ?? .null)]))
  }

  /// `/api/files/F/sessions/S/actions/SEQ`: the action with its changes, the action that
  /// caused it, and the actions its effects sent.
  private func action(file: String, session: Int64, seq: Int) throws -> HTTPResponse {
    let value = try self.read(path: file) { reader -> JSONValue in
      _ = try reader.sessionExtent(id: session)
      var found: TracedAction?
      try reader.forEachAction(
        matching: TraceFilter(session: session, fromSeq: seq, toSeq: seq), order: .seqAscending,
        limit: 1
      ) { found = $0 }
      guard let action = found else {
        throw APIError(.notFound, "session \(session) has no action #\(seq)")
      }
      // NB: All of them, however late: a query for the cause, where reading on from the
      // action stopped after 10,000 actions and missed a late effect's.
      let caused = try reader.actionsCaused(session: session, seq: seq).map {
        JSONValue.object([("seq", .integer($0.seq)), ("path", .string($0.path))])
      }
      guard case let .object(members) = action.json(showsChanges: true) else { return .null }
      return .object(members + [("caused", .array(caused))])
    }
    return Self.json(value)
  }

  /// `/api/files/F/sessions/S/state?at=SEQ`: what `tcatrace state FILE --session S --at SEQ
  /// --format json` prints (its one object).
  private func state(file: String, session: Int64, query: Query) throws -> HTTPResponse {
    let value = try self.read(path: file) { reader -> JSONValue in
      let extent = try reader.sessionExtent(id: session)
      let seq = try query.integer("at", minimum: 0) ?? extent.lastSeq
      let state = try reader.state(session: extent.id, after: seq)
      let json = try reader.stateJSON(session: extent.id, after: seq)
      return StateNode.stateJSON(
        session: extent.id, after: seq, path: nil, node: state, json: json)
    }
    return Self.json(value)
  }

  /// `/api/files/F/sessions/S/leaks`: the leaks by rule and feature, each with its first
  /// action, as `tcatrace leaks` counts them.
  private func leaks(file: String, session: Int64) throws -> HTTPResponse {
    let summaries = try self.read(path: file) { reader in
      _ = try reader.sessionExtent(id: session)
      return try reader.leakSummaries(session: session)
    }
    return Self.json(
      .array(
        summaries.map {
          .object([
            ("rule", .string($0.rule.rawValue)), ("feature", .string($0.feature)),
            ("count", .integer(Int64($0.count))), ("first_seq", .integer(Int64($0.firstSeq))),
            ("first_detail", .string($0.firstDetail)),
          ])
        }))
  }

  /// `/api/files/F/sessions/S/debugger`: what a debugger did to the app (`serve --live`'s
  /// page), in order: each event after an action, with its summary.
  private func debuggerEvents(file: String, session: Int64) throws -> HTTPResponse {
    let events = try self.read(path: file) { reader in
      _ = try reader.sessionExtent(id: session)
      return try reader.debuggerEvents(session: session)
    }
    return Self.json(
      .array(
        events.map {
          .object([
            ("id", .integer($0.id)), ("after_seq", .integer(Int64($0.afterSeq))),
            ("time_ns", .integer($0.timeNs)), ("kind", .string($0.kind.rawValue)),
            ("to_seq", $0.toSeq.map { .integer(Int64($0)) } ?? .null),
            ("ignored_actions", $0.ignoredActions.map { .integer(Int64($0)) } ?? .null),
            ("summary", .string($0.summary)),
          ])
        }))
  }

  /// `/api/files/F/sessions/S/features`: the session's features, as the routes of its actions
  /// name them with each element's id folded into `[…]` (so `todos.rows[id: 3]` and
  /// `todos.rows[id: 4]` are one feature), with their actions; and its leaks as reaches, each
  /// from the feature that broke a rule (`null`: outside the store, for an internal or
  /// delegate action sent from there) to the feature whose action it was.
  private func features(file: String, session: Int64) throws -> HTTPResponse {
    let (root, counts, leakRows) = try self.read(path: file) { reader in
      // NB: Not `session(id:)`, which counts the session's actions in a pass of its own.
      _ = try reader.sessionExtent(id: session)
      return (
        try reader.rootFeatures()[session] ?? "",
        try reader.actionCountsByFeature(session: session),
        try reader.leakReaches(session: session)
      )
    }
    var features: [String: Int64] = [:]
    for (feature, count) in counts {
      features[FeatureRoute.folded(feature), default: 0] += count
    }
    struct Reach: Hashable {
      var rule: String
      var from: String?
      var to: String
    }
    var reaches: [Reach: (count: Int64, firstSeq: Int64)] = [:]
    for row in leakRows {
      let rule = row.rule
      let to = FeatureRoute.folded(row.actionFeature)
      let from: String? =
        rule == LeakRule.viewSendsPrivateAction.rawValue
        ? nil : FeatureRoute.folded(row.leakFeature)
      let (count, first) = (row.count, row.firstSeq)
      let reach = Reach(rule: rule, from: from, to: to)
      let known = reaches[reach]
      reaches[reach] = ((known?.count ?? 0) + count, min(known?.firstSeq ?? first, first))
      for feature in [from, to].compactMap({ $0 }) where features[feature] == nil {
        features[feature] = 0
      }
    }
    return Self.json(
      .object([
        ("root_feature", .string(root)),
        (
          "features",
          .array(
            features.sorted { $0.key < $1.key }.map {
              .object([("path", .string($0.key)), ("actions", .integer($0.value))])
            })
        ),
        (
          "reaches",
          .array(
            reaches.sorted { $0.value.firstSeq < $1.value.firstSeq }.map { reach, value in
              .object([
                ("rule", .string(reach.rule)),
                ("from", reach.from.map { .string($0) } ?? .null),
                ("to", .string(reach.to)),
                ("count", .integer(value.count)),
                ("first_seq", .integer(value.firstSeq)),
              ])
            })
        ),
      ]))
  }

  /// `/api/files/F/sessions/S/compare?with_file=G&with_session=T&from=N&limit=M`: the session
  /// and another (of file G, this file without it) aligned as `tcatrace diff` aligns them:
  /// where they first differ, how many entries are alike, and the entries from `from` (by
  /// default, three before the first difference), each an action of both, or of one.
  ///
  /// NB: The alignment needs both sessions' actions, as `tcatrace diff` does; it is made again
  /// for each page, within the commands' time and memory limits.
  private func compare(fileIndex: String, session: Int64, query: Query) throws -> HTTPResponse {
    let file = try self.file(fileIndex)
    let otherFile = try self.file(query["with_file"] ?? fileIndex)
    guard let otherSession = try query.integer("with_session", minimum: 1) else {
      throw APIError(.badRequest, "'with_session' is the id of the session to compare with")
    }
    let limit = try query.integer("limit", minimum: 1, maximum: Self.maximumPageSize) ?? 100
    let first = try self.read(path: file) { reader in
      try reader.actions(matching: TraceFilter(session: try reader.sessionExtent(id: session).id))
    }
    let second = try self.read(path: otherFile) { reader in
      try reader.actions(
        matching: TraceFilter(session: try reader.sessionExtent(id: Int64(otherSession)).id))
    }
    let comparison: SessionComparison
    do {
      comparison = try SessionComparison(first, second, timeLimit: TraceFileAccess.defaultTimeLimit)
    } catch {
      throw APIError(
        .unprocessableContent,
        "aligning the two sessions' \(first.count) and \(second.count) actions took longer than \(Int(TraceFileAccess.defaultTimeLimit)) s"
      )
    }
    let difference = comparison.firstDifference
    let from =
      try query.integer("from", minimum: 0) ?? difference.map { max($0 - 3, 0) } ?? 0
    let end = from > Int.max - limit ? Int.max : from + limit
    let window = comparison.entries.indices.clamped(to: from..<end)
    let counts = comparison.counts
    let entries = window.map { index -> JSONValue in
      let entry = comparison.entries[index]
      let (kind, a, b): (String, Int?, Int?) =
        switch entry {
        case let .both(i, j, _): ("both", i, j)
        case let .onlyFirst(i): ("only_first", i, nil)
        case let .onlySecond(j): ("only_second", nil, j)
        }
      let changesOnly: (first: [StateChange], second: [StateChange]) =
        if let a, let b, !entry.isAlike {
          SessionComparison.changesOnlyOnEachSide(first[a], second[b])
        } else {
          ([], [])
        }
      return .object([
        ("index", .integer(Int64(index))),
        ("kind", .string(kind)),
        ("alike", .bool(entry.isAlike)),
        ("first", a.map { first[$0].json(showsChanges: true) } ?? .null),
        ("second", b.map { second[$0].json(showsChanges: true) } ?? .null),
        ("changes_only_first", .array(changesOnly.first.map(\.json))),
        ("changes_only_second", .array(changesOnly.second.map(\.json))),
      ])
    }
    return Self.json(
      .object([
        ("first_difference", difference.map { .integer(Int64($0)) } ?? .null),
        ("entries_count", .integer(Int64(comparison.entries.count))),
        (
          "counts",
          .object([
            ("alike", .integer(Int64(counts.alike))),
            ("different", .integer(Int64(counts.different))),
            ("only_first", .integer(Int64(counts.onlyFirst))),
            ("only_second", .integer(Int64(counts.onlySecond))),
          ])
        ),
        ("entries", .array(entries)),
        (
          "next",
          window.upperBound < comparison.entries.count ? .integer(Int64(window.upperBound)) : .null
        ),
      ]))
  }

  /// The most rows `/api/files/F/sql` answers with.
  static let maximumRows = 1_000

  /// `/api/files/F/sql?query=SELECT…`: a read-only query, with `tcatrace sql`'s rules and
  /// errors; at most ``maximumRows`` rows, and whether there were more.
  private func sql(file: String, query: Query) throws -> HTTPResponse {
    guard let sql = query["query"], !sql.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    else {
      throw APIError(.badRequest, "'query' is the SQL to run: SELECT …")
    }
    struct Enough: Error {}
    var columns: [String] = []
    var rows: [JSONValue] = []
    var truncated = false
    do {
      try self.read(path: file) { reader in
        do {
          try reader.query(sql) {
            columns = $0
          } row: { values in
            guard rows.count < Self.maximumRows else { throw Enough() }
            rows.append(.array(values.map(\.json)))
          }
        } catch is Enough {
          truncated = true
        }
      }
    } catch let error as TraceFileError where error.kind == .sqlite || error.kind == .notWritable {
      throw APIError(.badRequest, error.queryExplanation(file: file))
    }
    return Self.json(
      .object([
        ("columns", .array(columns.map { .string($0) })), ("rows", .array(rows)),
        ("truncated", .bool(truncated)),
      ]))
  }

  /// `/api/files/F/sessions/S/perfetto`: what `tcatrace export --format perfetto` writes of
  /// the session, as a file to save.
  private func perfetto(file: String, session: Int64) throws -> HTTPResponse {
    let buffer = ExportBuffer()
    try self.read(path: file) { reader in
      try PerfettoTrace.export([try reader.session(id: session)], from: reader, to: buffer)
    }
    return Self.download(
      buffer.bytes, name: "session-\(session).perfetto.json", type: "application/json")
  }

  /// `/api/files/F/sessions/S/test`: what `tcatrace test` prints for the session, as a file to
  /// save, checked against the grammar it writes as the command checks it.
  private func test(file: String, session: Int64) throws -> HTTPResponse {
    let written = try self.read(path: file) { reader in
      try TestStoreTest.written(
        session: try reader.session(id: session), from: reader, file: file,
        options: TestStoreTest.Options(name: "session\(session)"))
    }
    if let violation = GeneratedTestGrammar.violation(in: written.checked.source) {
      throw APIError(
        .unprocessableContent,
        "the test written is outside the grammar tcatrace test writes (\(violation)), so it is not given; please report the trace that did this"
      )
    }
    return Self.download(
      Array(written.test.source.utf8), name: "Session\(session)Tests.swift",
      type: "text/plain; charset=utf-8")
  }

  /// `body` as a file to save, named `name`.
  private static func download(_ body: [UInt8], name: String, type: String) -> HTTPResponse {
    var response = Self.response(.ok, type: type, body: Data(body))
    response.headers[HTTPHeader("Content-Disposition")] = "attachment; filename=\"\(name)\""
    return response
  }

  /// `date` as sessions' times are written: `2026-12-04T10:00:00.000Z`.
  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: date)
  }

  // MARK: - Reading

  private func file(_ index: String) throws -> String {
    let files = self.files.all
    guard let index = Int(index), files.indices.contains(index) else {
      throw APIError(
        .notFound, "no file '\(index)': files are numbered from 0 to \(files.count - 1)")
    }
    return files[index].path
  }

  /// Reads `path` as the commands do, read-only, within their time and memory limits, and
  /// checked for damage (see ``FileChecks``); what was read while a recorder wrote the file
  /// is refused, as the commands refuse it.
  private func read<Result>(
    path: String, _ body: (TraceReader) throws -> Result
  ) throws -> Result {
    try self.checks.verify(path)
    return try TraceFileAccess(file: path).readChecked(body)
  }

  // MARK: - Responses

  private func token(of request: HTTPRequest) -> String {
    request.headers[HTTPHeader("X-TCATrace-Token")]
      ?? request.query.first { $0.name == "token" }?.value ?? ""
  }

  /// Compares every byte, whatever the first difference: how long a refusal takes says nothing
  /// of the token.
  private static func isEqual(_ given: String, _ token: String) -> Bool {
    let given = Array(given.utf8)
    let token = Array(token.utf8)
    guard given.count == token.count else { return false }
    var difference: UInt8 = 0
    for index in token.indices { difference |= given[index] ^ token[index] }
    return difference == 0
  }

  /// What every answer carries: no caching, no sniffing, no framing, and a policy that runs
  /// only the page's own script.
  static let securityHeaders: [(HTTPHeader, String)] = [
    (
      HTTPHeader("Content-Security-Policy"),
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    (HTTPHeader("X-Content-Type-Options"), "nosniff"),
    (HTTPHeader("Referrer-Policy"), "no-referrer"),
    (HTTPHeader("Cache-Control"), "no-store"),
  ]

  private static func response(_ status: HTTPStatusCode, type: String, body: Data) -> HTTPResponse {
    var headers = HTTPHeaders()
    headers[.contentType] = type
    for (name, value) in Self.securityHeaders { headers[name] = value }
    return HTTPResponse(statusCode: status, headers: headers, body: body)
  }

  private static func asset(_ text: String, type: String) -> HTTPResponse {
    Self.response(.ok, type: type, body: Data(text.utf8))
  }

  private static func json(_ value: JSONValue) -> HTTPResponse {
    Self.response(.ok, type: "application/json", body: Data(value.rendered.utf8))
  }

  /// A refusal: its status, and `{"error": "…"}`, one line.
  static func error(_ status: HTTPStatusCode, _ message: String) -> HTTPResponse {
    let line = message.replacingOccurrences(of: "\n", with: " ")
    return Self.response(
      status, type: "application/json",
      body: Data(JSONValue.object([("error", .string(line))]).rendered.utf8))
  }
}

extension TraceValue {
  /// The value when it is an integer.
  fileprivate var number: Int64? {
    if case let .integer(value) = self { return value }
    return nil
  }
}

/// A feature's route with each element's id folded: `todos.rows[id: 3].title` is
/// `todos.rows[…].title`, one feature however many rows there are.
enum FeatureRoute {
  static func folded(_ route: String) -> String {
    var folded = ""
    var depth = 0
    for character in route {
      switch character {
      case "[":
        if depth == 0 { folded += "[…]" }
        depth += 1
      case "]" where depth > 0:
        depth -= 1
      default:
        if depth == 0 { folded.append(character) }
      }
    }
    return folded
  }
}

/// A request the API refuses, with its status.
struct APIError: Error {
  var status: HTTPStatusCode
  var message: String

  init(_ status: HTTPStatusCode, _ message: String) {
    self.status = status
    self.message = message
  }
}

/// A request's query, read with one-line errors.
struct Query {
  private let items: [HTTPRequest.QueryItem]

  init(_ items: [HTTPRequest.QueryItem]) {
    self.items = items
  }

  subscript(name: String) -> String? {
    self.items.last { $0.name == name }?.value
  }

  func integer(_ name: String, minimum: Int, maximum: Int = .max) throws -> Int? {
    guard let text = self[name] else { return nil }
    guard let value = Int(text), value >= minimum, value <= maximum else {
      throw APIError(
        .badRequest,
        "'\(name)' is a whole number from \(minimum)\(maximum == .max ? " up" : " to \(maximum)"), not '\(text)'"
      )
    }
    return value
  }

  func boolean(_ name: String) throws -> Bool {
    switch self[name] {
    case nil, "false", "0", "": return false
    case "true", "1": return true
    case let text?: throw APIError(.badRequest, "'\(name)' is true or false, not '\(text)'")
    }
  }
}
