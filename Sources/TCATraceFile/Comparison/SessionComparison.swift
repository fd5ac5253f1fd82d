/// Two sessions' actions aligned by case path, as `tcatrace diff` and `tcatrace serve`'s
/// comparison show them: each aligned pair marked alike or not, and the actions only one has.
package struct SessionComparison {
  package enum Entry: Equatable, Sendable {
    /// An action of each, by offset; alike when they did the same.
    case both(Int, Int, isAlike: Bool)
    case onlyFirst(Int)
    case onlySecond(Int)

    package var isAlike: Bool {
      if case let .both(_, _, isAlike) = self { return isAlike }
      return false
    }
  }

  /// The alignment took longer than it was given.
  package struct TooSlow: Error {}

  package let first: [TracedAction]
  package let second: [TracedAction]
  package let entries: [Entry]

  /// - Parameter timeLimit: Seconds the alignment may take; 0: no limit.
  package init(_ first: [TracedAction], _ second: [TracedAction], timeLimit: Double) throws(TooSlow)
  {
    self.first = first
    self.second = second
    // NB: Each case path as a number, the same in both sessions.
    var numbers: [String: Int] = [:]
    func number(_ action: TracedAction) -> Int {
      if let number = numbers[action.path] { return number }
      numbers[action.path] = numbers.count
      return numbers.count - 1
    }
    let (a, b) = (first.map(number), second.map(number))
    let clock = ContinuousClock()
    let deadline = clock.now + .nanoseconds(Int64(min(timeLimit * 1e9, 1e18)))
    let steps: [Alignment.Step]
    do {
      steps = try Alignment.steps(a, b) { timeLimit > 0 && clock.now > deadline }
    } catch {
      throw TooSlow()
    }
    self.entries = steps.map { step in
      switch step {
      case let .both(i, j): .both(i, j, isAlike: Self.alike(first[i], second[j]))
      case let .onlyFirst(i): .onlyFirst(i)
      case let .onlySecond(j): .onlySecond(j)
      }
    }
  }

  /// The offset in ``entries`` of the first entry that is not alike; nil when the sessions are.
  package var firstDifference: Int? {
    self.entries.firstIndex { !$0.isAlike }
  }

  /// How many entries are alike, aligned but different, and only in one session.
  package var counts: (alike: Int, different: Int, onlyFirst: Int, onlySecond: Int) {
    var counts = (alike: 0, different: 0, onlyFirst: 0, onlySecond: 0)
    for entry in self.entries {
      switch entry {
      case let .both(_, _, isAlike):
        if isAlike { counts.alike += 1 } else { counts.different += 1 }
      case .onlyFirst: counts.onlyFirst += 1
      case .onlySecond: counts.onlySecond += 1
      }
    }
    return counts
  }

  /// Whether two actions of the same case path did the same: the same payload, origin and
  /// state changes. Times are not compared, nor the state changes of an action copied from a
  /// flight journal, which are not known.
  private static func alike(_ a: TracedAction, _ b: TracedAction) -> Bool {
    guard a.payload == b.payload else { return false }
    switch (a.origin, b.origin) {
    case (.send, .send), (.effect, .effect), (.debugger, .debugger): break
    default: return false
    }
    if a.flight != nil || b.flight != nil { return true }
    guard a.changes.count == b.changes.count else { return false }
    return zip(a.changes, b.changes).allSatisfy { Self.key($0) == Self.key($1) }
  }

  /// The changes of each of two aligned actions that the other did not make: what
  /// `tcatrace diff` and the page show of a pair that is not alike.
  package static func changesOnlyOnEachSide(_ a: TracedAction, _ b: TracedAction)
    -> (first: [StateChange], second: [StateChange])
  {
    // NB: What an action copied from a flight journal changed is not known: none is only one's.
    if a.flight != nil || b.flight != nil { return ([], []) }
    let firsts = Set(a.changes.map(Self.key))
    let seconds = Set(b.changes.map(Self.key))
    return (
      a.changes.filter { !seconds.contains(Self.key($0)) },
      b.changes.filter { !firsts.contains(Self.key($0)) }
    )
  }

  /// What makes two changes the same.
  private static func key(_ change: StateChange) -> [String?] {
    [change.path, change.kind.rawValue, change.old, change.new]
  }
}
