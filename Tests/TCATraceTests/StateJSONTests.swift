import Composable
import CustomDump
import Foundation
import IdentifiedCollections
import Synchronization
import TCATrace
import TCATraceFile
import TestSupport
import Testing

/// A value whose `encode(to:)` is written by hand: its members under other names, one of them
/// derived from two properties, one written as `null` when absent.
private struct Profile: Codable, Equatable {
  var first: String
  var last: String
  var nickname: String?

  enum CodingKeys: String, CodingKey {
    case first = "given name"
    case full = "full\nname"
    case nickname
  }

  init(first: String, last: String, nickname: String? = nil) {
    self.first = first
    self.last = last
    self.nickname = nickname
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.first = try container.decode(String.self, forKey: .first)
    self.last = String(
      try container.decode(String.self, forKey: .full).dropFirst(self.first.count + 1))
    self.nickname = try container.decodeIfPresent(String.self, forKey: .nickname)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(self.first, forKey: .first)
    try container.encode("\(self.first) \(self.last)", forKey: .full)
    if let nickname = self.nickname {
      try container.encode(nickname, forKey: .nickname)
    } else {
      try container.encodeNil(forKey: .nickname)
    }
  }
}

/// A value that encodes what it inherits through a super encoder.
private struct Legacy: Codable, Equatable {
  var name = "legacy"
  var level = 0

  enum CodingKeys: CodingKey {
    case name
  }

  init() {}

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.name = try container.decode(String.self, forKey: .name)
    self.level = try container.superDecoder().singleValueContainer().decode(Int.self)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(self.name, forKey: .name)
    var base = container.superEncoder().singleValueContainer()
    try base.encode(self.level)
  }
}

/// The JSON of the state after each action.
private final class JSONLog: Sendable {
  let jsons = Mutex<[String]>([])
}

/// A feature whose state has the values `JSONEncoder` writes its own way, hand-written coding,
/// dictionaries keyed by numbers, floats, and enums with payloads.
private struct Shapes: Reducer {
  struct State: Codable, Equatable {
    var profile = Profile(first: "Blob", last: "Jr")
    var legacy = Legacy()
    var link = URL(string: "https://example.com/a")!
    var when = Date(timeIntervalSinceReferenceDate: 0)
    var bytes = Data([1, 2, 3])
    var ratio = 0.0
    var byNumber: [Int: String] = [1: "one"]
    var byName: [String: [Int]] = ["a\"b": [1]]
    var status = Status.idle
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "first")]
    var stack = StackState<Row>()
    var maybe: Int??
  }

  struct Row: Codable, Equatable, Identifiable {
    var id: Int
    var title: String
  }

  enum Status: Codable, Equatable {
    case idle
    case loading(progress: Double, label: String)
    case failed(String, code: Int)
  }

  enum Action: Equatable {
    case step(Int)
  }

  let log: JSONLog

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard case let .step(step) = action else { return .none }
    switch step % 14 {
    case 0: state.profile.last += "r"
    case 1: state.profile.nickname = state.profile.nickname == nil ? "B/\(step)" : nil
    case 2: state.legacy.level += 1
    case 3: state.link = URL(string: "https://example.com/\(step)?q=a/b")!
    case 4: state.when = state.when.addingTimeInterval(1.5)
    case 5: state.bytes.append(UInt8(step % 256))
    case 6: state.ratio = state.ratio < 1 ? state.ratio + 0.1 : -1e-7
    case 7: state.byNumber[step % 5] = state.byNumber[step % 5] == nil ? "n\(step)" : nil
    case 8: state.byName["k\(step % 3)\n", default: []].append(step)
    case 9:
      switch state.status {
      case .idle: state.status = .loading(progress: 0.25, label: "go")
      case let .loading(progress, label):
        state.status =
          progress < 1
          ? .loading(progress: progress + 0.25, label: label + "!") : .failed("no", code: step)
      case .failed: state.status = .idle
      }
    case 10:
      state.rows.insert(Row(id: step, title: "row \(step)"), at: step % (state.rows.count + 1))
    case 11:
      if state.rows.count > 2 { state.rows.remove(at: 1) } else { state.rows[0].title += "+" }
    case 12:
      if state.stack.count < 3 {
        state.stack.append(Row(id: step, title: "pushed"))
      } else {
        state.stack.removeAll()
      }
    default:
      switch state.maybe {
      case nil: state.maybe = .some(nil)
      case .some(nil): state.maybe = .some(step)
      case .some(.some): state.maybe = nil
      }
    }
    self.log.jsons.withLock { $0.append(Self.json(state)) }
    return .none
  }

  static func json(_ state: State) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try! encoder.encode(state), as: UTF8.self)
  }
}

@MainActor
@Suite(.hangGuard)
struct StateJSONTests {
  /// Issue #18: the JSON of an `Encodable` state is rebuilt exactly after every action, whatever
  /// its `encode(to:)` does: members renamed, derived, written through a super encoder or as
  /// `null`; URLs, dates and data, which `JSONEncoder` writes its own way; dictionaries keyed
  /// by numbers and by names that need escaping; floats; enums with payloads; identified
  /// arrays, stacks and nested optionals.
  @Test func everyShapeOfJSONIsRebuiltAtEveryStep() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("shapes.db")
    let recorder = try TraceRecorder(path: path)
    let log = JSONLog()
    let store = RecordingStore(initialState: Shapes.State(), recorder: recorder) {
      Shapes(log: log)
    }
    for step in 0..<140 { store.send(.step(step)) }
    await store.finish()
    try await recorder.close()

    let reader = try TraceReader(path: path)
    let jsons = [Shapes.json(Shapes.State())] + log.jsons.withLock { $0 }
    #expect(jsons.count == 141)
    for seq in jsons.indices {
      expectNoDifference(
        try reader.stateJSON(session: 1, after: seq), jsons[seq], "after action #\(seq)")
    }
    // One kept state: every step is rebuilt from the first, by the changes.
    #expect(try reader.query("SELECT count(*) FROM states").rows == [[.integer(1)]])
    // A change inside a value follows it down, where its encoding can be followed: the last
    // name changes only the member it is derived into, the nickname is set to null; the
    // level, written through a super encoder, rewrites its value whole.
    let changes = try reader.query(
      "SELECT json_changes FROM actions WHERE seq IN (1, 16, 3) ORDER BY seq"
    ).rows
    #expect(
      changes == [
        [.text(#"[["s",["profile","full\nname"],"Blob Jrr"]]"#)],
        [.text(#"[["s",["legacy"],{"name":"legacy","super":1}]]"#)],
        [.text(#"[["s",["profile","nickname"],null]]"#)],
      ]
    )
  }

  /// The changes are what the state's JSON needs, not a copy of it: one row changed in
  /// thousands is one change, a row inserted one insertion.
  @Test func aChangeToOneRowOfManyIsOneChange() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("rows.db")
    let recorder = try TraceRecorder(path: path)
    var initial = Shapes.State()
    initial.rows = IdentifiedArray(
      uniqueElements: (100..<5_100).map { Shapes.Row(id: $0, title: "row \($0)") })
    let log = JSONLog()
    let store = RecordingStore(initialState: initial, recorder: recorder) { Shapes(log: log) }
    store.send(.step(10))
    store.send(.step(11))
    await store.finish()
    try await recorder.close()
    let reader = try TraceReader(path: path)
    let changes = try reader.query("SELECT json_changes FROM actions ORDER BY seq").rows
    #expect(
      changes == [
        [.text(#"[["i",["rows",10],{"id":10,"title":"row 10"}]]"#)],
        [.text(#"[["d",["rows",1]]]"#)],
      ]
    )
    #expect(try reader.stateJSON(session: 1, after: 2) == log.jsons.withLock { $0 }.last)
  }

  /// Strings and member names are written as `JSONEncoder` writes them, without it: every
  /// ASCII character, and others that some encoders escape.
  @Test func stringsAreQuotedAsJSONEncoderQuotesThem() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var samples = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
    samples += [
      "é", "😀", "\u{2028}", "\u{2029}", "\u{85}", "</script>", "a/b", "\u{FEFF}",
      "tab\there \"quoted\" \\",
    ]
    for sample in samples {
      var quoted: [UInt8] = []
      JSONString.quote(sample, into: &quoted)
      #expect(
        String(decoding: quoted, as: UTF8.self)
          == String(decoding: try encoder.encode(sample), as: UTF8.self),
        "\(sample.unicodeScalars.map(\.value))")
    }
  }
}
