import TCATraceFile
import TestSupport
import Testing

/// Issue #40: `tcatrace diff`'s alignment, near-linear where `difference(from:)` was O(n²).
@Suite(.hangGuard)
struct AlignmentTests {
  /// What the steps say: each element of both sides once, in order, matched only to its equal.
  static func check(_ steps: [Alignment.Step], _ a: [Int], _ b: [Int]) -> (
    matched: Int, valid: Bool
  ) {
    var (i, j, matched) = (0, 0, 0)
    for step in steps {
      switch step {
      case let .both(x, y):
        guard x == i, y == j, a[x] == b[y] else { return (matched, false) }
        (i, j, matched) = (i + 1, j + 1, matched + 1)
      case let .onlyFirst(x):
        guard x == i else { return (matched, false) }
        i += 1
      case let .onlySecond(y):
        guard y == j else { return (matched, false) }
        j += 1
      }
    }
    return (matched, i == a.count && j == b.count)
  }

  @Test func smallSequencesAlignAsAShortestEditScript() throws {
    let a = [1, 2, 3, 4, 5, 6]
    let b = [1, 3, 4, 7, 5, 6]
    expectSteps(
      try Alignment.steps(a, b),
      [
        .both(0, 0), .onlyFirst(1), .both(2, 1), .both(3, 2), .onlySecond(3), .both(4, 4),
        .both(5, 5),
      ])
    expectSteps(try Alignment.steps([], [1, 2]), [.onlySecond(0), .onlySecond(1)])
    expectSteps(try Alignment.steps([1, 2], []), [.onlyFirst(0), .onlyFirst(1)])
    expectSteps(try Alignment.steps([], []), [])
  }

  /// Against the longest common subsequence `difference(from:)` finds, on random sessions of a
  /// few repeated actions: every alignment is valid, and on these it matches as many. (An
  /// anchor can cost a match in general, as in any patience diff.)
  @Test func randomSequencesMatchAsManyAsTheStandardLibrary() throws {
    var random = SeededGenerator(seed: 40)
    for _ in 0..<200 {
      let a = (0..<Int.random(in: 0...60, using: &random)).map { _ in
        Int.random(in: 0..<5, using: &random)
      }
      let b = (0..<Int.random(in: 0...60, using: &random)).map { _ in
        Int.random(in: 0..<5, using: &random)
      }
      let result = Self.check(try Alignment.steps(a, b), a, b)
      #expect(result.valid, "\(a) \(b)")
      let standard = a.count - b.difference(from: a).removals.count
      #expect(result.matched == standard, "\(a) \(b)")
    }
  }

  /// 100,000 actions with nothing in common, and 100,000 with a few hundred edits, align in
  /// time proportional to their length: each within the test's time limit, where
  /// `difference(from:)` took minutes.
  @Test(.hangGuard) func longSessionsAlign() throws {
    let n = 100_000
    let a = Array(0..<n)
    let disjoint = Array(n..<2 * n)
    var result = Self.check(try Alignment.steps(a, disjoint), a, disjoint)
    #expect(result.valid && result.matched == 0)

    var random = SeededGenerator(seed: 7)
    var edited = a.map { $0 % 50 }
    let base = edited
    for _ in 0..<300 {
      let index = Int.random(in: 0..<edited.count, using: &random)
      if Bool.random(using: &random) {
        edited.remove(at: index)
      } else {
        edited.insert(99, at: index)
      }
    }
    result = Self.check(try Alignment.steps(base, edited), base, edited)
    #expect(result.valid)
    #expect(result.matched >= base.count - 300)
  }

  @Test func itStopsWhenAsked() {
    let a = Array(0..<50_000).map { $0 % 3 }
    let b = Array(0..<50_000).map { $0 % 7 + 3 }
    var asked = 0
    #expect(throws: Alignment.Stopped.self) {
      try Alignment.steps(a, b) {
        asked += 1
        return asked > 2
      }
    }
  }

  private func expectSteps(
    _ steps: [Alignment.Step], _ expected: [Alignment.Step],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(steps == expected, sourceLocation: sourceLocation)
  }

  /// Issue #73: an action copied from a flight journal has no known state changes: compared with
  /// the same action written with its changes, it is alike when its payload and origin are, and
  /// no change is shown as only one side's.
  @Test func aCopiedActionIsComparedByItsPayloadAndOrigin() throws {
    func action(_ payload: String, changes: [StateChange], flight: TracedAction.Flight?)
      -> TracedAction
    {
      TracedAction(
        id: 1, sessionID: 1, seq: 1, timeNs: 0, durationNs: 0, origin: .send, path: "view.tapped",
        rootCategory: .view, feature: "", category: .view, caseName: "tapped", statePath: "",
        payload: payload, payloadJSON: nil, changes: changes, leaks: [], flight: flight)
    }
    let change = StateChange(path: "count", kind: .changed, old: "0", new: "1")
    let written = action("1", changes: [change], flight: nil)
    let copied = action("1", changes: [], flight: .endedProcess)
    let alike = try SessionComparison([written], [copied], timeLimit: 0)
    #expect(alike.entries == [.both(0, 0, isAlike: true)])
    #expect(SessionComparison.changesOnlyOnEachSide(written, copied).first.isEmpty)
    let other = try SessionComparison(
      [written], [action("2", changes: [], flight: .returned)], timeLimit: 0)
    #expect(other.entries == [.both(0, 0, isAlike: false)])
    // Two written actions whose changes differ are not alike.
    let changed = try SessionComparison(
      [written], [action("1", changes: [], flight: nil)], timeLimit: 0)
    #expect(changed.entries == [.both(0, 0, isAlike: false)])
  }
}
