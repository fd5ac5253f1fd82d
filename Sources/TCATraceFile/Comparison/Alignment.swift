/// Two sequences aligned as a text diff aligns lines: what `tcatrace diff` compares two
/// sessions' actions by (each action a number standing for its case path).
///
/// Near-linear where recordings of one flow are alike: the common start and end are matched
/// as they are read; in between, elements that occur once in each side anchor the alignment
/// (patience diff), and the stretches between anchors are aligned by Myers' algorithm with at
/// most ``maxEdits`` edits. A stretch that needs more (two sessions with nothing in common) is
/// counted as removed from the first and inserted in the second: O(n) where Swift's
/// `difference(from:)` is O(n²).
package enum Alignment {
  /// One step of the alignment, by the elements' offsets.
  package enum Step: Equatable, Sendable {
    case both(Int, Int)
    case onlyFirst(Int)
    case onlySecond(Int)
  }

  /// The alignment was stopped before it ended.
  package struct Stopped: Error {}

  /// The most edits Myers' algorithm looks for between two anchors.
  package static let maxEdits = 1_000

  /// The steps that turn `first` into `second`, in order.
  ///
  /// - Parameter shouldStop: Asked now and then; when it says so, the alignment throws
  ///   ``Stopped``.
  package static func steps(
    _ first: [Int], _ second: [Int], shouldStop: () -> Bool = { false }
  ) throws(Stopped) -> [Step] {
    var steps: [Step] = []
    steps.reserveCapacity(max(first.count, second.count))
    // NB: A stack of work, not recursion: a stretch between anchors holds more anchors, to any
    // depth a hostile file likes.
    enum Work {
      case stretch(Range<Int>, Range<Int>)
      case step(Step)
    }
    var work: [Work] = [.stretch(0..<first.count, 0..<second.count)]
    var checks = 0
    while let next = work.popLast() {
      checks += 1
      if checks & 1023 == 0, shouldStop() { throw Stopped() }
      switch next {
      case let .step(step):
        steps.append(step)
      case .stretch(var a, var b):
        while let i = a.first, let j = b.first, first[i] == second[j] {
          steps.append(.both(i, j))
          a = a.dropFirst()
          b = b.dropFirst()
        }
        while let i = a.last, let j = b.last, first[i] == second[j] {
          work.append(.step(.both(i, j)))
          a = a.dropLast()
          b = b.dropLast()
        }
        if a.isEmpty || b.isEmpty {
          steps += a.map(Step.onlyFirst) + b.map(Step.onlySecond)
          continue
        }
        let anchors = Self.anchors(first, a, second, b)
        if anchors.isEmpty {
          steps +=
            try Self.myers(first, a, second, b, shouldStop: shouldStop)
            ?? a.map(Step.onlyFirst) + b.map(Step.onlySecond)
          continue
        }
        // The stretches between anchors, the last pushed first: the first is done first.
        var (aEnd, bEnd) = (a.upperBound, b.upperBound)
        for (i, j) in anchors.reversed() {
          work.append(.stretch(i + 1..<aEnd, j + 1..<bEnd))
          work.append(.step(.both(i, j)))
          (aEnd, bEnd) = (i, j)
        }
        work.append(.stretch(a.lowerBound..<aEnd, b.lowerBound..<bEnd))
      }
    }
    return steps
  }

  /// The pairs of offsets of the elements that occur once in `a` and once in `b`, the longest
  /// run of them in order in both (patience diff).
  private static func anchors(
    _ first: [Int], _ a: Range<Int>, _ second: [Int], _ b: Range<Int>
  ) -> [(Int, Int)] {
    var counts: [Int: (first: Int, second: Int, at: Int)] = [:]
    for i in a { counts[first[i], default: (0, 0, i)].first += 1 }
    for j in b where counts[second[j]] != nil { counts[second[j]]!.second += 1 }
    var pairs: [(Int, Int)] = []
    for j in b {
      guard let count = counts[second[j]], count.first == 1, count.second == 1 else { continue }
      pairs.append((count.at, j))
    }
    guard !pairs.isEmpty else { return [] }
    // The longest increasing run of first offsets, the pairs taken in the second's order:
    // patience sorting, each pile's top the least end of a run of its length.
    var tops: [Int] = []
    var previous = [Int](repeating: -1, count: pairs.count)
    for (index, pair) in pairs.enumerated() {
      var (low, high) = (0, tops.count)
      while low < high {
        let middle = (low + high) / 2
        if pairs[tops[middle]].0 < pair.0 { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tops[low - 1] }
      if low == tops.count { tops.append(index) } else { tops[low] = index }
    }
    var run: [(Int, Int)] = []
    var index = tops.last!
    while index >= 0 {
      run.append(pairs[index])
      index = previous[index]
    }
    return run.reversed()
  }

  /// The shortest edit script from `first[a]` to `second[b]` (Myers, 1986); `nil` when it
  /// takes more than ``maxEdits`` edits.
  private static func myers(
    _ first: [Int], _ a: Range<Int>, _ second: [Int], _ b: Range<Int>, shouldStop: () -> Bool
  ) throws(Stopped) -> [Step]? {
    let (n, m) = (a.count, b.count)
    let limit = min(n + m, Self.maxEdits)
    let offset = limit + 1
    // NB: `frontier[k + offset]`: how far along `first` the furthest path on diagonal k reaches;
    // one copy per edit count, to walk back.
    var frontier = [Int](repeating: 0, count: 2 * limit + 3)
    var trace: [[Int]] = []
    for d in 0...limit {
      if shouldStop() { throw Stopped() }
      trace.append(frontier)
      for k in stride(from: -d, through: d, by: 2) {
        var x: Int
        if k == -d || (k != d && frontier[k - 1 + offset] < frontier[k + 1 + offset]) {
          x = frontier[k + 1 + offset]
        } else {
          x = frontier[k - 1 + offset] + 1
        }
        var y = x - k
        while x < n, y < m, first[a.lowerBound + x] == second[b.lowerBound + y] {
          x += 1
          y += 1
        }
        frontier[k + offset] = x
        if x >= n, y >= m {
          return Self.walkBack(trace, d: d, k: k, n: n, m: m, offset: offset, a: a, b: b)
        }
      }
    }
    return nil
  }

  private static func walkBack(
    _ trace: [[Int]], d: Int, k: Int, n: Int, m: Int, offset: Int, a: Range<Int>, b: Range<Int>
  ) -> [Step] {
    var steps: [Step] = []
    var (x, y, k) = (n, m, k)
    for d in stride(from: d, to: 0, by: -1) {
      let frontier = trace[d]
      let down = k == -d || (k != d && frontier[k - 1 + offset] < frontier[k + 1 + offset])
      let previousK = down ? k + 1 : k - 1
      let previousX = frontier[previousK + offset]
      let previousY = previousX - previousK
      while x > previousX, y > previousY {
        x -= 1
        y -= 1
        steps.append(.both(a.lowerBound + x, b.lowerBound + y))
      }
      if down {
        y -= 1
        steps.append(.onlySecond(b.lowerBound + y))
      } else {
        x -= 1
        steps.append(.onlyFirst(a.lowerBound + x))
      }
      k = previousK
    }
    while x > 0, y > 0 {
      x -= 1
      y -= 1
      steps.append(.both(a.lowerBound + x, b.lowerBound + y))
    }
    return steps.reversed()
  }
}
