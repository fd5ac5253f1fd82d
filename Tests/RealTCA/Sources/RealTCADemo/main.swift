// Records the demo's two sessions — the example app through `DemoScript`, then the leaky
// example — on pointfreeco's TCA, as `tcatrace-fixture record-demo FILE` records them on
// `Composable`, so that `check.sh` can compare the two files with `tcatrace diff`.
//
//   RealTCADemo FILE [--unredacted]
//   RealTCADemo --library FILE
//   RealTCADemo --vault FILE
//   RealTCADemo --game FILE
//   RealTCADemo --crash FILE HOW   (ends its process in a reducer, or in an effect: HOW is a
//                                   case of CrashFeature.Crash; see tcatrace-fixture crash)
//   RealTCADemo --drive FILE COUNT (COUNT actions, then `ready`, then what its input says, as
//                                   `tcatrace-fixture drive FILE COUNT` does: the app that
//                                   drive_browser_check.py drives from tcatrace serve --live)
//
// With --unredacted, the app's session keeps the password and the code: a session whose test
// `tcatrace test` can write whole.

import Foundation
import LibraryExample
import RealTCAExamples
import TCATrace

@MainActor
func record(path: String, redacting redactions: [TraceRedaction]) async throws {
  let app = try TraceRecorder(
    path: path, session: "app", policy: .recordOnly, redacting: redactions)
  let appStore = RecordingStore(initialState: AppFeature.State(), recorder: app) {
    AppFeature()
  } withDependencies: {
    DemoScript.immediateDependencies(&$0)
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

// NB: On Linux an async top-level `main` runs main-actor jobs off the main thread, where TCA's
// main-thread checks trap: the main actor is served from the main thread's run loop instead.
/// Records `count` actions, then does what its input says, a line at a time (`state`, `type N`,
/// `quit`), as `tcatrace-fixture drive` does: its main actor free meanwhile for the commands of
/// `tcatrace serve --live`, whose `TCATRACE_DEBUGGER` its environment has.
@MainActor
func drive(path: String, count: Int) async throws {
  let recorder = try TraceRecorder(path: path, session: "driven", policy: .recordOnly)
  let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
    AppFeature()
  }
  func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
  for index in 1...count {
    store.send(._internal(.login(.view(.emailChanged("live\(index)@example.com")))))
  }
  await recorder.flush()
  emit("ready")
  let (lines, input) = AsyncStream.makeStream(of: String.self)
  Thread {
    while let line = readLine() { input.yield(line) }
    input.finish()
  }.start()
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  loop: for await line in lines {
    let words = line.split(separator: " ")
    switch words.first {
    case "state":
      emit("state " + String(decoding: try encoder.encode(store.state), as: UTF8.self))
    case "type" where words.count == 2:
      store.send(._internal(.login(.view(.emailChanged("typed\(words[1])@example.com")))))
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

/// The library example's session, as `tcatrace-fixture record-library FILE` records it.
@MainActor
func recordLibrary(path: String) async throws {
  let recorder = try TraceRecorder(path: path, session: "library", policy: .recordOnly)
  await LibraryScript.record(to: recorder)
  try await recorder.close()
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.count == 2, arguments.first == "--library" {
  Task { @MainActor in
    do {
      try await recordLibrary(path: arguments.last!)
      exit(0)
    } catch {
      FileHandle.standardError.write(Data("RealTCADemo: \(error)\n".utf8))
      exit(1)
    }
  }
  RunLoop.main.run()
}
if arguments.count == 2, arguments.first == "--game" {
  // NB: The app written as TCA's examples are, as `tcatrace-fixture record-game FILE` records
  // it (issue #71).
  Task { @MainActor in
    do {
      let recorder = try TraceRecorder(path: arguments.last!, session: "game", policy: .recordOnly)
      await GameScript.record(to: recorder)
      try await recorder.close()
      exit(0)
    } catch {
      FileHandle.standardError.write(Data("RealTCADemo: \(error)\n".utf8))
      exit(1)
    }
  }
  RunLoop.main.run()
}
if arguments.count == 2, arguments.first == "--vault" {
  Task { @MainActor in
    do {
      try await Vault.record(path: arguments.last!)
      exit(0)
    } catch {
      FileHandle.standardError.write(Data("RealTCADemo: \(error)\n".utf8))
      exit(1)
    }
  }
  RunLoop.main.run()
}
if arguments.count == 3, arguments.first == "--crash",
  let how = CrashFeature.Crash(rawValue: arguments.last!)
{
  // NB: As `tcatrace-fixture crash FILE HOW` ends its process (issue #73), on TCA: its handlers
  // installed, taps 1 to 3 written (`flushed`), 4 and 5 recorded, and the process ended in
  // action 6.
  Task { @MainActor in
    installReportingHandlers()
    do {
      let recorder = try TraceRecorder(
        path: arguments[arguments.startIndex + 1], session: "crash", policy: .recordOnly)
      let store = RecordingStore(initialState: CrashFeature.State(), recorder: recorder) {
        CrashFeature()
      }
      for count in 1...3 { store.send(.view(.tapped(count))) }
      await recorder.flush()
      FileHandle.standardOutput.write(Data("flushed\n".utf8))
      for count in 4...5 { store.send(.view(.tapped(count))) }
      store.send(.view(.crashButtonTapped(how)))
      try await Task.sleep(for: .seconds(10))
      FileHandle.standardError.write(Data("RealTCADemo: did not crash\n".utf8))
    } catch {
      FileHandle.standardError.write(Data("RealTCADemo: \(error)\n".utf8))
    }
    exit(1)
  }
  RunLoop.main.run()
}
if arguments.count == 3, arguments.first == "--drive", let count = Int(arguments.last!) {
  Task { @MainActor in
    do {
      try await drive(path: arguments[arguments.startIndex + 1], count: count)
      exit(0)
    } catch {
      FileHandle.standardError.write(Data("RealTCADemo: \(error)\n".utf8))
      exit(1)
    }
  }
  RunLoop.main.run()
}
guard arguments.count == 1 || arguments.count == 2 && arguments.last == "--unredacted" else {
  FileHandle.standardError.write(
    Data(
      "usage: RealTCADemo FILE [--unredacted] | RealTCADemo --library FILE | RealTCADemo --vault FILE | RealTCADemo --game FILE | RealTCADemo --crash FILE HOW | RealTCADemo --drive FILE COUNT\n"
        .utf8)
  )
  exit(2)
}
Task { @MainActor in
  do {
    try await record(
      path: arguments.first!, redacting: arguments.count == 2 ? [] : AppFeature.redactions
    )
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("RealTCADemo: \(error)\n".utf8))
    exit(1)
  }
}
RunLoop.main.run()
