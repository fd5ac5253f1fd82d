import Foundation

/// Processes that keep the machine's cores busy, as a build beside a test run does, until
/// stopped, or until this process ends.
final class BusyLoops {
  private let processes: [Process]

  /// Starts `count` loops: by default two per core.
  init(count: Int = 2 * ProcessInfo.processInfo.activeProcessorCount) throws {
    var processes: [Process] = []
    for _ in 0..<count {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      // NB: Each loop lasts while this process does: a test run that ends without stopping
      // them (interrupted, or killed by a closed pipe) leaves no core busy behind it.
      process.arguments = ["-c", "while kill -0 \(getpid()) 2>/dev/null; do :; done"]
      do {
        try process.run()
      } catch {
        Self.stop(processes)
        throw error
      }
      processes.append(process)
    }
    self.processes = processes
  }

  deinit {
    Self.stop(self.processes)
  }

  private static func stop(_ processes: [Process]) {
    for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
    for process in processes { process.waitUntilExit() }
  }
}
