import CustomDump
import Foundation
import TCATrace
import TCATraceExamples
import TestSupport
import Testing

/// One recorded file, shared by the filter tests: the app session and the leaky session.
@MainActor
private func recordDemoFile(_ path: String) async throws {
  let app = try TraceRecorder(path: path, session: "app")
  let appStore = RecordingStore(initialState: AppFeature.State(), recorder: app) {
    AppFeature()
  } withDependencies: {
    $0.apiClient = .fake(latency: .zero)
    $0.tickClient = .immediate(count: 0)
    $0.stackElementID = .incrementing
  }
  await DemoScript.runApp(finish: appStore.finish) { appStore.send($0) }
  await appStore.finish()
  try await app.close()

  let leaky = try TraceRecorder(path: path, session: "leaky", policy: .recordOnly)
  let leakyStore = RecordingStore(initialState: LeakyParentFeature.State(), recorder: leaky) {
    LeakyParentFeature()
  }
  await DemoScript.runLeaky { leakyStore.send($0) }
  await leakyStore.finish()
  try await leaky.close()
}

@MainActor
@Suite(.hangGuard)
struct ReaderTests {
  private func seqs(_ reader: TraceReader, _ filter: TraceFilter) throws -> [Int] {
    try reader.actions(matching: filter, includeChanges: false).map(\.seq)
  }

  @Test func filtersBySessionCategoryFeatureLeaksSeqAndText() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("demo.db")
    try await recordDemoFile(path)
    let reader = try TraceReader(path: path)
    let sessions = try reader.sessions()
    expectNoDifference(sessions.map(\.name), ["app", "leaky"])
    expectNoDifference(sessions.map(\.actionCount), [23, 7])
    expectNoDifference(sessions.map(\.leakCount), [0, 4])
    let (app, leaky) = (sessions[0].id, sessions[1].id)

    #expect(try reader.actions(includeChanges: false).count == 30)
    expectNoDifference(try seqs(reader, TraceFilter(session: leaky)), Array(1...7))
    expectNoDifference(
      try seqs(reader, TraceFilter(session: app, categories: [.delegate])), [8, 9, 14, 23]
    )
    expectNoDifference(
      try seqs(reader, TraceFilter(session: app, categories: [.internal, .delegate])),
      [4, 7, 8, 9, 11, 14, 23]
    )
    // A feature matches itself and everything below it, not a sibling with a longer name.
    expectNoDifference(
      try seqs(reader, TraceFilter(session: app, feature: "login")), [1, 2, 3, 4, 5, 6, 7, 8, 9]
    )
    expectNoDifference(
      try seqs(reader, TraceFilter(session: app, feature: "login.twoFactor")), [5, 6, 7, 8]
    )
    expectNoDifference(try seqs(reader, TraceFilter(session: app, feature: "log")), [])
    expectNoDifference(
      try seqs(reader, TraceFilter(session: app, feature: "todos.rows")), [13, 14, 15])
    expectNoDifference(
      try seqs(reader, TraceFilter(session: app, feature: "todos.rows[id: 1]")), [15]
    )
    expectNoDifference(try seqs(reader, TraceFilter(leaksOnly: true)), [2, 4, 6, 7])
    expectNoDifference(
      try seqs(reader, TraceFilter(session: app, fromSeq: 20, toSeq: 21)), [20, 21])
    // Text matches the case path or the payload.
    expectNoDifference(try seqs(reader, TraceFilter(session: app, text: "binding")), [20, 21])
    expectNoDifference(try seqs(reader, TraceFilter(session: app, text: "oat milk")), [15])
    expectNoDifference(try seqs(reader, TraceFilter(categories: [])), [])
    // Conditions combine.
    expectNoDifference(
      try seqs(
        reader, TraceFilter(session: app, categories: [.view], feature: "todos", fromSeq: 13)),
      [13, 15, 16, 17, 18]
    )
  }
}
