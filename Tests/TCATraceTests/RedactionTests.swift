import CustomDump
import Foundation
import TCATrace
import TCATraceExamples
import TestSupport
import Testing

/// A secret type the user owns, marked by conforming to `TraceRedacted`.
private struct Password: Codable, Equatable, Sendable, TraceRedacted {
  var value: String
}

private struct Credentials: Codable, Equatable, Sendable {
  var user: String
  var passwords: [Password]
}

/// A feature whose `Encodable` actions carry secrets: typed ones nested in an array in a
/// struct, and a plain string PIN marked by path.
private struct Vault: Reducer {
  struct State: Codable, Equatable {
    var credentials = Credentials(user: "", passwords: [])
    var pin = ""
    var note = ""
  }

  @CasePathable
  enum Action: Codable, Equatable {
    case store(Credentials)
    case pinChanged(String)
    case noteChanged(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .store(credentials): state.credentials = credentials
    case let .pinChanged(pin): state.pin = pin
    case let .noteChanged(note): state.note = note
    }
    return .none
  }
}

/// How often `secret`'s bytes occur in the files of `directory`: the database, its WAL, and
/// anything else the recorder left there.
func occurrences(of secret: String, in directory: TemporaryDirectory) throws -> Int {
  let needle = Data(secret.utf8)
  var count = 0
  for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
    var data = try Data(contentsOf: directory.url.appendingPathComponent(name))
    while let range = data.range(of: needle) {
      count += 1
      data = data.subdata(in: range.upperBound..<data.endIndex)
    }
  }
  return count
}

@MainActor
@Suite(.hangGuard)
struct RedactionTests {
  /// Records the demo's app session, which types the password and the two-factor code.
  static func recordApp(into directory: TemporaryDirectory, redacting: [TraceRedaction])
    async throws -> TraceRecorder
  {
    let recorder = try TraceRecorder(path: directory.path("app.db"), redacting: redacting)
    let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
      AppFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
      $0.tickClient = .immediate(count: 0)
      $0.stackElementID = .incrementing
    }
    await DemoScript.runApp(finish: store.finish) { store.send($0) }
    await store.finish()
    return recorder
  }

  @Test func theRawFilesHoldNeitherThePasswordNorTheCode() async throws {
    let directory = try TemporaryDirectory()
    let recorder = try await Self.recordApp(into: directory, redacting: AppFeature.redactions)
    // While recording: the database, its WAL and its shared memory file.
    // NB: Waited for through the recorder, suspended: never a poll of the file that blocks the
    // main actor.
    await recorder.flush()
    let written = try TraceReader(path: directory.path("app.db"), live: true).query(
      "SELECT count(*) FROM actions")
    guard case let .integer(count)? = written.rows.first?.first else {
      Issue.record("no count of actions: \(written.rows)")
      return
    }
    #expect(count >= 22)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path).contains("app.db-wal")
    )
    #expect(try occurrences(of: APIClient.fakePassword, in: directory) == 0)
    #expect(try occurrences(of: APIClient.fakeCode, in: directory) == 0)
    // And once closed.
    try await recorder.close()
    #expect(try occurrences(of: APIClient.fakePassword, in: directory) == 0)
    #expect(try occurrences(of: APIClient.fakeCode, in: directory) == 0)

    // The edits are still there, as changes of redacted values.
    let actions = try TraceReader(path: directory.path("app.db")).actions()
    let password = try #require(actions.first { $0.caseName == "passwordChanged" })
    #expect(password.payload == "<redacted>")
    expectNoDifference(
      password.changes,
      [StateChange(path: "login.password", kind: .changed, old: "<redacted>", new: "<redacted>")]
    )
    let verified = try #require(actions.first { $0.caseName == "didVerify" })
    expectNoDifference(
      verified.changes.map { "\($0.path) \($0.old ?? "nil")" },
      [
        "login.password <redacted>",
        """
        login.twoFactor TwoFactorFeature.State(
          token: "token-blob@example.com",
          code: <redacted>,
          isVerifying: false,
          errorMessage: nil
        )
        """,
      ]
    )
  }

  /// Issue #18: a kept state (a keyframe) taken while the password is in the state holds it
  /// redacted, and so does every state rebuilt from it.
  @Test func keptStatesHoldTheRedactedValuesRedacted() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("keyframes.db")
    let recorder = try TraceRecorder(path: path, redacting: AppFeature.redactions)
    let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
      AppFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
      $0.tickClient = .immediate(count: 0)
    }
    store.send(._internal(.login(.view(.passwordChanged(APIClient.fakePassword)))))
    // Enough changes after it for the recorder to keep the whole state again.
    for index in 0..<1_100 {
      store.send(._internal(.login(.view(.emailChanged("user\(index)@example.com")))))
    }
    // NB: No state is kept while the last is being built (`KeyframeClock`): a writer that took
    // the whole burst in one batch analysed past the interval before it built the first. Once
    // everything is written it has, and the next action keeps the state after it.
    await recorder.flush()
    store.send(._internal(.login(.view(.emailChanged("user1100@example.com")))))
    await store.finish()
    try await recorder.close()

    let reader = try TraceReader(path: path)
    let kept = try reader.query("SELECT seq FROM states ORDER BY seq").rows
    #expect(kept.count >= 2, "\(kept)")
    #expect(try occurrences(of: APIClient.fakePassword, in: directory) == 0)
    let state = try reader.state(session: 1, after: 1_102)
    #expect(state.node(at: "login.password") == .text("<redacted>"))
    #expect(state.node(at: "login.email") == .text(#""user1100@example.com""#))
  }

  @Test func withoutRedactionTheScanFindsTheSecrets() async throws {
    let directory = try TemporaryDirectory()
    let recorder = try await Self.recordApp(into: directory, redacting: [])
    try await recorder.close()
    #expect(try occurrences(of: APIClient.fakePassword, in: directory) > 0)
    #expect(try occurrences(of: APIClient.fakeCode, in: directory) > 0)
  }

  @Test func typedSecretsNestedInAnActionAndItsJSON() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("vault.db")
    let recorder = try TraceRecorder(path: path)
    let store = RecordingStore(initialState: Vault.State(), recorder: recorder) { Vault() }
    store.send(
      .store(
        Credentials(
          user: "blob", passwords: [Password(value: "s3cret-one"), Password(value: "s3cret-two")])))
    store.send(
      .store(
        Credentials(
          user: "blob", passwords: [Password(value: "s3cret-one"), Password(value: "s3cret-three")])
      ))
    try await recorder.close()
    for secret in ["s3cret-one", "s3cret-two", "s3cret-three"] {
      #expect(try occurrences(of: secret, in: directory) == 0, "\(secret)")
    }

    let actions = try TraceReader(path: path).actions()
    expectNoDifference(
      actions[0].payload,
      """
      Credentials(
        user: "blob",
        passwords: [
          [0]: <redacted>,
          [1]: <redacted>
        ]
      )
      """
    )
    expectNoDifference(
      actions[0].payloadJSON,
      #"{"store":{"_0":{"passwords":["<redacted>","<redacted>"],"user":"blob"}}}"#
    )
    expectNoDifference(
      actions[0].changes,
      [
        StateChange(path: "credentials.user", kind: .changed, old: #""""#, new: #""blob""#),
        StateChange(path: "credentials.passwords[0]", kind: .added, old: nil, new: "<redacted>"),
        StateChange(path: "credentials.passwords[1]", kind: .added, old: nil, new: "<redacted>"),
      ]
    )
    // Only the second password changed, and the trace says so without saying what it was.
    expectNoDifference(
      actions[1].changes,
      [
        StateChange(
          path: "credentials.passwords[1]", kind: .changed, old: "<redacted>", new: "<redacted>")
      ]
    )
  }

  /// Issue #18: a kept state's JSON, and the changes to it that each action made, hold the
  /// secrets of a `TraceRedacted` type and of a redacted path as `"<redacted>"`.
  @Test func statesJSONHoldsTheRedactedValuesRedacted() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("vault.db")
    let recorder = try TraceRecorder(path: path, redacting: [.state(\Vault.State.pin)])
    var initial = Vault.State()
    initial.credentials = Credentials(user: "blob", passwords: [Password(value: "s3cret-zero")])
    initial.pin = "918273"
    let store = RecordingStore(initialState: initial, recorder: recorder) { Vault() }
    store.send(.noteChanged("a note"))
    // What the actions change in the JSON is redacted too: a password added, one replaced, a
    // whole set of credentials, the PIN.
    store.send(
      .store(
        Credentials(
          user: "blob", passwords: [Password(value: "s3cret-zero"), Password(value: "s3cret-one")]))
    )
    store.send(
      .store(
        Credentials(
          user: "blob", passwords: [Password(value: "s3cret-zero"), Password(value: "s3cret-two")]))
    )
    store.send(.store(Credentials(user: "other", passwords: [Password(value: "s3cret-three")])))
    store.send(.pinChanged("5550123"))
    try await recorder.close()
    for secret in ["s3cret-zero", "s3cret-one", "s3cret-two", "s3cret-three", "918273", "5550123"] {
      #expect(try occurrences(of: secret, in: directory) == 0, "\(secret)")
    }
    let reader = try TraceReader(path: path)
    expectNoDifference(
      try reader.stateJSON(session: 1, after: 0),
      #"{"credentials":{"passwords":["<redacted>"],"user":"blob"},"note":"","pin":"<redacted>"}"#
    )
    expectNoDifference(
      try reader.stateJSON(session: 1, after: 3),
      #"{"credentials":{"passwords":["<redacted>","<redacted>"],"user":"blob"},"note":"a note","pin":"<redacted>"}"#
    )
    expectNoDifference(
      try reader.stateJSON(session: 1, after: 5),
      #"{"credentials":{"passwords":["<redacted>"],"user":"other"},"note":"a note","pin":"<redacted>"}"#
    )
  }

  @Test func secretsMarkedByStatePathAndActionCase() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("pin.db")
    let recorder = try TraceRecorder(
      path: path,
      redacting: [.state(\Vault.State.pin), .action(\Vault.Action.Cases.pinChanged)]
    )
    let store = RecordingStore(initialState: Vault.State(), recorder: recorder) { Vault() }
    store.send(.pinChanged("918273"))
    store.send(.noteChanged("not a secret"))
    try await recorder.close()
    #expect(try occurrences(of: "918273", in: directory) == 0)

    let actions = try TraceReader(path: path).actions()
    #expect(actions[0].payload == "<redacted>")
    #expect(actions[0].payloadJSON == #"{"pinChanged":{"_0":"<redacted>"}}"#)
    expectNoDifference(
      actions[0].changes,
      [StateChange(path: "pin", kind: .changed, old: "<redacted>", new: "<redacted>")]
    )
    // What is not marked is recorded as it is.
    #expect(actions[1].payload == #""not a secret""#)
    expectNoDifference(
      actions[1].changes,
      [StateChange(path: "note", kind: .changed, old: #""""#, new: #""not a secret""#)]
    )
  }

  @Test func aStatePathFromAnotherRootIsReported() async throws {
    let directory = try TemporaryDirectory()
    let recorder = try TraceRecorder(
      path: directory.path("wrong.db"), redacting: [.state(\AppFeature.State.login.password)]
    )
    let store = RecordingStore(initialState: Vault.State(), recorder: recorder) { Vault() }
    withKnownIssue {
      store.send(.pinChanged("1"))
    } matching: { issue in
      issue.description.contains(
        #"TraceRedaction.state(\TCATraceExamples.AppFeature.State.login.password) starts at 'TCATraceExamples.AppFeature.State', but the recorded store's state is"#
      ) && issue.description.contains("Vault.State', so it redacts nothing")
    }
    try await recorder.close()
  }
}
