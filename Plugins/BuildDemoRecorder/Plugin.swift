import PackagePlugin

/// Has `tcatrace-demo` built whenever `tcatrace` is, without linking it or its libraries into
/// `tcatrace`.
///
/// `tcatrace demo` runs `tcatrace-demo`, the program that records the example app (built on
/// `Composable`). A target dependency would build it too, but SwiftPM links an executable
/// dependency's libraries into the dependent: `tcatrace` would carry `Composable`,
/// swift-dependencies, OpenCombine and FoundationNetworking, and load libcurl, at every start.
/// A build tool plugin's tools are built for it and not linked; this one asks for no commands.
@main
struct BuildDemoRecorder: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    let recorder = try context.tool(named: "tcatrace-demo")
    return [
      .buildCommand(displayName: "Building tcatrace-demo", executable: recorder.url, arguments: ["--version"])
    ]
  }
}
