#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
import ToolSupport

// NB: `tcatrace demo` runs `tcatrace-demo` (the example app, on `Composable`) and `tcatrace lint`
// and `tcatrace test` run `tcatrace-lint` (swift-syntax's parser): separate programs, so that
// the other commands load neither at start-up. They are not build dependencies of `tcatrace`
// either: an executable's target dependencies are linked into it, and a build tool plugin that
// builds them is prepared in the clean build of every package that depends on this one, even
// one that uses only the `TCATrace` library. So `tcatrace` finds them beside itself, and when
// it runs from a build folder of this package's checkout (`swift run tcatrace demo`), builds
// the one it needs there the first time.

extension TCATraceCommand {
  /// The companion program `name` that `tcatrace COMMAND` runs: the one beside this program;
  /// else, when this program was built in a checkout of this package, the one `swift build`
  /// builds there (now, if it is not built yet); else the first on `PATH`.
  static func companion(_ name: String, runBy command: String) async throws(CLIError) -> String {
    let directory = executableURL?.deletingLastPathComponent()
    if let directory {
      let beside = directory.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: beside) { return beside }
      if let checkout = PackageCheckout(buildFolder: directory, product: name) {
        try await checkout.build(name, runBy: command)
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
      }
    }
    guard let program = onPath(name) else {
      throw CLIError.missingProgram(name, runBy: command, searched: directory)
    }
    return program
  }

  /// The first executable file named `name` in a folder on `PATH`.
  static func onPath(_ name: String) -> String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "")
      .split(separator: ":")
      .map { "\($0)/\(name)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}

/// A checkout of this package that `tcatrace` was built in by SwiftPM: it runs from
/// `PACKAGE/SCRATCH/TRIPLE/CONFIGURATION/tcatrace` (`.build/x86_64-unknown-linux-gnu/debug`
/// after `swift run tcatrace`), and `PACKAGE` has a manifest and the companion's sources.
struct PackageCheckout {
  var package: URL
  var scratch: URL
  var configuration: String

  init?(buildFolder: URL, product: String) {
    let configuration = buildFolder.lastPathComponent
    guard configuration == "debug" || configuration == "release" else { return nil }
    let scratch = buildFolder.deletingLastPathComponent().deletingLastPathComponent()
    let package = scratch.deletingLastPathComponent()
    guard
      FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path),
      (try? FileManager.default.contentsOfDirectory(
        atPath: package.appendingPathComponent("Sources").appendingPathComponent(product).path
      )) != nil
    else { return nil }
    self.package = package
    self.scratch = scratch
    self.configuration = configuration
  }

  /// The `swift build` arguments that build `product` where this program was built.
  func arguments(building product: String) -> [String] {
    [
      "swift", "build", "--package-path", self.package.path, "--scratch-path", self.scratch.path,
      "--configuration", self.configuration, "--product", product,
    ]
  }

  /// Builds `product` with `swift build`, whose output goes to standard error: what `tcatrace
  /// COMMAND` prints on standard output stays its own.
  func build(_ product: String, runBy command: String) async throws(CLIError) {
    let arguments = self.arguments(building: product)
    guard let swift = TCATraceCommand.onPath("swift") else {
      throw CLIError(
        message:
          "tcatrace \(command) runs \(product), which is not built yet, and 'swift' is not on PATH to build it: "
          + "run 'swift build --product \(product)' in \(self.package.path)"
      )
    }
    printError(
      "tcatrace \(command) runs \(product), which is not built yet; building it: \(arguments.joined(separator: " "))"
    )
    let status = try await runProgram(swift, arguments, outputToStandardError: true)
    guard status == 0 else {
      throw CLIError(
        message:
          "could not build \(product), which tcatrace \(command) runs ('swift build' exited with status \(status)); its output is above"
      )
    }
  }
}

/// This program's file, its symbolic links resolved; `nil` when it cannot be known.
private var executableURL: URL? {
  #if os(Linux)
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      .map(URL.init(fileURLWithPath:))
  #else
    Bundle.main.executableURL?.resolvingSymlinksInPath()
  #endif
}

extension CLIError {
  /// `tcatrace COMMAND` runs `name`, which is neither in `directory` (beside `tcatrace`) nor on
  /// `PATH`.
  static func missingProgram(_ name: String, runBy command: String, searched directory: URL?)
    -> Self
  {
    let beside = directory.map { " beside tcatrace (in \($0.path))" } ?? ""
    return CLIError(
      message: "tcatrace \(command) runs \(name), which is neither\(beside) nor on PATH; "
        + "install it beside tcatrace ('swift build -c release' builds both)"
    )
  }
}
