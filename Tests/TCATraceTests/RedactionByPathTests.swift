import Foundation
import IdentifiedCollections
import TCATrace
import TCATraceExamples
import TestSupport
import Testing

/// Issue #58: a redacted value is `<redacted>` in every column that holds it, whatever it is:
/// an empty value too, and a value inside a struct written whole. The JSON of the state's
/// changes (`actions.json_changes`), of the kept states (`states.json`) and of the actions
/// (`payload_json`) are checked at the marked paths, and every byte of the files for the
/// secrets themselves.
@MainActor
@Suite(.hangGuard)
struct RedactionByPathTests {
  @Test func theDemoHoldsNoValueAtAMarkedPathInAnyColumn() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("app.db")
    let recorder = try await RedactionTests.recordApp(
      into: directory, redacting: AppFeature.redactions)
    try await recorder.close()

    for secret in [APIClient.fakePassword, APIClient.fakeCode] {
      #expect(try occurrences(of: secret, in: directory) == 0, "\(secret)")
    }
    let checked = try MarkedPaths(
      state: [["login", "password"], ["login", "twoFactor", "code"]],
      cases: ["passwordChanged", "codeChanged"]
    ).check(path)
    // The demo clears the password (an empty value) and presents the two-factor state whole.
    #expect(checked.changes >= 2, "\(checked)")
    #expect(checked.states >= 1, "\(checked)")
    #expect(checked.payloads >= 2, "\(checked)")
    #expect(checked.texts >= 1, "\(checked)")
  }

  @Test func nonEmptySecretsInAPresentedStructAnOptionalAndAnIdentifiedCollection() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("safe.db")
    let recorder = try TraceRecorder(
      path: path,
      redacting: [
        .state(\Safe.State.profile?.secret),
        .state(\Safe.State.backup?.secret),
        .state(\Safe.State.keychain),
        .action(\Safe.Action.Cases.secretChanged),
        // NB: The rows' PINs come in actions too: marked where they come in.
        .action(\Safe.Action.Cases.addEntry),
        .action(\Safe.Action.Cases.setPin),
      ]
    )
    let store = RecordingStore(initialState: Safe.State(), recorder: recorder) { Safe() }
    // Presented whole with a secret in it, changed (old and new both secret), then emptied.
    store.send(.present(Safe.Profile(nickname: "blob", secret: "first-secret")))
    store.send(.secretChanged("second-secret"))
    store.send(.secretChanged(""))
    store.send(.secretChanged("third-secret"))
    // An optional set whole, and set again.
    store.send(.backUp(Safe.Profile(nickname: "copy", secret: "backup-secret")))
    store.send(.backUp(Safe.Profile(nickname: "copy", secret: "other-backup-secret")))
    // Rows of an identified collection, added with a secret and changed.
    store.send(.addEntry(Safe.Entry(id: 1, label: "bank", pin: "pin-one-1111")))
    store.send(.addEntry(Safe.Entry(id: 2, label: "door", pin: "")))
    store.send(.setPin(id: 2, pin: "pin-two-2222"))
    store.send(.dismiss)
    try await recorder.close()

    for secret in [
      "first-secret", "second-secret", "third-secret", "backup-secret", "pin-one-1111",
      "pin-two-2222",
    ] {
      #expect(try occurrences(of: secret, in: directory) == 0, "\(secret)")
    }
    let checked = try MarkedPaths(
      state: [["profile", "secret"], ["backup", "secret"], ["keychain"]],
      cases: ["secretChanged", "addEntry", "setPin"]
    ).check(path)
    #expect(checked.changes >= 8, "\(checked)")
    #expect(checked.payloads == 6, "\(checked)")

    // What is not marked is recorded as it is.
    let reader = try TraceReader(path: path)
    let json = try #require(try reader.stateJSON(session: 1, after: 6))
    #expect(json.contains(#""nickname":"copy""#), "\(json)")
    let emptied = try #require(try reader.actions().first { $0.seq == 3 })
    #expect(emptied.payload == "<redacted>")
    #expect(emptied.changes.map(\.new) == ["<redacted>"])
  }
}

/// A feature whose secrets lie inside a presented struct, an optional and an identified
/// collection's rows.
private struct Safe: Reducer {
  struct Profile: Codable, Equatable {
    var nickname: String
    var secret: String
  }

  struct Entry: Codable, Equatable, Identifiable {
    var id: Int
    var label: String
    var pin: String
  }

  @ObservableState
  struct State: Codable, Equatable {
    @Presents var profile: Profile?
    var backup: Profile?
    var keychain: IdentifiedArrayOf<Entry> = []
  }

  @CasePathable
  enum Action: Codable, Equatable {
    case present(Profile)
    case secretChanged(String)
    case backUp(Profile?)
    case addEntry(Entry)
    case setPin(id: Int, pin: String)
    case dismiss
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .present(profile): state.profile = profile
    case let .secretChanged(secret): state.profile?.secret = secret
    case let .backUp(profile): state.backup = profile
    case let .addEntry(entry): state.keychain.append(entry)
    case let .setPin(id, pin): state.keychain[id: id]?.pin = pin
    case .dismiss: state.profile = nil
    }
    return .none
  }
}

/// Checks the JSON columns of a trace at marked paths: each value there reads `"<redacted>"`.
private struct MarkedPaths {
  /// Marked state paths, as JSON member names.
  let state: [[String]]
  /// Marked action cases: their associated values read `"<redacted>"` in `payload_json`.
  let cases: Set<String>

  struct Checked: CustomStringConvertible {
    var changes = 0
    var states = 0
    var payloads = 0
    var texts = 0
    var description: String {
      "\(self.changes) changes, \(self.states) states, \(self.payloads) payloads, \(self.texts) texts"
    }
  }

  /// Checks the trace at `path`; returns how many values at marked paths it checked.
  func check(_ path: String) throws -> Checked {
    let reader = try TraceReader(path: path)
    var checked = Checked()
    for row in try reader.query("SELECT json_changes FROM actions WHERE json_changes IS NOT NULL")
      .rows
    {
      guard case let .text(text)? = row.first else { continue }
      let operations = try #require(
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[Any]])
      for operation in operations where operation.count == 3 {
        let changePath = (operation[1] as? [Any] ?? []).map { "\($0)" }
        for marked in self.state {
          let common = min(changePath.count, marked.count)
          guard Array(changePath.prefix(common)) == Array(marked.prefix(common)) else { continue }
          let values = Self.values(at: marked.dropFirst(changePath.count), in: operation[2])
          for value in values {
            #expect(value as? String == "<redacted>", "\(changePath) in \(text)")
            checked.changes += 1
          }
        }
      }
    }
    for row in try reader.query("SELECT json FROM states WHERE json IS NOT NULL").rows {
      guard case let .text(text)? = row.first else { continue }
      let json = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
      for marked in self.state {
        for value in Self.values(at: marked[...], in: json) where !(value is NSNull) {
          #expect(value as? String == "<redacted>", "\(marked) in \(text)")
          checked.states += 1
        }
      }
    }
    // A value written whole with a marked path inside it: its text names the marked property
    // with `<redacted>`, even when the secret is empty.
    for row in try reader.query("SELECT path, old_value, new_value FROM state_changes").rows {
      guard case let .text(changePath)? = row.first else { continue }
      for marked in self.state where marked.joined(separator: ".").hasPrefix(changePath + ".") {
        let label = marked.last! + ": "
        for case let .text(text) in row.dropFirst() where text.contains(label) {
          #expect(
            text.components(separatedBy: label).dropFirst().allSatisfy {
              $0.hasPrefix("<redacted>")
            },
            "\(changePath): \(text)"
          )
          checked.texts += 1
        }
      }
    }
    for row in try reader.query("SELECT payload_json FROM actions WHERE payload_json IS NOT NULL")
      .rows
    {
      guard case let .text(text)? = row.first else { continue }
      let json = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
      for values in Self.caseValues(self.cases, in: json) {
        #expect(values.values.allSatisfy { $0 as? String == "<redacted>" }, "\(text)")
        checked.payloads += 1
      }
    }
    return checked
  }

  /// The values at `path` in `json`, through every element of the arrays on the way.
  static func values(at path: ArraySlice<String>, in json: Any) -> [Any] {
    if let array = json as? [Any] { return array.flatMap { Self.values(at: path, in: $0) } }
    guard let name = path.first else { return [json] }
    guard let object = json as? [String: Any], let member = object[name] ?? object["_" + name]
    else { return [] }
    return Self.values(at: path.dropFirst(), in: member)
  }

  /// The associated values of each case named in `cases`, anywhere in an action's JSON.
  static func caseValues(_ cases: Set<String>, in json: Any) -> [[String: Any]] {
    if let array = json as? [Any] { return array.flatMap { Self.caseValues(cases, in: $0) } }
    guard let object = json as? [String: Any] else { return [] }
    return object.flatMap { name, value -> [[String: Any]] in
      if cases.contains(name), let values = value as? [String: Any] { return [values] }
      return Self.caseValues(cases, in: value)
    }
  }
}
