import IssueReporting
import OrderedCollections

/// The state of a navigation stack: the features pushed on it, each with a ``StackElementID``.
///
/// ```swift
/// @ObservableState
/// struct State {
///   var path = StackState<Path.State>()
/// }
/// …
/// state.path.append(.detail(DetailFeature.State()))
/// state.path[id: id]?.detail?.title = "Hi"
/// state.path.pop(from: id)
/// ```
///
/// Appending gives the element a new id from `@Dependency(\.stackElementID)`; ids are never
/// reused in a stack.
public struct StackState<Element> {
  /// The ids of the elements, bottom of the stack first.
  public private(set) var ids: OrderedSet<StackElementID>
  private var elements: [StackElementID: Element]

  /// An empty stack.
  public init() {
    self.ids = []
    self.elements = [:]
  }

  /// A stack of `elements`, bottom first, with new ids.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    self.append(contentsOf: elements)
  }

  /// The element with `id`, or `nil` if it is not on the stack; setting `nil` removes it.
  ///
  /// As in TCA, an element is assigned to an id not on the stack only in tests, where it is
  /// pushed (`$0.path[id: 0] = .detail(…)` asserts a push); elsewhere that is an issue and
  /// changes nothing.
  public subscript(id id: StackElementID) -> Element? {
    get { self.elements[id] }
    set {
      guard let newValue else {
        self.ids.remove(id)
        self.elements[id] = nil
        return
      }
      if !self.ids.contains(id) {
        guard isTesting else {
          reportIssue("Can't assign element at missing ID.")
          return
        }
        self.ids.append(id)
      }
      self.elements[id] = newValue
    }
  }

  /// A case of the element with `id`: `state.path[id: id, case: \.detail]`.
  public subscript<Case>(id id: StackElementID, case path: CaseKeyPath<Element, Case>) -> Case?
  where Element: CasePathable {
    get { self[id: id].flatMap { $0[case: path] } }
    set {
      guard let newValue, self[id: id]?[case: path] != nil else { return }
      self[id: id] = path(newValue)
    }
  }

  /// Pops the element with `id` and every element above it.
  public mutating func pop(from id: StackElementID) {
    guard let index = self.ids.firstIndex(of: id) else { return }
    for removed in self.ids[index...] { self.elements[removed] = nil }
    self.ids.removeSubrange(index...)
  }

  /// Pops every element above the one with `id`.
  public mutating func pop(to id: StackElementID) {
    guard let index = self.ids.firstIndex(of: id) else { return }
    self.pop(fromIndex: index + 1)
  }

  private mutating func pop(fromIndex index: Int) {
    guard index < self.ids.count else { return }
    self.pop(from: self.ids[index])
  }

  /// Pushes `element` with `id`; used by ``StackAction/push(id:state:)``.
  mutating func push(_ element: Element, id: StackElementID) -> Bool {
    guard self.ids.append(id).inserted else { return false }
    self.elements[id] = element
    return true
  }
}

extension StackState: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
  public var startIndex: Int { self.ids.startIndex }
  public var endIndex: Int { self.ids.endIndex }

  public subscript(position: Int) -> Element {
    get { self.elements[self.ids[position]]! }
    set { self.elements[self.ids[position]] = newValue }
  }

  public mutating func replaceSubrange(
    _ subrange: Range<Int>, with newElements: some Collection<Element>
  ) {
    @Dependency(\.stackElementID) var stackElementID
    for id in self.ids[subrange] { self.elements[id] = nil }
    var newIDs: [StackElementID] = []
    for element in newElements {
      let id = stackElementID.next()
      newIDs.append(id)
      self.elements[id] = element
    }
    var ids = Array(self.ids)
    ids.replaceSubrange(subrange, with: newIDs)
    self.ids = OrderedSet(ids)
  }
}

extension StackState: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.ids == rhs.ids && lhs.elements == rhs.elements
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.ids)
    for id in self.ids { hasher.combine(self.elements[id]) }
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: Codable where Element: Codable {
  /// Encoded as the elements alone, bottom first; decoding gives them new ids.
  public func encode(to encoder: any Encoder) throws {
    try Array(self).encode(to: encoder)
  }

  public init(from decoder: any Decoder) throws {
    self.init(try [Element](from: decoder))
  }
}

extension StackState: CustomDumpReflectable {
  /// `[#0: …, #1: …]`: each element with its id.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      unlabeledChildren: Array(zip(self.ids, self)),
      displayStyle: .dictionary
    )
  }
}

/// The id of an element of a ``StackState``: it orders the elements as they were pushed.
///
/// In tests, integer literals name the ids a fresh stack hands out: `0`, `1`, `2`.
public struct StackElementID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible, CustomDumpStringConvertible
{
  /// The position of the id in the order ids were handed out.
  public let generation: Int

  public init(integerLiteral value: Int) {
    self.generation = value
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.generation < rhs.generation
  }

  /// `3`: how the id reads in a state or feature path, `path[id: 3]`.
  public var description: String {
    "\(self.generation)"
  }

  /// `#3`, as TCA dumps it.
  public var customDumpDescription: String {
    "#\(self.generation)"
  }
}

/// Hands out the ids of ``StackState`` elements: `@Dependency(\.stackElementID)`.
public struct StackElementIDGenerator: Sendable {
  private let nextGeneration: LockIsolated<Int>

  /// A generator that counts from 0.
  public static var incrementing: Self {
    Self(nextGeneration: LockIsolated(0))
  }

  /// The next id.
  public func next() -> StackElementID {
    self.nextGeneration.withValue { generation in
      defer { generation += 1 }
      return StackElementID(integerLiteral: generation)
    }
  }

  /// Makes sure the ids handed out later come after `id`.
  func skip(past id: StackElementID) {
    self.nextGeneration.withValue { $0 = max($0, id.generation + 1) }
  }
}

private enum StackElementIDGeneratorKey: DependencyKey {
  static var liveValue: StackElementIDGenerator { .incrementing }
  static var testValue: StackElementIDGenerator { .incrementing }
}

extension DependencyValues {
  /// Hands out the ids of ``StackState`` elements.
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGeneratorKey.self] }
    set { self[StackElementIDGeneratorKey.self] = newValue }
  }
}
