import Foundation
import PackagePlugin

/// Runs `tcatrace-lint` on a target's Swift files in every build that changes them: Xcode and
/// `swift build` show each finding on its line, as a warning or an error (which fails the
/// build), as the nearest `.tcatrace-lint.yml` says.
///
/// An app adds it to a target's `plugins:`; see Documentation/CLI.md ("Lint in Xcode and CI").
@main
struct TCATraceLintBuildToolPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    return try Self.commands(
      files: target.sourceFiles(withSuffix: "swift").map(\.url),
      near: target.directoryURL,
      name: target.name,
      tool: context.tool(named: "tcatrace-lint").url
    )
  }

  /// One command that lints `files` with the configuration nearest to `directory`, in
  /// Xcode's format. Files are named one by one, so `--force-exclude` applies `excluded`.
  static func commands(files: [URL], near directory: URL, name: String, tool: URL) -> [Command] {
    guard !files.isEmpty else { return [] }
    let configuration = Self.configuration(near: directory)
    return [
      .buildCommand(
        displayName: "Checking \(name)'s action boundaries",
        executable: tool,
        arguments: ["--format", "xcode", "--force-exclude"]
          + (configuration.map { ["--config", $0.path] } ?? ["--no-config"])
          + files.map(\.path),
        inputFiles: files + (configuration.map { [$0] } ?? [])
      )
    ]
  }

  /// The nearest `.tcatrace-lint.yml` at or above `directory`.
  static func configuration(near directory: URL) -> URL? {
    var folder = directory.standardizedFileURL
    while true {
      let candidate = folder.appendingPathComponent(".tcatrace-lint.yml")
      if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
      let parent = folder.deletingLastPathComponent()
      if parent.path == folder.path { return nil }
      folder = parent
    }
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension TCATraceLintBuildToolPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws
      -> [Command]
    {
      try Self.commands(
        files: target.inputFiles
          .filter { $0.type == .source && $0.url.pathExtension == "swift" }
          .map(\.url),
        near: context.xcodeProject.directoryURL,
        name: target.displayName,
        tool: context.tool(named: "tcatrace-lint").url
      )
    }
  }
#endif
