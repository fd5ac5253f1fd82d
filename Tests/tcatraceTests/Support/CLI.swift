import Foundation

/// Runs the built `tcatrace` binary, as a user would.
enum CLI {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The `tcatrace` binary beside this test bundle, in the build's products directory.
  static var executableURL: URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // NB: On Linux the test runner is the bundle itself; on macOS it is `xctest`, and the
    // bundle is in the products directory.
    if !FileManager.default.fileExists(atPath: directory.appendingPathComponent("tcatrace").path) {
      directory = Bundle.main.bundleURL.deletingLastPathComponent()
    }
    return directory.appendingPathComponent("tcatrace")
  }

  /// Runs `tcatrace` with `arguments` and no standard input, with colour off.
  static func run(_ arguments: [String], in directory: URL? = nil) throws -> Result {
    let process = Process()
    process.executableURL = self.executableURL
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // NB: Read both pipes to the end before waiting, so a full pipe cannot block the child.
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self)
    )
  }
}
