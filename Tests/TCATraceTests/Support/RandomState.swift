import Composable
import IdentifiedCollections
import TestSupport

/// A state of every shape the state trees must rebuild — nested optionals, identified arrays,
/// enums with payloads, presented children, stacks, dictionaries, sets, strings of several
/// lines — and random changes to it; `Codable`, for its JSON; collections stay small, so that a long random walk
/// costs each step about the same.
struct RandomState: Codable, Equatable {
  struct Item: Codable, Equatable, Identifiable {
    var id: Int
    var title: String
    var isDone = false
    var note: String?
  }
  enum Mode: Codable, Equatable {
    case idle
    case editing(Item)
    case moving(from: Int, to: Int)
    case named(String)
  }
  struct Child: Codable, Equatable {
    var count = 0
    var items: IdentifiedArrayOf<Item> = []
    var text = ""
  }
  struct Outer: Codable, Equatable {
    var inner: Child?
  }

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
  var nextID = 0

  /// Changes one part of the state at random.
  mutating func mutate(_ random: inout SeededGenerator) {
    let words = ["a", "b\nc", #"q"uote"#, "", "tab\there", "multi\nline\n\"\"\"#"]
    func word() -> String { words.randomElement(using: &random)! }
    func item() -> Item {
      self.nextID += 1
      return Item(
        id: self.nextID, title: word(), isDone: Bool.random(using: &random),
        note: Bool.random(using: &random) ? word() : nil)
    }
    func mutateItems(_ items: inout IdentifiedArrayOf<Item>) {
      switch Int.random(in: 0..<6, using: &random) {
      case 0 where items.count < 6: items.append(item())
      case 0, 1:
        if !items.isEmpty { items.remove(at: Int.random(in: 0..<items.count, using: &random)) }
      case 2 where items.count < 6:
        items.insert(item(), at: Int.random(in: 0...items.count, using: &random))
      case 2, 3: if items.count > 1 { items.swapAt(0, items.count - 1) }
      case 4:
        if let id = items.ids.randomElement(using: &random) {
          items[id: id]?.title = word(); items[id: id]?.isDone.toggle()
        }
      default:
        if let id = items.ids.randomElement(using: &random) {
          items[id: id]?.note = Bool.random(using: &random) ? nil : word()
        }
      }
    }
    switch Int.random(in: 0..<18, using: &random) {
    case 0: self.count += 1
    case 1: self.name = word()
    case 2: self.child.count -= 1
    case 3: mutateItems(&self.child.items)
    case 4: self.optionalChild = self.optionalChild == nil ? Child(text: word()) : nil
    case 5:
      self.optionalChild?.text = word()
      if var items = self.optionalChild?.items {
        mutateItems(&items)
        self.optionalChild?.items = items
      }
    case 6:
      self.mode = [Mode.idle, .editing(item()), .moving(from: self.nextID, to: 3), .named(word())]
        .randomElement(using: &random)!
    case 7:
      if case var .editing(item) = self.mode { item.title = word(); self.mode = .editing(item) }
    case 8: mutateItems(&self.items)
    case 9:
      if self.plain.count < 5 && Bool.random(using: &random) {
        self.plain.append(self.nextID)
      } else if !self.plain.isEmpty {
        self.plain.removeLast()
      }
    case 10:
      if self.plainItems.count < 4 && Bool.random(using: &random) {
        self.plainItems.append(item())
      } else if !self.plainItems.isEmpty {
        self.plainItems.removeFirst()
      }
    case 11: self.scores[word()] = Int.random(in: 0..<3, using: &random)
    case 12: if let key = self.scores.keys.randomElement(using: &random) { self.scores[key] = nil }
    case 13: if self.tags.insert(word()).inserted == false { self.tags.remove(word()) }
    case 14:
      self.destination.wrappedValue = self.destination.wrappedValue == nil ? Child(count: 1) : nil
    case 15:
      if var items = self.destination.wrappedValue?.items {
        mutateItems(&items)
        self.destination.wrappedValue?.items = items
      }
    case 16:
      if self.stack.count < 4 && (self.stack.isEmpty || Bool.random(using: &random)) {
        self.stack.append(Child(text: word()))
      } else if !self.stack.isEmpty {
        self.stack.removeLast()
      }
    default:
      self.nested = [nil, Outer(inner: nil), Outer(inner: Child(count: 7))].randomElement(
        using: &random)!
    }
  }

  /// Changes a value the state has already, at random: nothing is added, so that every
  /// change's path is in the states kept before it.
  mutating func edit(_ random: inout SeededGenerator) {
    let words = ["a", "b\nc", #"q"uote"#, "", "tab\there", "multi\nline\n\"\"\"#"]
    func word() -> String { words.randomElement(using: &random)! }
    func editItems(_ items: inout IdentifiedArrayOf<Item>) {
      guard let id = items.ids.randomElement(using: &random) else { return }
      switch Int.random(in: 0..<4, using: &random) {
      case 0: items[id: id]?.title = word()
      case 1: items[id: id]?.isDone.toggle()
      case 2: if items[id: id]?.note != nil { items[id: id]?.note = word() }
      default: if items.count > 2 { items.remove(id: id) }
      }
    }
    switch Int.random(in: 0..<9, using: &random) {
    case 0: self.count += 1
    case 1: self.name = word()
    case 2: self.child.count -= 1
    case 3: editItems(&self.child.items)
    case 4:
      self.optionalChild?.text = word()
      if var items = self.optionalChild?.items {
        editItems(&items)
        self.optionalChild?.items = items
      }
    case 5: editItems(&self.items)
    case 6:
      if let key = self.scores.keys.randomElement(using: &random) {
        self.scores[key] = Int.random(in: 0..<3, using: &random)
      }
    case 7:
      if !self.plainItems.isEmpty {
        self.plainItems[Int.random(in: 0..<self.plainItems.count, using: &random)].title = word()
      }
    default: if !self.stack.isEmpty { self.stack[id: self.stack.ids.last!]?.count += 1 }
    }
  }
}
