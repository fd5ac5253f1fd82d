import CustomDump
import Foundation
import TestSupport
import Testing

struct CommandTests {
  @Test func versionPrintsTheVersion() throws {
    let result = try Product.tcatrace.run(["--version"])
    #expect(result.status == 0)
    expectNoDifference(result.stdout, "0.1.0\n")
    #expect(result.stderr.isEmpty)
  }

  @Test func helpListsTheCommands() throws {
    let result = try Product.tcatrace.run(["--help"])
    #expect(result.status == 0)
    expectNoDifference(
      result.stdout,
      """
      OVERVIEW: Replay, filter and check action traces of TCA apps with action
      boundaries.

      A trace is a SQLite file written by a TraceRecorder: every action the app
      processed, classified as view, internal or delegate, with the state change it
      caused and the boundary leaks it showed.

      USAGE: tcatrace <subcommand>

      OPTIONS:
        --version               Show the version.
        -h, --help              Show help information.

      SUBCOMMANDS:
        demo                    Run the example app through a scripted session and
                                print what it did.

        See 'tcatrace help <subcommand>' for detailed help.

      """
    )
  }

  @Test func unknownCommandIsAUsageErrorWithExitCode2() throws {
    let result = try Product.tcatrace.run(["frobnicate"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("Error: Unexpected argument 'frobnicate'"))
  }

  @Test func demoRunsBothSessions() throws {
    let result = try Product.tcatrace.run(["demo"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "App session")
    #expect(lines.contains("Leaky session"))
    let actionLines = lines.filter { $0.first == " " }
    #expect(actionLines.count == 25 + 7)
    #expect(
      actionLines.contains(
        #"   9 effect ← 8   login              AppFeature.Action._internal(.login(.delegate(.didLogin(User(id: 1, name: "blob")))))"#
      )
    )
    #expect(
      actionLines.last
        == "   7 send         (root)             LeakyParentFeature.Action._internal(.refreshed)"
    )
  }
}
