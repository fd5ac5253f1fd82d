import Foundation
import TCATrace

/// Waits for a recorded store's effects: TCA's `Store` cannot say when they are done, so this
/// waits until `recorder`'s file has gained no action for 200 ms (the examples' dependencies
/// answer at once), or 10 s have passed.
@MainActor
public func settle(_ recorder: TraceRecorder) async {
  var last = -1
  var quiet = 0
  let deadline = ContinuousClock.now + .seconds(10)
  while quiet < 4, ContinuousClock.now < deadline {
    try? await Task.sleep(for: .milliseconds(50))
    await recorder.flush()
    let count = (try? TraceReader(path: recorder.path, live: true).sessions().last?.actionCount) ?? -1
    quiet = count == last ? quiet + 1 : 0
    last = count
  }
}
