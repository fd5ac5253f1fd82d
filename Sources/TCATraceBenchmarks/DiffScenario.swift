import Foundation
import TCATraceFile

extension Scenarios {
  /// Issue #40: `tcatrace diff`'s alignment of two sessions of `size.diffActions` actions each,
  /// by its case paths numbered: alike, a few hundred edits apart, and with nothing in common;
  /// each against numbering the two sessions' paths, the linear pass before it. And
  /// `difference(from:)`, which aligned them before, at 2,000 actions with nothing in common.
  public static func diffAlignment(_ size: BenchmarkSize) throws -> ScenarioResult {
    let n = size.diffActions
    // NB: A session of a few dozen cases repeated, as an app's is.
    let paths = (0..<n).map { "_internal.feature\($0 % 7)._internal.rows.view.case\($0 % 47)" }
    // NB: One edit in 300 actions, from the end so that the offsets stay put: removals and
    // insertions by turns.
    var edited = paths
    var edits = 0
    for index in stride(from: n - 1, through: 0, by: -300) {
      if edits % 2 == 0 {
        edited.remove(at: index)
      } else {
        edited.insert("_internal.other.view.tapped", at: index)
      }
      edits += 1
    }
    let disjoint = paths.map { "other." + $0 }
    var numbers: [String: Int] = [:]
    func numbered(_ paths: [String]) -> [Int] {
      paths.map { path in
        if let number = numbers[path] { return number }
        numbers[path] = numbers.count
        return numbers.count - 1
      }
    }
    func seconds(_ body: () throws -> Void) rethrows -> [Double] {
      var samples: [Double] = []
      for _ in 0..<size.repetitions {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      }
      return samples
    }
    var figures: [Figure] = []
    var ratios: [Ratio] = []
    let numbering = Figure(
      name: "diff: numbering the case paths of \(n) + \(n) actions", unit: "s",
      samples: seconds {
        numbers = [:]
        _ = numbered(paths) + numbered(disjoint)
      }
    )
    figures.append(numbering)
    for (name, other) in [
      ("alike", paths), ("\(edits) edits", edited), ("nothing in common", disjoint),
    ] {
      let (a, b) = (numbered(paths), numbered(other))
      let figure = Figure(
        name: "diff: aligning \(n) actions with \(other.count), \(name)", unit: "s",
        samples: try seconds { _ = try Alignment.steps(a, b) }
      )
      figures.append(figure)
      ratios.append(
        Ratio(name: "diff, \(name): aligning / numbering", value: figure.median / numbering.median))
    }
    let small = min(n, 2_000)
    let (a, b) = (Array(0..<small), Array(small..<2 * small))
    let standard = Figure(
      name: "diff: difference(from:), \(small) actions with nothing in common", unit: "s",
      samples: seconds { _ = b.difference(from: a) }
    )
    let ours = Figure(
      name: "diff: Alignment, \(small) actions with nothing in common", unit: "s",
      samples: try seconds { _ = try Alignment.steps(a, b) }
    )
    figures += [standard, ours]
    ratios.append(
      Ratio(
        name: "diff, \(small) with nothing in common: difference(from:) / Alignment",
        value: standard.median / ours.median))
    return ScenarioResult(name: "diff alignment", figures: figures, ratios: ratios)
  }
}
