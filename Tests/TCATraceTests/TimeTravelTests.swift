import Composable
import CustomDump
import Foundation
import IdentifiedCollections
import Synchronization
import TCATrace
import TCATraceExamples
import TCATraceFile
import TestSupport
import Testing

/// The state after each action, as CustomDump renders it, in the order the store processed them.
private final class StateLog: Sendable {
  let renderings = Mutex<[String]>([])
}

/// `base`, rendering the state after each action into `log`.
private struct Capturing<Base: Reducer>: Reducer {
  let base: Base
  let log: StateLog

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let effect = self.base.reduce(into: &state, action: action)
    let rendering = String(customDumping: state)
    self.log.renderings.withLock { $0.append(rendering) }
    return effect
  }
}

/// A feature whose one action changes its state at random, by its seed: every shape the state
/// can take, over a long session.
private struct Shuffler: Reducer {
  struct Item: Equatable, Identifiable {
    var id: Int
    var title: String
    var note: String?
  }
  enum Mode: Equatable {
    case idle
    case editing(Item)
    case moving(from: Int, to: Int)
  }
  struct Child: Equatable {
    var count = 0
    var items: IdentifiedArrayOf<Item> = []
  }
  struct State: Equatable {
    var count = 0
    var name = ""
    var child = Child()
    var optionalChild: Child?
    var mode = Mode.idle
    var items: IdentifiedArrayOf<Item> = []
    var plain: [Int] = []
    var scores: [String: Int] = [:]
    var destination = PresentationState<Child>(wrappedValue: nil)
    var stack = StackState<Child>()
    var nextID = 0
  }
  enum Action: Equatable {
    case shuffle(seed: UInt64)
  }


  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard case let .shuffle(seed) = action else { return .none }
    var random = SeededGenerator(seed: seed)
    let words = ["a", "b\nc", #"q"uote"#, ""]
    func word() -> String { words.randomElement(using: &random)! }
    func item() -> Item {
      state.nextID += 1
      return Item(id: state.nextID, title: word(), note: Bool.random(using: &random) ? word() : nil)
    }
    switch Int.random(in: 0..<14, using: &random) {
    case 0: state.count += 1
    case 1: state.name = word()
    case 2 where state.child.items.count < 6:
      state.child.items.insert(item(), at: Int.random(in: 0...state.child.items.count, using: &random))
    case 2, 3: if !state.child.items.isEmpty { state.child.items.removeFirst() }
    case 4: state.optionalChild = state.optionalChild == nil ? Child(count: 1) : nil
    case 5:
      if state.optionalChild?.items.count ?? 0 < 4 { state.optionalChild?.items.append(item()) } else { state.optionalChild?.items.removeLast() }
    case 6: state.mode = [Mode.idle, .editing(item()), .moving(from: state.nextID, to: 1)].randomElement(using: &random)!
    case 7: if state.items.count < 6 { state.items.append(item()) } else { state.items.removeFirst() }
    case 8: if state.items.count > 1 { state.items.swapAt(0, state.items.count - 1) }
    case 9: if let id = state.items.ids.randomElement(using: &random) { state.items[id: id]?.note = word() }
    case 10: if state.plain.count < 5 { state.plain.append(state.nextID) } else { state.plain.removeLast() }
    case 11: state.scores[word()] = Int.random(in: 0..<3, using: &random)
    case 12: state.destination.wrappedValue = state.destination.wrappedValue == nil ? Child(count: 2) : nil
    default:
      if state.stack.count < 4 && (state.stack.isEmpty || Bool.random(using: &random)) { state.stack.append(Child()) } else if !state.stack.isEmpty { state.stack.removeLast() }
    }
    return .none
  }
}

@MainActor
@Suite(.timeLimit(.minutes(2)))
struct TimeTravelTests {
  /// Every state a session went through, rebuilt from the trace, against its rendering then.
  private func expectEveryStateRebuilt(_ path: String, log: StateLog, initial: String) throws {
    let reader = try TraceReader(path: path)
    let renderings = [initial] + log.renderings.withLock { $0 }
    let session = try #require(try reader.sessions().first)
    #expect(session.actionCount == renderings.count - 1)
    // Every step, in one pass.
    var seen = 0
    try reader.forEachState(session: session.id, from: 0, through: renderings.count - 1) { seq, state in
      #expect(seq == seen)
      seen += 1
      let rebuilt = state.rendered()
      if rebuilt != renderings[seq] {
        Issue.record("after action #\(seq):\n\(diff(rebuilt, renderings[seq]) ?? "")")
      }
    }
    #expect(seen == renderings.count)
    // Steps on their own, each rebuilt from the kept state before it.
    for seq in Array(stride(from: 0, to: renderings.count, by: 97)) + [renderings.count - 1] {
      #expect(try reader.state(session: session.id, after: seq).rendered() == renderings[seq], "after action #\(seq)")
    }
    #expect(try reader.state(session: session.id, before: 1).rendered() == initial)
  }

  @Test func theDemosStateAtEveryStepIsRebuiltExactly() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("demo.db")
    let recorder = try TraceRecorder(path: path)
    let log = StateLog()
    let store = RecordingStore(initialState: AppFeature.State(), recorder: recorder) {
      Capturing(base: AppFeature(), log: log)
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
      $0.tickClient = .immediate(count: 2)
      $0.stackElementID = .incrementing
    }
    await DemoScript.runApp(finish: store.finish) { store.send($0) }
    await store.finish()
    try await recorder.close()
    try self.expectEveryStateRebuilt(path, log: log, initial: String(customDumping: AppFeature.State()))
  }

  @Test func aLongRandomSessionIsRebuiltExactlyAtEveryStep() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("random.db")
    let recorder = try TraceRecorder(path: path)
    let log = StateLog()
    let store = RecordingStore(initialState: Shuffler.State(), recorder: recorder) {
      Capturing(base: Shuffler(), log: log)
    }
    var seeds = SeededGenerator(seed: 7)
    for _ in 0..<2_500 { store.send(.shuffle(seed: seeds.next())) }
    await store.finish()
    try await recorder.close()
    // More changes than one keyframe's interval: states come from several kept ones.
    let reader = try TraceReader(path: path)
    let kept = try reader.query("SELECT count(*) FROM states").rows
    #expect(kept != [[.integer(1)]])
    try self.expectEveryStateRebuilt(path, log: log, initial: String(customDumping: Shuffler.State()))
  }
}
