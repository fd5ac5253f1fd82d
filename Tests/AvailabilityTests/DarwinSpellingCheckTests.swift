import CustomDump
import Foundation
import SwiftParser
import SwiftSyntax
import Testing
import TestSupport

/// Issue #69: what a Mac's compiler would reject in the package's own code, found here by
/// reading it as Darwin chooses its `#if` branches (see ``DarwinSpellingCheck``), and the
/// platform conditionals, listed so that a new one is a change to this list.
@Suite(.hangGuard)
struct DarwinSpellingCheckTests {
  /// The checkout read: this one, or the one `DARWIN_CHECK_ROOT` names (to run the check on
  /// another version of the package: `git worktree add /tmp/old COMMIT`).
  static let root =
    ProcessInfo.processInfo.environment["DARWIN_CHECK_ROOT"].map(URL.init(fileURLWithPath:))
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The Swift files a Mac user's `swift build` and `swift test` compile: every target's, the
  /// CLI's, the plugins' and the tests'. Not `Tests/RealTCA` and `Tests/TCAExamples`, packages
  /// of their own that the RealTCA check builds on Linux.
  static func compiledFiles() throws -> [(path: String, tree: SourceFileSyntax)] {
    try Self.parsed.get()
  }

  /// The files, each parsed once for every test here: parsing them is most of the tests' time.
  private static let parsed = Result { () throws -> [(path: String, tree: SourceFileSyntax)] in
    var files: [(String, SourceFileSyntax)] = []
    let skipped: Set = ["Tests/RealTCA", "Tests/TCAExamples"]
    var relativePaths: [String] = []
    for folder in ["Sources", "Plugins", "Tests"] {
      var found: [String] = []
      defer { relativePaths += found.sorted() }
      let base = Self.root.appendingPathComponent(folder)
      guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { continue }
      while let path = enumerator.nextObject() as? String {
        let relative = "\(folder)/\(path)"
        let name = relative.split(separator: "/").last ?? ""
        // NB: Not into the packages of their own, nor build folders (`.build`) or fixtures.
        if skipped.contains(relative) || name.hasPrefix(".") || name == "Expected" {
          enumerator.skipDescendants()
          continue
        }
        if relative.hasSuffix(".swift") { found.append(relative) }
      }
    }
    for relative in relativePaths {
      let source = try String(
        contentsOf: Self.root.appendingPathComponent(relative), encoding: .utf8)
      files.append((relative, Parser.parse(source: source)))
    }
    return files
  }

  @Test func thePackageHasNoSpellingDarwinRejects() throws {
    let files = try Self.compiledFiles()
    #expect(files.count > 300, "read \(files.count) files: is the checkout whole?")
    let findings = files.flatMap { DarwinSpellingCheck.findings(in: $0.tree, file: $0.path) }
    expectNoDifference(findings.map(\.description), [])
  }

  /// Every `#if` that names a platform, a C library or an Apple framework, by file. A branch
  /// for one platform is code no build here compiles for the other: add one only where no
  /// spelling serves both, and add it here, with the Darwin declarations it was written
  /// against in a comment beside it in the source.
  @Test func thePlatformConditionalsAreTheListedOnes() throws {
    var found: [String] = []
    for file in try Self.compiledFiles() {
      for conditional in DarwinSpellingCheck.platformConditionals(in: file.tree) {
        found.append("\(file.path): \(conditional)")
      }
    }
    expectNoDifference(found, Self.platformConditionals)
  }

  // MARK: The classes of error, each as it was in the code before issue #69's fixes

  @Test func aCallThroughGlibcsModuleIsFound() {
    let source = """
      #if canImport(Glibc)
        import Glibc
      #elseif canImport(Darwin)
        import Darwin
      #endif

      final class RawTerminal {
        init() {
          for signal in [SIGTERM, SIGHUP, SIGQUIT] {
            Glibc.signal(signal) { signal in _exit(128 + signal) }
          }
        }
        private static func write(_ bytes: UnsafeRawBufferPointer) {
          let written = Glibc.write(STDOUT_FILENO, bytes.baseAddress!, bytes.count)
        }
      }
      """
    expectNoDifference(
      DarwinSpellingCheck.findings(in: source, file: "RawTerminal.swift").map(\.description),
      [
        "RawTerminal.swift:10: Glibc.signal: no module Glibc on Darwin",
        "RawTerminal.swift:14: Glibc.write: no module Glibc on Darwin",
      ]
    )
  }

  @Test func glibcsSigactionFieldIsFound() {
    let source = """
      var resize = sigaction()
      resize.__sigaction_handler.sa_handler = { _ in }
      sigaction(SIGWINCH, &resize, nil)
      """
    expectNoDifference(
      DarwinSpellingCheck.findings(in: source, file: "RawTerminal.swift").map(\.description),
      [
        "RawTerminal.swift:2: __sigaction_handler: glibc's field; Darwin's struct sigaction has the union __sigaction_u (<sys/signal.h>)"
      ]
    )
  }

  @Test func aSpawnTypeMadeAsAStructIsFound() {
    let source = """
      func spawnAndWait(_ path: String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        var attributes = posix_spawnattr_t()
        var thread = pthread_t()
        var mutex = pthread_mutex_t()
      }
      """
    expectNoDifference(
      DarwinSpellingCheck.findings(in: source, file: "Demo.swift").map(\.description),
      [
        "Demo.swift:2: posix_spawn_file_actions_t(): typedef void * in Darwin's <spawn.h>: it has no init() there",
        "Demo.swift:4: posix_spawnattr_t(): typedef void * in Darwin's <spawn.h>: it has no init() there",
        "Demo.swift:5: pthread_t(): a pointer to struct _opaque_pthread_t in Darwin's <sys/_pthread/_pthread_t.h>: it has no init() there",
      ]
    )
  }

  @Test func aGlibcOnlyNameIsFoundAsTheBaseOfAMemberAccess() {
    let source = """
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      let flags = O_RDONLY | O_PATH
      """
    expectNoDifference(
      DarwinSpellingCheck.findings(in: source, file: "A.swift").map(\.description),
      [
        "A.swift:1: SOCK_CLOEXEC: Linux's socket type flag; Darwin sets FD_CLOEXEC with fcntl",
        "A.swift:2: O_PATH: Linux's open flag; not in Darwin's <sys/fcntl.h>",
      ]
    )
  }

  @Test func linuxOnlyCodeInALinuxBranchIsNotAFinding() {
    let source = """
      #if os(Linux)
        let comm = Glibc.open("/dev/null", O_WRONLY)
        var status = stat(); _ = status.st_mtim
      #elseif canImport(Musl)
        _ = Musl.write(1, nil, 0)
      #elseif canImport(UIKit) && !canImport(Darwin)
        _ = Glibc.write(1, nil, 0)
      #else
        _ = Bundle.main.executableURL
      #endif
      #if !canImport(Darwin)
        _ = Glibc.write(1, nil, 0)
      #endif
      """
    expectNoDifference(DarwinSpellingCheck.findings(in: source, file: "A.swift"), [])
  }

  @Test func codeThatMayBeCompiledOnDarwinIsRead() {
    let source = """
      #if canImport(FoundationEssentials)
        _ = Glibc.write(1, nil, 0)
      #else
        _ = Musl.write(1, nil, 0)
      #endif
      #if canImport(AppKit)
        _ = Glibc.write(1, nil, 0)
      #elseif os(Linux) || os(iOS)
        var stat = stat(); _ = stat.st_mtim
      #endif
      #if arch(arm64) && !os(Linux)
        import Glibc
      #endif
      """
    expectNoDifference(
      DarwinSpellingCheck.findings(in: source, file: "A.swift").map(\.description),
      [
        "A.swift:2: Glibc.write: no module Glibc on Darwin",
        "A.swift:4: Musl.write: no module Musl on Darwin",
        "A.swift:7: Glibc.write: no module Glibc on Darwin",
        "A.swift:12: import Glibc: no module Glibc on Darwin",
        "A.swift:9: st_mtim: glibc's field; Darwin's struct stat has st_mtimespec (<sys/stat.h>)",
      ]
    )
  }

  @Test func conditionalsThatNameAPlatformAreListed() {
    let source = """
      #if canImport(Glibc)
        import Glibc
      #elseif canImport(Darwin)
        import Darwin
      #endif
      #if DEBUG
      #endif
      #if os(iOS) || os(tvOS)
      #else
      #endif
      """
    expectNoDifference(
      DarwinSpellingCheck.platformConditionals(in: source),
      ["#if canImport(Glibc) #elseif canImport(Darwin)", "#if os(iOS) || os(tvOS) #else"]
    )
  }

  /// The platform conditionals of the package's sources, plugins and tests.
  static let platformConditionals: [String] = [
    "Sources/ActionObservation/Events/ActionRouting.swift: #if canImport(Glibc) #elseif canImport(Darwin)",
    "Sources/Composable/Actions/ViewAction.swift: #if canImport(SwiftUI)",
    "Sources/Composable/Alerts/ButtonState.swift: #if canImport(SwiftUI)",
    "Sources/Composable/Effects/Animation.swift: #if canImport(SwiftUI) #else",
    "Sources/Composable/Effects/Animation.swift: #if canImport(SwiftUI) #else",
    "Sources/Composable/Effects/Animation.swift: #if canImport(SwiftUI) #else",
    "Sources/Composable/Effects/SwiftUIValues.swift: #if !canImport(SwiftUI)",
    "Sources/Composable/Exports.swift: #if canImport(FoundationNetworking)",
    "Sources/Composable/Internal/StoreContext.swift: #if canImport(Glibc) #elseif canImport(Darwin)",
    "Sources/Composable/Navigation/Dismiss.swift: #if canImport(SwiftUI)",
    "Sources/Composable/Sharing/DocumentsDirectory.swift: #if !canImport(Darwin)",
    "Sources/Composable/TestStore/TestStore.swift: #if os(Linux) || os(Android)",
    "Sources/Composable/TestStore/TestSupportCheck.swift: #if os(Linux) || os(Android)",
    "Sources/RuntimeSupport/KeyPathNames/ComputedPropertyNames.swift: #if os(Linux) #else",
    "Sources/RuntimeSupport/KeyPathNames/ComputedPropertyNames.swift: #if os(Linux)",
    "Sources/RuntimeSupport/KeyPathNames/ComputedPropertyNames.swift: #if os(Linux)",
    "Sources/RuntimeSupport/TypeMetadata/SignedPointers.swift: #if _ptrauth(_arm64e) #else",
    "Sources/TCATrace/Diff/NodeKind.swift: #if canImport(Glibc) #elseif canImport(Darwin)",
    "Sources/TCATrace/Recorder/AppLifecycle.swift: #if os(iOS) || os(tvOS) || os(visionOS) #elseif os(macOS) #else",
    "Sources/TCATrace/Recorder/FlightRecorder.swift: #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)",
    "Sources/TCATrace/Recorder/LiveStream.swift: #if canImport(Darwin)",
    "Sources/TCATrace/Recorder/TracePath.swift: #if os(tvOS) #elseif os(iOS) || os(watchOS) || os(visionOS) #elseif os(macOS) #else",
    "Sources/TCATrace/Recorder/TraceWriter.swift: #if os(Linux)",
    "Sources/TCATraceBenchmarks/LiveScenario.swift: #if canImport(FoundationNetworking)",
    "Sources/TCATraceBenchmarks/Measurement.swift: #if canImport(Glibc) #elseif canImport(Darwin)",
    "Sources/TCATraceBenchmarks/Measurement.swift: #if os(Linux) #else",
    "Sources/TCATraceBenchmarks/ServeScenario.swift: #if canImport(FoundationNetworking)",
    "Sources/TCATraceFile/Database/FileName.swift: #if canImport(Glibc) #elseif canImport(Musl) #elseif canImport(Darwin)",
    "Sources/TCATraceFile/Database/FlightJournal.swift: #if canImport(Glibc) #elseif canImport(Musl) #elseif canImport(Darwin)",
    "Sources/TCATraceFile/Database/SQLiteConnection.swift: #if canImport(Glibc) #elseif canImport(Musl) #elseif canImport(Darwin)",
    "Sources/TCATraceFile/Database/TraceFile.swift: #if canImport(Glibc) #elseif canImport(Musl) #elseif canImport(Darwin)",
    "Sources/TCATraceFile/Database/TraceFile.swift: #if canImport(Darwin) #else",
    "Sources/TCATraceFile/StateRendering/RenderedBytes.swift: #if canImport(Glibc) #elseif canImport(Musl) #elseif canImport(Darwin)",
    "Sources/TCATraceLint/LintConfiguration.swift: #if canImport(Glibc) #elseif canImport(Musl) #elseif canImport(Darwin)",
    "Sources/ToolSupport/CLibrary.swift: #if canImport(Glibc) #elseif canImport(Musl) #elseif canImport(Darwin)",
    "Sources/ToolSupport/Terminal.swift: #if canImport(Glibc) #elseif canImport(Darwin)",
    "Sources/tcatrace-serve/LiveServer.swift: #if canImport(Darwin)",
    "Sources/tcatrace-serve/ServeCommand.swift: #if os(macOS) #else",
    "Sources/tcatrace/Commands/Companions.swift: #if canImport(FoundationEssentials) #else",
    "Sources/tcatrace/Commands/Companions.swift: #if os(Linux) #else",
    "Sources/tcatrace/Commands/Demo.swift: #if canImport(FoundationEssentials) #else",
    "Sources/tcatrace/Commands/Lint.swift: #if canImport(FoundationEssentials) #else",
    "Sources/tcatrace/Export/HTTPEndpoint.swift: #if canImport(Glibc) #else",
    "Plugins/TCATraceLintBuildToolPlugin/Plugin.swift: #if canImport(XcodeProjectPlugin)",
    "Tests/AvailabilityTests/AvailabilityCheckTests.swift: #if os(Linux) #else",
    "Tests/ComposableTests/NavigationTests.swift: #if canImport(SwiftUI)",
    "Tests/ComposableTests/TCASpellingTests.swift: #if !canImport(SwiftUI)",
    "Tests/Fixtures/tcatrace-fixture/TraceFixture.swift: #if canImport(Glibc)",
    "Tests/Fixtures/tcatrace-fixture/TraceFixture.swift: #if canImport(Glibc)",
    "Tests/TCATraceBenchmarksTests/BenchmarkTests.swift: #if os(Linux)",
    "Tests/TCATraceTests/BackgroundingTests.swift: #if os(Linux)",
    "Tests/TCATraceTests/RecorderTests.swift: #if os(Linux)",
    "Tests/TCATraceTests/TracePathTests.swift: #if os(Linux)",
    "Tests/tcatraceTests/CommandTests.swift: #if os(Linux)",
    "Tests/tcatraceTests/LiveAppSideTests.swift: #if canImport(Darwin)",
    "Tests/tcatraceTests/LiveDriveTests.swift: #if canImport(FoundationNetworking)",
    "Tests/tcatraceTests/LiveServeTests.swift: #if canImport(FoundationNetworking)",
    "Tests/tcatraceTests/ServeCommandTests.swift: #if canImport(FoundationNetworking)",
    "Tests/tcatraceTests/Support/TerminalScreen.swift: #if canImport(Darwin) #else",
    "Tests/tcatraceTests/Support/TerminalScreen.swift: #if os(Linux) #else",
  ]
}
