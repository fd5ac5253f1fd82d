import Foundation

/// The benchmark's results as a table and as JSON.
public enum BenchReport {
  public static func text(_ results: [ScenarioResult]) -> String {
    var lines: [String] = []
    for result in results {
      lines.append("## \(result.name)")
      for figure in result.figures {
        lines.append(
          "  \(figure.name.paddedOrWhole(to: 52))"
            + " \(Self.number(figure.median).leftPadded(12)) \(figure.unit)"
            + String(format: "  ±%.0f%%", figure.spread * 50)
        )
      }
      for ratio in result.ratios {
        let verdict: String =
          switch (ratio.target, ratio.meetsTarget) {
          case let (.atMost(bound)?, ok?): "target ≤ \(bound): \(ok ? "met" : "MISSED")"
          case let (.atLeast(bound)?, ok?): "target ≥ \(bound): \(ok ? "met" : "MISSED")"
          default: ""
          }
        lines.append(
          "  ratio \(ratio.name.paddedOrWhole(to: 46)) \(String(format: "%10.3f", ratio.value))  \(verdict)"
        )
      }
      lines.append("")
    }
    return lines.joined(separator: "\n")
  }

  public static func json(_ results: [ScenarioResult]) -> String {
    func quote(_ string: String) -> String {
      "\""
        + string.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
          of: "\"", with: "\\\"") + "\""
    }
    let scenarios = results.map { result in
      let figures = result.figures.map {
        "{\"name\":\(quote($0.name)),\"median\":\($0.median),\"min\":\($0.min),\"max\":\($0.max),\"unit\":\(quote($0.unit)),\"repetitions\":\($0.repetitions)}"
      }
      let ratios = result.ratios.map { ratio -> String in
        let target: String =
          switch ratio.target {
          case let .atMost(bound)?: "{\"at_most\":\(bound)}"
          case let .atLeast(bound)?: "{\"at_least\":\(bound)}"
          case nil: "null"
          }
        let meets = ratio.meetsTarget.map { $0 ? "true" : "false" } ?? "null"
        return
          "{\"name\":\(quote(ratio.name)),\"value\":\(ratio.value),\"target\":\(target),\"meets_target\":\(meets)}"
      }
      return
        "{\"scenario\":\(quote(result.name)),\"figures\":[\(figures.joined(separator: ","))],\"ratios\":[\(ratios.joined(separator: ","))]}"
    }
    return "[" + scenarios.joined(separator: ",") + "]\n"
  }

  static func number(_ value: Double) -> String {
    value >= 100 || value == value.rounded()
      ? String(format: "%.0f", value) : String(format: "%.2f", value)
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    String(repeating: " ", count: max(0, width - self.count)) + self
  }
}

extension String {
  /// The string padded with spaces to `length` characters; whole when it is longer, where
  /// `padding(toLength:)` cut the names that told two ratios apart.
  fileprivate func paddedOrWhole(to length: Int) -> String {
    self.count >= length ? self : self.padding(toLength: length, withPad: " ", startingAt: 0)
  }
}
