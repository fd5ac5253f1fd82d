import ArgumentParser
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
import TCATraceCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension TCATraceCommand {
  /// `tcatrace lint …`: runs `tcatrace-lint`, the program beside `tcatrace` that holds the
  /// linter, with the same arguments.
  ///
  /// The linter is swift-syntax's parser, whose ~5,100 protocol conformances would otherwise
  /// be in `tcatrace` too: the Swift runtime scans every conformance in a binary the first time
  /// it is asked about a type, and argument-parser asks about ~50 types before a command
  /// runs. Out of `tcatrace`, they cost the other commands nothing (Documentation/Performance.md).
  struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "lint",
      abstract: "Check Swift sources for boundary leaks, without running them.",
      discussion: """
        Run by tcatrace-lint, which is built beside tcatrace. 'tcatrace lint --help' lists \
        its options and rules.
        """
    )

    @Argument(
      parsing: .captureForPassthrough,
      help: ArgumentHelp("Swift files or directories, and options: see 'tcatrace lint --help'.", valueName: "argument")
    )
    var arguments: [String] = []

    func run() throws {
      throw Self.forward(self.arguments)
    }

    /// Replaces this process with `tcatrace-lint` and `arguments`: the one beside this
    /// program (as `swift build` names it, or `tcatrace-lint-tool`, as the `BuildCompanions`
    /// plugin has `swift run tcatrace` build it), or else the first on `PATH`. Returns only if
    /// none can be run, with what to do about it.
    static func forward(_ arguments: [String]) -> CLIError {
      let name = "tcatrace-lint"
      let argv = ([name] + arguments).map { strdup($0) } + [nil]
      let (directory, beside) = TCATraceCommand.companionPaths(name)
      for path in beside { execv(path, argv) }
      execvp(name, argv)
      return .missingProgram(name, runBy: "lint", searched: directory)
    }
  }
}

extension TCATraceCommand {
  /// Where a companion program (`tcatrace-demo`, `tcatrace-lint`) lies beside this one: as
  /// `swift build` names it, then as the `BuildCompanions` plugin names it when `swift run
  /// tcatrace` builds it (`NAME-tool`); and the directory, `nil` when it cannot be known.
  static func companionPaths(_ name: String) -> (directory: URL?, paths: [String]) {
    let directory = executableURL?.deletingLastPathComponent()
    let paths = directory.map {
      [$0.appendingPathComponent(name).path, $0.appendingPathComponent("\(name)-tool").path]
    } ?? []
    return (directory, paths)
  }
}

extension TCATraceCommand {
  /// The companion program `name` that `tcatrace COMMAND` runs: the one beside this program,
  /// or else the first on `PATH`.
  static func companion(_ name: String, runBy command: String) throws(CLIError) -> String {
    let (directory, beside) = TCATraceCommand.companionPaths(name)
    let candidates = beside + (ProcessInfo.processInfo.environment["PATH"] ?? "")
      .split(separator: ":").map { "\($0)/\(name)" }
    guard let program = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
      throw CLIError.missingProgram(name, runBy: command, searched: directory)
    }
    return program
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
  static func missingProgram(_ name: String, runBy command: String, searched directory: URL?) -> Self {
    let beside = directory.map { " beside tcatrace (in \($0.path))" } ?? ""
    return CLIError(
      message: "tcatrace \(command) runs \(name), which is neither\(beside) nor on PATH; "
        + "install it beside tcatrace ('swift build -c release' builds both)"
    )
  }
}
