// A recording process for tests that need one: a process killed mid-session, a disk that
// fills up, a file another process appends to. Not part of the tool.
//
//   tcatrace-fixture record-until-killed FILE
//   tcatrace-fixture record-taps-until-killed FILE
//                                           (actions 2 ms apart, as taps come: after each
//                                           send, `sent N written W`: N for the email
//                                           `tapN@example.com`, W the last action committed)
//   tcatrace-fixture crash FILE HOW [modifier]
//                                           (installs a crash reporter's handlers, records
//                                           taps 1–3, flushes, prints `committed W`, records
//                                           taps 4 and 5 and ends the process HOW: fatalError,
//                                           nilUnwrap, indexOutOfRange or abortInEffect, or
//                                           hangs in the reducer (hangInReducer); with
//                                           `modifier`, through `recording(to:)`)
//   tcatrace-fixture record-until-full FILE MAX_FILE_BYTES ACTIONS
//   tcatrace-fixture record-burst-until-full FILE MAX_FILE_BYTES ACTIONS
//                                           (ACTIONS sent at once, then closed: the last writes fail)
//   tcatrace-fixture leak-stop FILE         (records the leaky example with .stopInDebug)
//   tcatrace-fixture record-demo FILE       (the demo's two sessions, with fixed times)
//   tcatrace-fixture record-demo-analysed-on stores|writers FILE
//                                           (the demo's app session, redacted, fixed times,
//                                           analysed on the thread named; prints how many
//                                           actions waited for the writer's thread)
//   tcatrace-fixture record-library FILE    (the library example's session, fixed times: what
//                                           Tests/RealTCA records on TCA too)
//   tcatrace-fixture record-game FILE       (a session of the app written as TCA's examples
//                                           are, Tests/Fixtures/Library/Game.swift; fixed times)
//   tcatrace-fixture record-demo-unredacted FILE
//                                           (the same, nothing redacted: a session whose
//                                           password a generated test can send)
//   tcatrace-fixture record-texts FILE TEXT…
//                                           (a session "texts" of the app, nothing redacted:
//                                           each TEXT typed as the login's email, then added as
//                                           a todo's title)
//   tcatrace-fixture append-through-modifier FILE COUNT
//                                           (COUNT actions, a Store of the app's own recorded
//                                           through recording(to:))
//   tcatrace-fixture append-to FILE COUNT HOST:PORT:SECRET
//                                           (COUNT actions, streamed to the debugger the
//                                           store names in code)
//   tcatrace-fixture drive FILE COUNT [modifier|redacted]
//                                           (COUNT actions, then `ready`; then, a line on its
//                                           input each: `state` prints `state JSON`, the
//                                           store's state; `type N` sends an email change and
//                                           prints `typed N`; `quit` closes the recorder.
//                                           With `modifier`, a Store of the app's own,
//                                           recorded through recording(to:); `redacted`, the
//                                           login's email redacted)
//   tcatrace-fixture append FILE COUNT [PAUSE_AFTER [sockets]]
//                                           (a session of COUNT actions, one every 50 ms;
//                                           `refused: …` if the recorder throws; with
//                                           PAUSE_AFTER, writes that many, prints `paused` and
//                                           goes on when a line comes on its input; with
//                                           `sockets`, a line `sockets` there is answered
//                                           `sockets N`, the sockets it has opened, not
//                                           counting those it inherited, and it waits again)
//
// It prints one line per 100 actions sent (`sent 100`), each issue reported (`issue: …`), and
// what it ended with.

import Foundation
import IssueReporting
import TCATrace
import LibraryExample
import TCATraceExamples

#if canImport(Glibc)
  import Glibc
#endif

/// Prints every issue on its own line, so that a test can count them.
struct PrintingReporter: IssueReporter {
  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString,
    filePath: StaticString, line: UInt, column: UInt
  ) {
    emit("issue: \(message() ?? "")")
  }
}

/// The sockets this process has open, by their inodes, from `/proc/self/fd` (Linux; none
/// elsewhere).
func socketInodes() -> Set<String> {
  let folder = "/proc/self/fd"
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
  return Set(
    entries.compactMap { entry in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + entry))
        .flatMap { $0.hasPrefix("socket:") ? $0 : nil }
    })
}

func emit(_ line: String) {
  // NB: Written straight to the file descriptor, unbuffered, so that a test reading the pipe
  // sees each line as soon as it is printed, even if the process is then killed.
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

@main
struct TraceFixture {
  static func main() async throws {
    IssueReporters.current = [PrintingReporter()]
    let arguments = Array(CommandLine.arguments.dropFirst())
    switch arguments.first {
    case "record-until-killed" where arguments.count == 2:
      try await recordUntilKilled(path: arguments[1])
    case "record-taps-until-killed" where arguments.count == 2:
      try await recordTapsUntilKilled(path: arguments[1])
    case "crash" where arguments.count == 3 || arguments.count == 4:
      guard let how = CrashFeature.Crash(rawValue: arguments[2]) else { fallthrough }
      try await crash(path: arguments[1], how, throughModifier: arguments.count == 4)
    case "record-demo" where arguments.count == 2:
      try await recordDemo(path: arguments[1])
    case "record-demo-analysed-on"
    where arguments.count == 3
      && ["stores", "writers"].contains(arguments[1]):
      try await recordDemo(path: arguments[2], onWritersThread: arguments[1] == "writers")
    case "record-library" where arguments.count == 2:
      try await recordLibrary(path: arguments[1])
    case "record-game" where arguments.count == 2:
      try await recordGame(path: arguments[1])
    case "record-demo-unredacted" where arguments.count == 2:
      try await recordDemo(path: arguments[1], redacting: [])
    case "record-texts" where arguments.count >= 2:
      try await recordTexts(path: arguments[1], Array(arguments.dropFirst(2)))
    case "append-through-modifier" where arguments.count == 3:
      guard let count = Int(arguments[2]) else { fallthrough }
      try await appendThroughModifier(path: arguments[1], count: count)
    case "append-to" where arguments.count == 4:
      guard let count = Int(arguments[2]), let debugger = TraceDebugger(arguments[3]) else {
        fallthrough
      }
      try await appendTo(debugger, path: arguments[1], count: count)
    case "drive" where arguments.count == 3 || arguments.count == 4:
      guard let count = Int(arguments[2]) else { fallthrough }
      try await drive(
        path: arguments[1], count: count,
        modifier: arguments.count == 4 && arguments[3] == "modifier",
        redacted: arguments.count == 4 && arguments[3] == "redacted")
    case "append" where (3...5).contains(arguments.count):
      guard let count = Int(arguments[2]),
        let pause = Int(arguments.count >= 4 ? arguments[3] : "0"),
        arguments.count < 5 || arguments[4] == "sockets"
      else { fallthrough }
      try await append(
        path: arguments[1], count: count, pauseAfter: pause, countingSockets: arguments.count == 5)
    case "leak-stop" where arguments.count == 2:
      try await leakStop(path: arguments[1])
    case "record-until-full" where arguments.count == 4:
      guard let limit = Int(arguments[2]), let count = Int(arguments[3]) else { fallthrough }
      try await recordUntilFull(path: arguments[1], maxFileBytes: limit, actions: count)
    case "record-burst-until-full" where arguments.count == 4:
      guard let limit = Int(arguments[2]), let count = Int(arguments[3]) else { fallthrough }
      try await recordUntilFull(
        path: arguments[1], maxFileBytes: limit, actions: count, burst: true)
    default:
      FileHandle.standardError.write(
        Data(
          "usage: tcatrace-fixture record-until-killed FILE | record-until-full FILE MAX_FILE_BYTES ACTIONS\n"
            .utf8)
      )
      exit(2)
    }
  }

  @MainActor
  static func makeStore(_ recorder: TraceRecorder) -> RecordingStore<
    AppFeature.State, AppFeature.Action
  > {
    RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
      AppFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
      $0.tickClient = .immediate(count: 0)
      $0.stackElementID = .incrementing
    }
  }

  /// Records taps, then ends the process as `crash` says, its handlers installed first.
  @MainActor
  static func crash(
    path: String, _ crash: CrashFeature.Crash, throughModifier: Bool
  ) async throws {
    installReportingHandlers()
    // NB: The writer writes taps 1–3 when asked to flush, and waits an hour for the batch of
    // taps 4–6 to fill: the process always ends before it writes them, however busy the
    // machine (a minute was not enough once, with the whole suite running). With the 2 ms an
    // app's writer waits, a busy machine could run the writer before an effect's abort, and
    // the journal would hold nothing of action 6.
    let recorder = try TraceRecorder(
      path: path, session: "crash", policy: .recordOnly, timing: .measured, writerDelay: 3_600)
    let send: (CrashFeature.Action) -> Void
    if throughModifier {
      let store = Store(initialState: CrashFeature.State()) {
        CrashFeature().recording(to: recorder)
      }
      send = { store.send($0) }
    } else {
      let store = RecordingStore(initialState: CrashFeature.State(), recorder: recorder) {
        CrashFeature()
      }
      send = { store.send($0) }
    }
    for count in 1...3 { send(.view(.tapped(count))) }
    await recorder.flush()
    emit("committed \(recorder.writtenSeq ?? 0)")
    for count in 4...5 { send(.view(.tapped(count))) }
    send(.view(.crashButtonTapped(crash)))
    try await Task.sleep(for: .seconds(10))
    emit("did not crash")
  }

  /// Sends actions until the process is killed, pausing briefly every 100, and until the writer
  /// is within 10,000 of them.
  @MainActor
  static func recordUntilKilled(path: String) async throws {
    let recorder = try TraceRecorder(path: path, session: "killed")
    let store = makeStore(recorder)
    var sent = 0
    while true {
      store.send(._internal(.login(.view(.emailChanged("user\(sent)@example.com")))))
      sent += 1
      if sent % 100 == 0 {
        emit("sent \(sent)")
        try await Task.sleep(for: .milliseconds(2))
        // NB: At most 10,000 actions ahead of the writer, far within what it holds (65,536):
        // on a busy machine the writer falls behind a store that sends without pause, and past
        // its bound it drops actions, which would leave gaps in the numbering the test reads.
        while sent - (recorder.writtenSeq ?? 0) > 10_000 {
          try await Task.sleep(for: .milliseconds(2))
        }
      }
    }
  }

  /// Sends actions 2 ms apart (and the time a send takes) until the process is killed, as an app's taps come, and says
  /// which after each send: when the send returns, the action is recorded.
  @MainActor
  static func recordTapsUntilKilled(path: String) async throws {
    let recorder = try TraceRecorder(path: path, session: "taps", policy: .recordOnly)
    let store = makeStore(recorder)
    for sent in 1... {
      store.send(._internal(.login(.view(.emailChanged("tap\(sent)@example.com")))))
      emit("sent \(sent) written \(recorder.writtenSeq ?? 0)")
      try await Task.sleep(for: .milliseconds(2))
    }
  }

  /// Records the demo's sessions with made-up times and an instant back end, so that the file
  /// reads the same every run: what the CLI's end-to-end tests compare whole outputs against.
  @MainActor
  static func recordDemo(
    path: String, redacting redactions: [TraceRedaction] = AppFeature.redactions
  ) async throws {
    _ = try await recordDemoApp(path: path, redacting: redactions)

    let leaky = try TraceRecorder(path: path, session: "leaky", policy: .recordOnly, timing: .fixed)
    let leakyStore = RecordingStore(initialState: LeakyParentFeature.State(), recorder: leaky) {
      LeakyParentFeature()
    }
    await DemoScript.runLeaky { leakyStore.send($0) }
    await leakyStore.finish()
    try await leaky.close()
    emit("recorded")
  }

  /// Records the demo's app session, analysed on the store's thread or the writer's, and
  /// prints what the backlog counted: `admitted N fallbacks M`.
  @MainActor
  static func recordDemo(path: String, onWritersThread: Bool) async throws {
    let recorder = try await recordDemoApp(
      path: path, redacting: AppFeature.redactions, analysesOnWritersThread: onWritersThread)
    emit("admitted \(recorder.backlog.admitted) fallbacks \(recorder.backlog.fallbacks)")
  }

  /// Records the demo's app session, session "app", with made-up times and an instant back
  /// end; returns its recorder, closed.
  @MainActor
  private static func recordDemoApp(
    path: String, redacting redactions: [TraceRedaction], analysesOnWritersThread: Bool? = nil
  ) async throws -> TraceRecorder {
    let recorder = try TraceRecorder(
      path: path, session: "app", policy: .recordOnly, redacting: redactions, timing: .fixed,
      analysesOnWritersThread: analysesOnWritersThread)
    let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
      AppFeature()
    } withDependencies: {
      DemoScript.immediateDependencies(&$0)
    }
    await DemoScript.runApp(finish: store.finish) { store.send($0) }
    await store.finish()
    try await recorder.close()
    return recorder
  }

  /// Records the library example's session.
  @MainActor
  static func recordLibrary(path: String) async throws {
    let recorder = try TraceRecorder(
      path: path, session: "library", policy: .recordOnly, timing: .fixed)
    await LibraryScript.record(to: recorder)
    try await recorder.close()
    emit("recorded")
  }

  /// Records the session of the app written as TCA's examples are (issue #71).
  @MainActor
  static func recordGame(path: String) async throws {
    let recorder = try TraceRecorder(
      path: path, session: "game", policy: .recordOnly, timing: .fixed)
    await GameScript.record(to: recorder)
    try await recorder.close()
    emit("recorded")
  }

  /// Records each of `texts` as the login's email and as a new todo's title, nothing redacted:
  /// a session whose strings a generated test must write back exactly.
  @MainActor
  static func recordTexts(path: String, _ texts: [String]) async throws {
    let recorder = try TraceRecorder(
      path: path, session: "texts", policy: .recordOnly, redacting: [], timing: .fixed
    )
    let store = makeStore(recorder)
    for text in texts {
      store.send(._internal(.login(.view(.emailChanged(text)))))
      store.send(._internal(.todos(.view(.addTodoButtonTapped(title: text)))))
    }
    await store.finish()
    try await recorder.close()
    emit("recorded")
  }

  /// Appends a session of `count` actions to `path`, one every 50 ms, for following; after
  /// `pauseAfter` actions (when not 0), waits for a line on the standard input.
  @MainActor
  static func append(
    path: String, count: Int, pauseAfter: Int, countingSockets: Bool = false
  ) async throws {
    // NB: A process started by another may have inherited its sockets: those are not its own.
    let inherited = countingSockets ? socketInodes() : []
    let recorder: TraceRecorder
    do {
      recorder = try TraceRecorder(
        path: path, session: "appended", policy: .recordOnly, timing: .fixed)
    } catch {
      emit("refused: \(error)")
      return
    }
    let store = makeStore(recorder)
    for index in 1...count {
      store.send(._internal(.login(.view(.emailChanged("live\(index)@example.com")))))
      emit("sent \(index)")
      if index == pauseAfter {
        // NB: What was sent is in the file when the test reads `paused`, however busy the
        // machine: the test waits on the recorder, not on the clock.
        await recorder.flush()
        emit("paused")
        while let line = readLine(), countingSockets, line == "sockets" {
          emit("sockets \(socketInodes().subtracting(inherited).count)")
        }
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    do {
      try await recorder.close()
      emit("closed")
    } catch {
      emit("close threw: \(error)")
    }
  }

  /// Records `count` actions with a `Store` the app built itself, through `recording(to:)`,
  /// then closes.
  @MainActor
  static func appendThroughModifier(path: String, count: Int) async throws {
    let recorder = try TraceRecorder(
      path: path, session: "appended", policy: .recordOnly, timing: .fixed)
    let store = Store(initialState: AppFeature.State()) {
      AppFeature().recording(to: recorder)
    }
    for index in 1...count {
      store.send(._internal(.login(.view(.emailChanged("live\(index)@example.com")))))
      try await Task.sleep(for: .milliseconds(20))
    }
    try await recorder.close()
    emit("closed")
  }

  /// Records `count` actions, and then does what its input says, a line at a time, its main
  /// actor free meanwhile for the debugger's commands: reading the input blocks a thread of
  /// its own.
  @MainActor
  static func drive(path: String, count: Int, modifier: Bool, redacted: Bool) async throws {
    let recorder = try TraceRecorder(
      path: path, session: "driven", policy: .recordOnly,
      redacting: redacted ? [.state(\AppFeature.State.login.email)] : [], timing: .fixed)
    let send: (AppFeature.Action) -> Void
    let state: () -> AppFeature.State
    if modifier {
      let store = Store(initialState: AppFeature.State()) {
        AppFeature().recording(to: recorder)
      }
      (send, state) = ({ store.send($0) }, { store.state })
    } else {
      let store = makeStore(recorder)
      (send, state) = ({ store.send($0) }, { store.state })
    }
    for index in 1...count {
      send(._internal(.login(.view(.emailChanged("live\(index)@example.com")))))
    }
    await recorder.flush()
    emit("ready")
    let (lines, input) = AsyncStream.makeStream(of: String.self)
    let reading = Thread {
      while let line = readLine() { input.yield(line) }
      input.finish()
    }
    reading.start()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    loop: for await line in lines {
      let words = line.split(separator: " ")
      switch words.first {
      case "state":
        emit("state " + String(decoding: try encoder.encode(state()), as: UTF8.self))
      case "type" where words.count == 2:
        send(._internal(.login(.view(.emailChanged("typed\(words[1])@example.com")))))
        emit("typed \(words[1])")
      case "quit":
        break loop
      default:
        emit("unknown: \(line)")
      }
    }
    try await recorder.close()
    emit("closed")
  }

  /// Records `count` actions with a store that names `debugger` in code, then closes.
  @MainActor
  static func appendTo(_ debugger: TraceDebugger, path: String, count: Int) async throws {
    let recorder = try TraceRecorder(
      path: path, session: "appended", policy: .recordOnly, timing: .fixed)
    let store = RecordingStore(
      initialState: AppFeature.State(), recorder: recorder, debugger: debugger
    ) {
      AppFeature()
    }
    for index in 1...count {
      store.send(._internal(.login(.view(.emailChanged("live\(index)@example.com")))))
      try await Task.sleep(for: .milliseconds(20))
    }
    try await recorder.close()
    emit("closed")
  }

  /// Records the leaky example with the `.stopInDebug` policy: the first leak stops the process.
  @MainActor
  static func leakStop(path: String) async throws {
    let recorder = try TraceRecorder(path: path, session: "stop", policy: .stopInDebug)
    let store = RecordingStore(initialState: LeakyParentFeature.State(), recorder: recorder) {
      LeakyParentFeature()
    }
    emit("sending")
    store.send(._internal(.child(.view(.buttonTapped))))
    emit("still running")
    try await recorder.close()
  }

  /// Sends `actions` actions with files limited to `maxFileBytes`, so that writing fails part
  /// way; then reports what the store did.
  @MainActor
  /// `burst`: every action is sent before the writer's first write (fewer than a batch, within
  /// its delay), so the writes that fail are the last ones, at `close()`.
  static func recordUntilFull(
    path: String, maxFileBytes: Int, actions: Int, burst: Bool = false
  ) async throws {
    #if canImport(Glibc)
      // NB: Past the limit, write() fails with EFBIG instead of the process being killed.
      signal(SIGXFSZ, SIG_IGN)
      var limit = rlimit(rlim_cur: rlim_t(maxFileBytes), rlim_max: rlim_t(maxFileBytes))
      guard setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0 else {
        emit("setrlimit failed")
        exit(3)
      }
    #endif
    let recorder = try TraceRecorder(path: path, session: "full")
    let store = makeStore(recorder)
    // NB: Small enough that the first transaction, however many actions the writer takes into
    // it, fits under the limit: with 500 characters, a first batch of ~450 actions did not,
    // and the file then held no session at all (half the runs on a busy machine).
    let filler = String(repeating: "x", count: burst ? 2_000 : 100)
    for index in 0..<actions {
      store.send(._internal(.login(.view(.emailChanged("\(index)-\(filler)")))))
      if !burst, index % 500 == 499 { try await Task.sleep(for: .milliseconds(1)) }
    }
    await store.finish()
    emit("processed \(actions); email starts \(store.login.email.prefix(while: { $0 != "-" }))")
    do {
      try await recorder.close()
      emit("closed")
    } catch {
      emit("close threw: \(error)")
    }
  }
}
