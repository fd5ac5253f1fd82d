import CustomDump
import Foundation
import TestSupport
import Testing

@Suite(.hangGuard)
struct CommandTests {
  @Test func versionPrintsTheVersion() async throws {
    let result = try await Product.tcatrace.run(["--version"])
    #expect(result.status == 0)
    expectNoDifference(result.stdout, "0.1.0\n")
    #expect(result.stderr.isEmpty)
  }

  #if os(Linux)
    /// `tcatrace` loads Foundation's essentials and not the rest: Foundation's
    /// internationalization holds a third of the protocol conformances Swift's runtime scans
    /// while argument-parser parses, and a `state` run took 0.8 ms less without it (see
    /// Documentation/Performance.md).
    @Test func loadsFoundationsEssentialsOnly() async throws {
      let ldd = Process()
      ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
      ldd.arguments = [Product.tcatrace.executableURL.path]
      ldd.standardInput = FileHandle.nullDevice
      let result = try await ldd.runToEnd(timeLimit: 60)
      let libraries = result.stdout
      #expect(result.status == 0)
      #expect(libraries.contains("libsqlite3"))
      let foundations = libraries.split(separator: "\n").compactMap { line in
        line.split(whereSeparator: \.isWhitespace)
          .first { $0.hasPrefix("libFoundation") || $0.hasPrefix("lib_FoundationICU") }
      }
      // NB: A release build has Foundation inside the binary (`Package.swift`), and none here.
      #expect(foundations.allSatisfy { $0.hasPrefix("libFoundationEssentials.") })
    }
  #endif

  @Test func helpListsTheCommands() async throws {
    let result = try await Product.tcatrace.run(["--help"])
    #expect(result.status == 0)
    expectNoDifference(
      result.stdout,
      """
      OVERVIEW: Replay, filter and check action traces of TCA apps with action
      boundaries.

      A trace is a SQLite file written by a TraceRecorder: every action the app
      processed, classified as view, internal or delegate, with the state change it
      caused and the boundary leaks it showed. Files are opened read-only and never
      changed.

      Exit codes: 0 success, 1 findings (leaks, lint), 2 usage or bad input.

      USAGE: tcatrace <subcommand>

      OPTIONS:
        --version               Show the version.
        -h, --help              Show help information.

      SUBCOMMANDS:
        demo                    Record the example app's scripted session to a trace,
                                then replay it.
        sessions                List the sessions in a trace: id, name, start,
                                duration, actions, leaks.
        replay                  Print the actions of a trace with their state changes
                                and leaks.
        state                   Print the whole state of a session after an action,
                                as CustomDump printed it.
        debug                   Step through a session in the terminal: back and
                                forth, to any action, with the state at each step.
        diff                    Compare two recordings of the same flow: the first
                                action or state change where they differ, then a
                                summary.
        test                    Print a Swift Testing test that replays a session
                                through a TestStore, asserting every state change.
        leaks                   Report the boundary leaks in a trace, grouped by rule
                                and feature.
        stats                   Summarize a trace per feature and category.
        sql                     Run a read-only SQL query on a trace.
        export                  Write sessions as a timeline or a new trace.
        merge                   Copy the sessions of several traces into a new one.
        serve                   See traces in a browser: the action log, the state
                                after each action, the leaks.
        lint                    Check Swift sources for boundary leaks, without
                                running them.

        See 'tcatrace help <subcommand>' for detailed help.

      """
    )
  }

  @Test func helpShowsEachOptionsDefault() async throws {
    let result = try await Product.tcatrace.run(["leaks", "--help"])
    #expect(result.status == 0)
    #expect(
      result.stdout.contains(
        "USAGE: tcatrace leaks <file> [--time-limit <seconds>] [--memory-limit <MB>] [--session <id|latest|all>] [--format <format>]\n"
      ))
    #expect(
      result.stdout.contains(
        "The session to read: its id, 'latest', or 'all'.\n                          (default: all)\n"
      ))
    #expect(
      result.stdout.contains(
        "(values: text,\n                          json, jsonl; default: text)\n"))
  }

  @Test func usageErrorsExitWith2() async throws {
    let unknown = try await Product.tcatrace.run(["frobnicate"])
    #expect(unknown.status == 2)
    #expect(unknown.stdout.isEmpty)
    #expect(unknown.stderr.hasPrefix("Error: Unexpected argument 'frobnicate'"))

    let missingFile = try await Product.tcatrace.run(["replay"])
    #expect(missingFile.status == 2)
    #expect(missingFile.stderr.hasPrefix("Error: Missing expected argument '<file>'"))
  }
}
