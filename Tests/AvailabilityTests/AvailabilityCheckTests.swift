import Foundation
import CustomDump
import Testing
import TestSupport

#if os(Linux)
  private let interfacesAreHere = true
#else
  private let interfacesAreHere = false
#endif

/// Issue #59: the libraries an app compiles use no Apple-platform API newer than the floor the
/// manifest declares, outside a guard. No Apple toolchain runs here; the check reads the
/// availability of each API from the toolchain's own interfaces (see ``AvailabilityCheck``).
///
/// NB: On Linux only, where the toolchain's interfaces lie in `lib/swift/linux`: on a Mac the
/// compiler itself enforces the macOS floor as it builds.
@Suite(.hangGuard, .enabled(if: interfacesAreHere))
struct AvailabilityCheckTests {
  /// The targets an app that records compiles (the libraries and their host).
  static let libraries = [
    "ActionObservation", "Composable", "RuntimeSupport", "TCABoundaries", "TCATrace",
    "TCATraceFile", "TerminalSafeText",
  ]

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The floor `Package.swift` declares: `.iOS(.v17)`, `.macOS(.v14)`.
  static func floor() throws -> AvailabilityCheck.Requirement {
    let manifest = try String(
      contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    var floor: AvailabilityCheck.Requirement = [:]
    for platform in ["iOS", "macOS"] {
      let regex = try NSRegularExpression(pattern: "\\.\(platform)\\(\\.v([0-9_]+)\\)")
      guard
        let match = regex.firstMatch(
          in: manifest, range: NSRange(manifest.startIndex..., in: manifest)),
        let range = Range(match.range(at: 1), in: manifest)
      else { continue }
      floor[platform] = AvailabilityCheck.Version(
        manifest[range].replacingOccurrences(of: "_", with: ".")[...])
    }
    return floor
  }

  /// The toolchain's interfaces of the standard library and its modules: where `swiftc` is,
  /// `../lib/swift/linux/*.swiftmodule/*.swiftinterface`.
  static func interfaces() throws -> [URL] {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let fileManager = FileManager.default
    guard
      let swiftc = path.split(separator: ":").map({
        URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc")
      })
      .first(where: { fileManager.isExecutableFile(atPath: $0.path) })
    else { return [] }
    let toolchain = swiftc.resolvingSymlinksInPath().deletingLastPathComponent()
      .deletingLastPathComponent()
    let modules = toolchain.appendingPathComponent("lib/swift/linux")
    let names = [
      "Swift", "_Concurrency", "Synchronization", "Observation", "_StringProcessing",
      "RegexBuilder", "Distributed",
    ]
    return try names.flatMap { name -> [URL] in
      let folder = modules.appendingPathComponent("\(name).swiftmodule")
      guard fileManager.fileExists(atPath: folder.path) else { return [] }
      return try fileManager.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        .filter {
          $0.pathExtension == "swiftinterface" && !$0.lastPathComponent.contains(".private.")
        }
    }
  }

  /// The check, with what the toolchain's interfaces say: read once for every test here.
  static func check() throws -> AvailabilityCheck {
    let check = try Self.learned.get()
    try #require(
      !check.types.isEmpty, "no interfaces of the standard library beside swiftc on PATH")
    return check
  }

  private static let learned = Result<AvailabilityCheck, any Error> {
    var check = AvailabilityCheck(floor: try Self.floor())
    for interface in try Self.interfaces() {
      check.learn(interface: try String(contentsOf: interface, encoding: .utf8))
    }
    return check
  }

  /// The other targets a Mac user builds, for macOS only: the programs and what they link
  /// (`swift run tcatrace demo`), the macros (built for the Mac that builds), the plugins, and
  /// what `swift test` builds besides the tests (the benchmarks, the fixtures, test support).
  static let tools = [
    "Sources/tcatrace", "Sources/tcatrace-serve", "Sources/tcatrace-lint", "Sources/tcatrace-demo",
    "Sources/ToolSupport", "Sources/TraceFormats", "Sources/TestGeneration", "Sources/TCATraceLint",
    "Sources/GeneratedTestCheck", "Sources/TCATraceExamples", "Sources/ComposableMacros",
    "Sources/TCATraceBenchmarks", "Sources/tcatrace-bench", "Plugins/TCATraceLintBuildToolPlugin",
    "Plugins/TCATraceLintCommandPlugin", "Tests/Fixtures", "Tests/TestSupport",
  ]

  @Test func theLibrariesUseNothingNewerThanTheFloor() throws {
    let check = try Self.check()
    #expect(check.floor == ["iOS": .init([17]), "macOS": .init([14])])
    let sources = try Self.sources(in: Self.libraries.map { "Sources/\($0)" })
    #expect(sources.count > 100)
    let findings = Self.findings(in: sources, check: check)
    #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
  }

  /// The tools are built for macOS alone: a use newer than its floor only on iOS is not theirs.
  @Test func theToolsUseNothingNewerThanTheMacOSFloor() throws {
    let check = try Self.check()
    let sources = try Self.sources(in: Self.tools)
    #expect(sources.count > 50)
    // NB: `withLock` here is Foundation's `NSLocking.withLock` (Apple's documentation lists
    // macOS 10.10), which the check, reading no Foundation, cannot tell by its name from
    // Synchronization's `Mutex.withLock` (macOS 15).
    let findings = Self.findings(in: sources, check: check).filter {
      $0.requirement.contains("macOS") && $0.name != "withLock"
    }
    #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
  }

  /// The Swift files in `folders`, each with its path from the package's root.
  static func sources(in folders: [String]) throws -> [(path: String, source: String)] {
    var sources: [(String, String)] = []
    for folderPath in folders {
      let folder = Self.root.appendingPathComponent(folderPath)
      let files =
        FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
        .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
      for file in files {
        sources.append(
          (
            String(file.path.dropFirst(Self.root.path.count + 1)),
            try String(contentsOf: file, encoding: .utf8)
          ))
      }
    }
    return sources
  }

  static func findings(
    in sources: [(path: String, source: String)], check: AvailabilityCheck
  ) -> [AvailabilityCheck.Finding] {
    let declared = sources.reduce(into: Set<String>()) {
      $0.formUnion(AvailabilityCheck.declaredNames(in: $1.source))
    }
    return sources.flatMap { check.findings(in: $0.source, file: $0.path, declared: declared) }
  }

  @Test func theInterfacesSayWhatIsNewer() throws {
    let check = try Self.check()
    #expect(check.types["Atomic"] == ["iOS": .init([18, 0]), "macOS": .init([15, 0])])
    #expect(check.types["Mutex"] == ["iOS": .init([18, 0]), "macOS": .init([15, 0])])
    #expect(
      check.types["UnownedTaskExecutor"] == ["iOS": .init([18, 0]), "macOS": .init([15, 0])])
    #expect(check.members["asUnownedTaskExecutor"] != nil)
    #expect(check.initializerLabels["Task"]?["executorPreference"] != nil)
    // Older than the floor, or shared with older declarations: not flagged.
    #expect(check.types["Task"] == nil)
    #expect(check.initializerLabels["Task"]?["name"] == nil)
    #expect(check.members["load"] == nil)
  }

  /// Each of the uses the package had before #59, as it was: each is found.
  @Test(arguments: [
    (
      "StateReading.swift",
      "import Synchronization\npackage let sharedValuesExist = Atomic<Bool>(false)\n", "Atomic"
    ),
    (
      "NodeKind.swift",
      "final class KindCell: Sendable {\n  private let bits = Atomic<UInt>(0)\n}\n", "Atomic"
    ),
    (
      "SharedChangeTracker.swift",
      "final class SharedChangeTracker {\n  private static let assertions = Atomic<Int>(0)\n}\n",
      "Atomic"
    ),
    (
      "EffectExecutor.swift",
      """
      package final class EffectExecutor: Sendable {
        fileprivate func run(_ job: UnownedJob, on executor: UnownedTaskExecutor) {
          job.runSynchronously(on: executor)
        }
      }
      """,
      "UnownedTaskExecutor"
    ),
    (
      "StoreRuntime.swift",
      "final class StoreRuntime {\n  isolated deinit {}\n}\n", "isolated deinit"
    ),
    (
      "Spawn.swift",
      "func spawn(_ executor: some TaskExecutor) {\n  Task(name: nil, executorPreference: executor) {}\n}\n",
      "Task(executorPreference:)"
    ),
  ])
  func anUnguardedUseIsFound(file: String, source: String, name: String) throws {
    let check = try Self.check()
    let findings = check.findings(in: source, file: file)
    #expect(findings.contains { $0.name == name }, "\(findings)")
  }

  /// The same uses, guarded as the compiler asks, are not.
  @Test func aGuardedUseIsNotFound() throws {
    let check = try Self.check()
    let source = """
      @available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
      extension EffectExecutor: TaskExecutor {
        func run(_ job: UnownedJob, on executor: UnownedTaskExecutor) {}
        func enqueue(_ job: consuming ExecutorJob) { self.run(UnownedJob(job), on: self.asUnownedTaskExecutor()) }
      }
      func count() -> Int {
        if #available(iOS 18, macOS 15, *) {
          let atomic = Atomic<Int>(0)
          return atomic.load(ordering: .relaxed)
        }
        return 0
      }
      func later() {
        guard #available(iOS 18, macOS 15, *) else { return }
        let mutex = Mutex(0)
      }
      @MainActor final class StoreRuntime {
        isolated deinit {}
      }
      #if os(Linux)
        let linuxOnly = Atomic<Int>(0)
      #endif
      #if canImport(Darwin)
        import Darwin
      #else
        let notOnApplePlatforms = Atomic<Int>(0)
      #endif
      """
    expectNoDifference(check.findings(in: source, file: "Guarded.swift").map(\.description), [])
    // Guarded for one platform only, it is found for the other.
    let half = "@available(macOS 15, *)\nfunc f() { let a = Atomic<Int>(0) }\n"
    expectNoDifference(
      check.findings(in: half, file: "Half.swift").map(\.description),
      ["Half.swift:2: 'Atomic' needs iOS 18.0"]
    )
  }
}
