import ToolSupport
import TCATraceFile

/// A trace's sessions as OpenTelemetry traces, in OTLP's JSON encoding: one trace per
/// session, one span per action, written as the actions are read.
///
/// Each line is an `ExportTraceServiceRequest` of up to ``spansPerLine`` spans of one session
/// (JSON lines, as an OpenTelemetry Collector's `otlpjsonfile` receiver reads them): the
/// session is the resource (`service.name` its root feature), and each span an action — its
/// reducer time, its category, feature, case, origin, payload and changed state paths as
/// attributes, its leaks as events, and as its parent the action whose effect sent it, so that
/// an action sent from outside the store roots the tree of what it caused.
///
/// Ids are derived from the session (its name, root feature, start and id) and each action's
/// seq, so exporting the same session twice gives the same ids, and a backend keeps one copy.
package struct OTLPTrace: SessionExporter {
  /// Spans per line: a session of a million actions is a thousand requests, not one.
  static let spansPerLine = 1000

  private let output: any ExportDestination
  private var buffer: [UInt8] = []

  private var session: TraceSession?
  private var traceKey = IDHash()
  private var traceID = ""
  private var startNs: Int64 = 0
  private var resource: [UInt8] = []
  private var spansInLine = 0
  /// The seqs of the session's actions read so far: a parent must be one of them.
  private var seqs = Set<Int>()

  package init(output: any ExportDestination) {
    self.output = output
    self.buffer.reserveCapacity(1 << 16)
  }

  package mutating func begin(_ session: TraceSession) throws(CLIError) {
    try self.endLine()
    self.session = session
    var key = IDHash()
    key.add("tcatrace session")
    key.add(session.name)
    key.add(session.rootFeature)
    key.add(session.startedAt)
    key.add(String(session.id))
    self.traceKey = key
    self.traceID = key.hex(bytes: 16)
    self.startNs = Self.unixNanoseconds(iso8601: session.startedAt) ?? 0
    self.seqs = []
    var resource: [UInt8] = []
    resource += #"{"resource":{"attributes":"#.utf8
    JSONValue.array([
      Self.attribute("service.name", .string(session.rootFeature)),
      Self.attribute("tcatrace.session.id", .integer(session.id)),
      Self.attribute("tcatrace.session.name", .string(session.name)),
      Self.attribute("tcatrace.session.started_at", .string(session.startedAt)),
      Self.attribute("tcatrace.recorder_version", .string(session.recorderVersion)),
    ]).append(to: &resource)
    resource += #"},"scopeSpans":[{"scope":{"name":"tcatrace","version":""#.utf8
    resource += TCATraceVersion.current.utf8
    resource += #""},"spans":["#.utf8
    self.resource = resource
  }

  package mutating func write(_ action: TracedAction) throws(CLIError) {
    if self.spansInLine == Self.spansPerLine { try self.endLine() }
    if self.spansInLine == 0 {
      self.buffer += #"{"resourceSpans":["#.utf8
      self.buffer += self.resource
    } else {
      self.buffer.append(UInt8(ascii: ","))
    }
    self.spansInLine += 1
    self.seqs.insert(action.seq)

    let start = Self.adding(self.startNs, max(action.timeNs, 0))
    let end = Self.adding(start, max(action.durationNs, 0))
    var cause: Int?
    if case let .effect(seq) = action.origin { cause = seq }
    var members: [(String, JSONValue)] = [
      ("traceId", .string(self.traceID)),
      ("spanId", .string(self.spanID(action.seq))),
    ]
    // NB: Only an earlier action of the session is a parent: a damaged file's cause may not be.
    if let cause, cause < action.seq, self.seqs.contains(cause) {
      members.append(("parentSpanId", .string(self.spanID(cause))))
    }
    var attributes: [JSONValue] = [
      Self.attribute("tcatrace.action.seq", .integer(Int64(action.seq))),
      Self.attribute("tcatrace.action.path", .string(action.path)),
      Self.attribute("tcatrace.action.category", .string(action.category.rawValue)),
      Self.attribute("tcatrace.action.feature", .string(action.feature)),
      Self.attribute("tcatrace.action.case", .string(action.caseName)),
      Self.attribute("tcatrace.action.origin", .string(action.origin.name)),
    ]
    if let cause {
      attributes.append(Self.attribute("tcatrace.action.cause_seq", .integer(Int64(cause))))
    }
    if let payload = action.payload {
      attributes.append(Self.attribute("tcatrace.action.payload", .string(payload)))
    }
    if !action.changes.isEmpty {
      attributes.append(
        Self.attribute(
          "tcatrace.state.paths_changed", .array(action.changes.map { .string($0.path) }))
      )
    }
    members += [
      ("name", .string("\(action.category.rawValue) \(action.caseName)")),
      // NB: SPAN_KIND_INTERNAL: an action is work inside the app.
      ("kind", .integer(1)),
      ("startTimeUnixNano", .string(String(start))),
      ("endTimeUnixNano", .string(String(end))),
      ("attributes", .array(attributes)),
    ]
    if !action.leaks.isEmpty {
      members.append(
        (
          "events",
          .array(
            action.leaks.map { leak in
              .object([
                ("timeUnixNano", .string(String(end))),
                ("name", .string("tcatrace.leak")),
                (
                  "attributes",
                  .array([
                    Self.attribute("tcatrace.leak.rule", .string(leak.rule.rawValue)),
                    Self.attribute("tcatrace.leak.feature", .string(leak.feature)),
                    Self.attribute("tcatrace.leak.detail", .string(leak.detail)),
                  ])
                ),
              ])
            })
        ))
    }
    JSONValue.object(members).append(to: &self.buffer)
    if self.buffer.count >= 1 << 16 {
      try self.output.write(self.buffer)
      self.buffer.removeAll(keepingCapacity: true)
    }
  }

  /// Nothing to add at a session's end: its last line ends when the next session begins.
  package mutating func end() {}

  package mutating func finish() throws(CLIError) {
    try self.endLine()
    try self.output.write(self.buffer)
    self.buffer.removeAll()
  }

  private mutating func endLine() throws(CLIError) {
    guard self.spansInLine > 0 else { return }
    self.buffer += "]}]}]}\n".utf8
    self.spansInLine = 0
  }

  private func spanID(_ seq: Int) -> String {
    var key = self.traceKey
    key.add(String(seq))
    let id = key.hex(bytes: 8)
    // NB: An all-zero span id is invalid; one hash in 2^64 would give it.
    return id == "0000000000000000" ? "0000000000000001" : id
  }

  private static func attribute(_ key: String, _ value: JSONValue) -> JSONValue {
    .object([("key", .string(key)), ("value", Self.anyValue(value))])
  }

  /// A value as OTLP's `AnyValue`: 64-bit integers as strings, as its JSON encoding has them.
  private static func anyValue(_ value: JSONValue) -> JSONValue {
    switch value {
    case let .integer(integer): .object([("intValue", .string(String(integer)))])
    case let .array(values):
      .object([("arrayValue", .object([("values", .array(values.map(anyValue)))]))])
    case let .bool(bool): .object([("boolValue", .bool(bool))])
    case let .number(number): .object([("doubleValue", .number(number))])
    case .null: .object([])
    default: .object([("stringValue", value)])
    }
  }

  private static func adding(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int64.max : sum
  }

  /// `2026-01-01T00:00:00.000Z` as nanoseconds since 1970; `nil` when it is not in that form.
  static func unixNanoseconds(iso8601 text: String) -> Int64? {
    let digits = Array(text.utf8)
    guard digits.count == 24, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-"),
      digits[10] == UInt8(ascii: "T"), digits[13] == UInt8(ascii: ":"),
      digits[16] == UInt8(ascii: ":"), digits[19] == UInt8(ascii: "."),
      digits[23] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for index in range {
        let digit = digits[index]
        guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int64(digit - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      let millisecond = number(20..<23), (1...12).contains(month), (1...31).contains(day),
      hour < 24, minute < 60, second < 61, year >= 1970
    else { return nil }
    // NB: Days from 1970-01-01 to the date, in the proleptic Gregorian calendar.
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = shiftedYear / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
    return (seconds * 1000 + millisecond) * 1_000_000
  }
}

/// Two FNV-1a hashes of 64 bits with different starting points: ids that are the same for
/// the same text, spread over 128 bits. Not for secrets.
struct IDHash {
  private var first: UInt64 = 0xcbf2_9ce4_8422_2325
  private var second: UInt64 = 0x6c62_272e_07bb_0142

  mutating func add(_ text: String) {
    for byte in text.utf8 {
      self.first = (self.first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      self.second = (self.second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    // NB: A separator, so that "ab" + "c" and "a" + "bc" differ.
    self.first = (self.first ^ 0xff) &* 0x0000_0100_0000_01b3
    self.second = (self.second ^ 0xfe) &* 0x0000_0100_0000_01b3
  }

  /// The first `bytes` bytes (8 or 16) in lowercase hex.
  func hex(bytes: Int) -> String {
    func padded(_ value: UInt64) -> String {
      let hex = String(value, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }
    return bytes <= 8 ? padded(self.first) : padded(self.first) + padded(self.second)
  }
}
