import Composable
import CustomDump
import IdentifiedCollections
@testable import TCATrace
import TCATraceFile
import TestSupport
import Testing

/// Issue #18: a state rebuilt from the one before it and the changes the diff recorded renders
/// as CustomDump renders the state itself, step after step, over nested optionals, identified
/// arrays, enums with payloads, presented children and stacks.
@Suite struct StateRebuildTests {
  fileprivate struct Item: Equatable, Identifiable {
    var id: Int
    var title: String
    var isDone = false
    var note: String?
  }
  fileprivate enum Mode: Equatable {
    case idle
    case editing(Item)
    case moving(from: Int, to: Int)
    case named(String)
  }
  fileprivate struct Child: Equatable {
    var count = 0
    var items: IdentifiedArrayOf<Item> = []
    var text = ""
  }
  fileprivate struct Rich: Equatable {
    var count = 0
    var name = ""
    var child = Child()
    var optionalChild: Child?
    var mode = Mode.idle
    var items: IdentifiedArrayOf<Item> = []
    var plain: [Int] = []
    var plainItems: [Item] = []
    var scores: [String: Int] = [:]
    var tags: Set<String> = []
    var destination = PresentationState<Child>(wrappedValue: nil)
    var stack = StackState<Child>()
    var nested: Outer?
  }
  fileprivate struct Outer: Equatable {
    var inner: Child?
  }


  private static func mutate(_ state: inout Rich, _ random: inout SeededGenerator, nextID: inout Int) {
    let words = ["a", "b\nc", #"q"uote"#, "", "tab\there", "multi\nline\n\"\"\"#"]
    func word() -> String { words.randomElement(using: &random)! }
    func item() -> Item {
      nextID += 1
      return Item(id: nextID, title: word(), isDone: Bool.random(using: &random), note: Bool.random(using: &random) ? word() : nil)
    }
    func mutateItems(_ items: inout IdentifiedArrayOf<Item>) {
      switch Int.random(in: 0..<6, using: &random) {
      case 0: items.append(item())
      case 1: if !items.isEmpty { items.remove(at: Int.random(in: 0..<items.count, using: &random)) }
      case 2: items.insert(item(), at: Int.random(in: 0...items.count, using: &random))
      case 3: if items.count > 1 { items.swapAt(0, items.count - 1) }
      case 4: if let id = items.ids.randomElement(using: &random) { items[id: id]?.title = word(); items[id: id]?.isDone.toggle() }
      default: if let id = items.ids.randomElement(using: &random) { items[id: id]?.note = Bool.random(using: &random) ? nil : word() }
      }
    }
    switch Int.random(in: 0..<18, using: &random) {
    case 0: state.count += 1
    case 1: state.name = word()
    case 2: state.child.count -= 1
    case 3: mutateItems(&state.child.items)
    case 4: state.optionalChild = state.optionalChild == nil ? Child(text: word()) : nil
    case 5: state.optionalChild?.text = word(); state.optionalChild?.count += 2
    case 6:
      state.mode = [Mode.idle, .editing(item()), .moving(from: nextID, to: 3), .named(word())].randomElement(using: &random)!
    case 7: if case var .editing(item) = state.mode { item.title = word(); state.mode = .editing(item) }
    case 8: mutateItems(&state.items)
    case 9:
      if state.plain.isEmpty || Bool.random(using: &random) { state.plain.append(nextID) } else { state.plain.removeLast() }
    case 10:
      if Bool.random(using: &random) { state.plainItems.append(item()) } else if !state.plainItems.isEmpty { state.plainItems.removeFirst() }
    case 11: state.scores[word()] = Int.random(in: 0..<3, using: &random)
    case 12: if let key = state.scores.keys.randomElement(using: &random) { state.scores[key] = nil }
    case 13: if state.tags.insert(word()).inserted == false { state.tags.remove(word()) }
    case 14: state.destination.wrappedValue = state.destination.wrappedValue == nil ? Child(count: 1) : nil
    case 15: state.destination.wrappedValue?.items.append(item())
    case 16:
      if state.stack.isEmpty || Bool.random(using: &random) { state.stack.append(Child(text: word())) } else { state.stack.removeLast() }
    default:
      state.nested = [nil, Outer(inner: nil), Outer(inner: Child(count: 7))].randomElement(using: &random)!
    }
  }

  /// The changes the recorder's diff finds, on the values where they lie.
  private static func recorderChanges<T>(_ old: T, _ new: T) -> [StateChange] {
    withUnsafePointer(to: old) { old in
      withUnsafePointer(to: new) { new in
        StateDiff.changes(from: UnsafeRawPointer(old), to: UnsafeRawPointer(new), kind: NodeKind.of(T.self)).list
      }
    }
  }

  @Test(arguments: [false, true])
  func aRebuiltStateRendersAsTheStateAtEveryStep(inPlace: Bool) throws {
    var random = SeededGenerator(seed: inPlace ? 18 : 81)
    var nextID = 0
    var state = Rich()
    var tree = StateTree.node(of: state)
    for step in 1...2_000 {
      let before = state
      for _ in 0..<Int.random(in: 1...3, using: &random) { Self.mutate(&state, &random, nextID: &nextID) }
      let changes = inPlace ? Self.recorderChanges(before, state) : StateChange.diff(from: before, to: state)
      let previous = tree
      tree = try tree.applying(changes)
      let expected = String(customDumping: state)
      guard tree.rendered() == expected else {
        let nodes = changes.map { "\($0.path): \(String(describing: previous.node(at: $0.path)))" }
        Issue.record("step \(step): \(changes)\nbefore: \(nodes)\n\(diff(tree.rendered(), expected) ?? "")")
        return
      }
    }
  }

  @Test func aChangeThatDoesNotFitIsAnError() throws {
    let tree = StateTree.node(of: Rich())
    #expect(throws: StateRebuildError.self) {
      try tree.applying([StateChange(path: "missing.count", kind: .changed, old: "1", new: "2")])
    }
    #expect(throws: StateRebuildError.self) {
      try tree.applying([StateChange(path: "count.inner", kind: .changed, old: "1", new: "2")])
    }
    #expect(throws: StateRebuildError.self) {
      try tree.applying([StateChange(path: "count[3]", kind: .added, old: nil, new: "2")])
    }
  }
}
