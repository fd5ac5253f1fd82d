import PackagePlugin

/// Has `tcatrace-demo` and `tcatrace-lint` built whenever `tcatrace` is, without linking them or
/// their libraries into `tcatrace`: `swift run tcatrace demo` and `swift run tcatrace lint`
/// work on a fresh clone.
///
/// `tcatrace demo` runs `tcatrace-demo`, the program that records the example app (built on
/// `Composable`), and `tcatrace lint` runs `tcatrace-lint` (swift-syntax's parser). A target
/// dependency would build them too, but SwiftPM links an executable dependency's libraries
/// into the dependent: `tcatrace` would carry `Composable`, swift-dependencies, OpenCombine,
/// FoundationNetworking and swift-syntax, and load libcurl, at every start. A build tool
/// plugin's tools are built for it and not linked; this one asks for no commands.
@main
struct BuildCompanions: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    try ["tcatrace-demo", "tcatrace-lint"].map { name in
      .buildCommand(displayName: "Building \(name)", executable: try context.tool(named: name).url, arguments: ["--version"])
    }
  }
}
