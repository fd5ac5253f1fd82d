import Foundation

/// Processes that keep the machine's cores busy, as a build beside a test run does, until
/// stopped, or until this process ends.
final class BusyLoops {
  private let processes: [Process]
  /// Each loop's shell waits for the end of its pipe, then stops its loop: at ``stop(_:_:)``, or
  /// when this process ends, however it ends, and the system closes the pipe's other end.
  private let lifelines: [Pipe]

  /// Starts `count` loops: by default two per core.
  init(count: Int = 2 * ProcessInfo.processInfo.activeProcessorCount) throws {
    var processes: [Process] = []
    var lifelines: [Pipe] = []
    for _ in 0..<count {
      let process = Process()
      let lifeline = Pipe()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", #"while :; do :; done & loop=$!; read -r _; kill -KILL "$loop""#]
      process.standardInput = lifeline
      // NB: Not this process's output, which a loop left behind would hold open.
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      do {
        try process.start()
      } catch {
        Self.stop(processes, lifelines)
        throw error
      }
      processes.append(process)
      lifelines.append(lifeline)
    }
    self.processes = processes
    self.lifelines = lifelines
  }

  deinit {
    Self.stop(self.processes, self.lifelines)
  }

  private static func stop(_ processes: [Process], _ lifelines: [Pipe]) {
    for lifeline in lifelines { try? lifeline.fileHandleForWriting.close() }
    for process in processes { process.waitUntilExit() }
  }
}
