import Foundation
import PackagePlugin

/// `swift package lint-boundaries [--target NAME …] [tcatrace-lint options]`: runs
/// `tcatrace-lint` in the package's folder, on the named targets' folders (by default, what the
/// nearest `.tcatrace-lint.yml` includes, or the whole package).
@main
struct TCATraceLintCommandPlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let targets = try context.package.targets(named: extractor.extractOption(named: "target"))
    let process = Process()
    process.executableURL = try context.tool(named: "tcatrace-lint").url
    process.arguments = extractor.remainingArguments + targets.map(\.directoryURL.path)
    process.currentDirectoryURL = context.package.directoryURL
    try process.run()
    process.waitUntilExit()
    switch process.terminationStatus {
    case 0: return
    case 1: throw LintFailure(message: "tcatrace-lint found boundary errors")
    default: throw LintFailure(message: "tcatrace-lint could not lint (see its message above)")
    }
  }
}

struct LintFailure: Error, CustomStringConvertible {
  var message: String
  var description: String { self.message }
}
