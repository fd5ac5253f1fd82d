import Foundation

/// Processes that keep the machine's cores busy, as a build beside a test run does, until
/// stopped.
final class BusyLoops {
  private let processes: [Process]

  /// Starts `count` loops: by default two per core.
  init(count: Int = 2 * ProcessInfo.processInfo.activeProcessorCount) throws {
    var processes: [Process] = []
    for _ in 0..<count {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", "while :; do :; done"]
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
