import Testing
import TestSupport

/// Records the demo into `seed1.db`, `seed2.db`, … in `directory`, one run for each seed: with
/// another seed, another user logs in, so the runs' first actions differ.
func recordDemoRuns(seeds: [Int], in directory: TemporaryDirectory) async throws {
  for seed in seeds {
    let demo = try await Product.tcatrace.run(
      ["demo", "--out", "seed\(seed).db", "--seed", "\(seed)"], in: directory.url)
    #expect(demo.status == 0, "\(demo.stderr)")
  }
}
