import Foundation
import TCATrace

extension InstructionCount {
  /// What an action costs, in instructions, as figures and ratios with `Composable`'s targets;
  /// see ``measure(executable:patterns:)``.
  public static func scenario(executable: String) throws -> ScenarioResult? {
    guard let counts = try Self.measure(executable: executable) else { return nil }
    var figures: [Figure] = []
    var ratios: [Ratio] = []
    for counted in counts {
      let title = counted.pattern.title
      func figure(_ name: String, _ value: Double) -> Figure {
        Figure(name: "\(title), \(name)", unit: "instructions/action", samples: [value])
      }
      figures += [
        figure("Store.send: the store's thread", counted.plain),
        figure("recording: the store's thread", counted.recorded),
        figure("recording: the writer's thread", counted.writer),
      ]
      ratios += [
        Ratio(
          name: "\(title), the store's thread: recording / Store.send",
          value: counted.recorded / counted.plain,
          target: .atMost(counted.pattern.target.composable)),
        Ratio(
          name: "\(title): the writer's thread / the store's thread, recording",
          value: counted.writer / counted.recorded),
      ]
    }
    return ScenarioResult(name: "instructions (callgrind)", figures: figures, ratios: ratios)
  }
}
