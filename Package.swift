// swift-tools-version: 6.2

import CompilerPluginSupport
import PackageDescription

let package = Package(
  name: "TCATrace",
  platforms: [
    // NB: `@ObservableState` conforms state to Observation's `Observable`.
    .iOS(.v17),
    .macOS(.v14),
  ],
  products: [
    .library(name: "Composable", targets: ["Composable"]),
    .library(name: "TCABoundaries", targets: ["TCABoundaries"]),
    .library(name: "TCATrace", targets: ["TCATrace"]),
    .library(name: "TCATraceFile", targets: ["TCATraceFile"]),
    .executable(name: "tcatrace", targets: ["tcatrace"]),
    .executable(name: "tcatrace-lint", targets: ["tcatrace-lint"]),
    .executable(name: "tcatrace-serve", targets: ["tcatrace-serve"]),
    // NB: Each in a product of its own, which an app names only if it wants the linter built.
    .plugin(name: "TCATraceLintBuildToolPlugin", targets: ["TCATraceLintBuildToolPlugin"]),
    .plugin(name: "TCATraceLintCommandPlugin", targets: ["TCATraceLintCommandPlugin"]),
  ],
  traits: [
    // NB: One source, two hosts: `TCABoundaries` and `TCATrace` compile against one of the
    // two implementations of TCA's API, which they then re-export. Exactly one trait is on;
    // both at once is an error the build names (Sources/TCABoundaries/Exports.swift).
    .trait(
      name: "BundledComposable",
      description:
        "TCABoundaries and TCATrace compile against this package's Composable (the default)."
    ),
    .trait(
      name: "ComposableArchitecture",
      description:
        "Record apps built on pointfreeco's swift-composable-architecture: TCABoundaries and TCATrace compile against its ComposableArchitecture (resolved only with this trait) and re-export it instead of Composable. Name it with `traits: [\"ComposableArchitecture\"]`, which turns the default off."
    ),
    .default(enabledTraits: ["BundledComposable"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // NB: On Linux, `CombineSchedulers` has schedulers (and so `DependencyValues.mainQueue`)
    // only with OpenCombine, which this trait brings in.
    .package(
      url: "https://github.com/pointfreeco/combine-schedulers", from: "1.2.2",
      traits: ["OpenCombineSchedulers"]
    ),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    // NB: As wide as the macros and the linter compile with: `.ci/lowest-swift-syntax` builds
    // and tests them with the lowest. An app's other macro packages (TCA's graph caps it below
    // 603) then pick the version.
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"605.0.0"),
    // NB: The linter's `.tcatrace-lint.yml`; `.ci/lowest-swift-syntax` builds it on 5.0.1 too.
    .package(url: "https://github.com/jpsim/Yams", "5.0.1"..<"7.0.0"),
    // NB: `tcatrace serve`'s HTTP server, which only the `tcatrace-serve` program links; and its
    // socket layer, FlyingSocks, which the recorder links too, for the live stream to
    // `tcatrace serve --live`.
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    // NB: How `tcatrace` runs the programs beside it: Apple's process spawning, tested on Darwin
    // and Linux, where this package had a `posix_spawn` of its own that only Linux compiled. Its
    // Foundation trait is off: `tcatrace` loads no Foundation library but FoundationEssentials.
    .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2", traits: []),
    .package(url: "https://github.com/pointfreeco/swift-composable-architecture", from: "1.25.0"),
  ],
  targets: [
    // NB: No `pkgConfig`: Apple's SDKs carry SQLite, and Xcode would pass a Mac's pkg-config
    // flags (Homebrew's) to every platform it builds for. On Linux the headers are where the
    // compiler looks; `shim.h` says what to install when they are not.
    .systemLibrary(name: "CSQLite"),
    .macro(
      name: "ComposableMacros",
      dependencies: [
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
      ]
    ),
    // NB: What a store's observer sees of an action (`ActionEvent`, its origin and route),
    // and the collection of routes: `Composable`'s observation seam, which `TCATrace` records
    // through on either host.
    .target(name: "ActionObservation", dependencies: ["RuntimeSupport"]),
    // NB: The low-level parts the libraries share: every read of the Swift runtime's own
    // layouts, key paths' names, and the one `Locked` and `AtomicWord`.
    .target(name: "RuntimeSupport", dependencies: ["TCATraceAtomicsShims"]),
    // NB: Atomic operations on a word for `RuntimeSupport.AtomicWord`: the standard library's
    // `Atomic` is available from iOS 18 and macOS 15 only.
    .target(name: "TCATraceAtomicsShims"),
    .target(
      name: "Composable",
      dependencies: [
        "ActionObservation",
        "ComposableMacros",
        "RuntimeSupport",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "DependenciesMacros", package: "swift-dependencies"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .target(
      name: "TCABoundaries",
      dependencies: [
        "ActionObservation",
        "RuntimeSupport",
        .target(name: "Composable", condition: .when(traits: ["BundledComposable"])),
        .product(
          name: "ComposableArchitecture", package: "swift-composable-architecture",
          condition: .when(traits: ["ComposableArchitecture"])
        ),
      ]
    ),
    .target(
      name: "TCATraceFile",
      dependencies: ["CSQLite"]
    ),
    .target(
      name: "TCATrace",
      dependencies: [
        .target(name: "Composable", condition: .when(traits: ["BundledComposable"])),
        .product(
          name: "ComposableArchitecture", package: "swift-composable-architecture",
          condition: .when(traits: ["ComposableArchitecture"])
        ),
        "ActionObservation",
        "RuntimeSupport",
        "TCABoundaries",
        "TCATraceAtomicsShims",
        "TCATraceFile",
        "TerminalSafeText",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        // NB: The live stream's sockets (`tcatrace serve --live`): Linux and Apple's platforms
        // alike, no Foundation networking.
        .product(name: "FlyingSocks", package: "FlyingFox"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    .target(
      name: "TCATraceLint",
      dependencies: [
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "Yams", package: "Yams"),
      ]
    ),
    // NB: The grammar `tcatrace test` checks what it writes against: `tcatrace-serve` links it,
    // and `tcatrace` runs it in `tcatrace-lint` (which holds Swift's parser, so that `tcatrace`
    // does not).
    .target(
      name: "GeneratedTestCheck",
      dependencies: [
        "ToolSupport",
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]
    ),
    .target(
      name: "TCATraceExamples",
      dependencies: ["TCABoundaries", "TCATrace"]
    ),
    .target(
      name: "ToolSupport",
      dependencies: [
        "TerminalSafeText", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // NB: What a terminal shows of a trace's text, for the programs and the libraries alike.
    .target(name: "TerminalSafeText"),
    .executableTarget(
      name: "tcatrace",
      dependencies: [
        "TCATraceFile",
        "TestGeneration",
        "ToolSupport",
        "TraceFormats",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Subprocess", package: "swift-subprocess"),
      ],
      // NB: Not `tcatrace-demo`, `tcatrace-lint` or `tcatrace-serve`, which `tcatrace demo`,
      // `lint` and `serve` run: `tcatrace` finds them beside itself, or builds them in a
      // checkout of this package (Sources/tcatrace/Commands/Companions.swift).
    ),
    .executableTarget(
      name: "tcatrace-demo",
      dependencies: [
        "TCATrace",
        "ToolSupport",
        "TCATraceExamples",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // NB: `tcatrace serve`, a program of its own so that `tcatrace` loads neither its HTTP
    // server nor the whole of Foundation that FlyingFox imports.
    .executableTarget(
      name: "tcatrace-serve",
      dependencies: [
        "GeneratedTestCheck",
        "RuntimeSupport",
        "TCATraceFile",
        "TestGeneration",
        "ToolSupport",
        "TraceFormats",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      // NB: The page's files, built into the program as `PageContents.swift`
      // (`Scripts/embed-page.py`), not as resources (see `PageAssets`).
      exclude: ["Page"]
    ),
    // NB: A trace in the formats the programs write besides their text: the JSON of
    // `--format json` and serve's API, Perfetto's Trace Event JSON and OTLP (`tcatrace export`).
    .target(
      name: "TraceFormats",
      dependencies: ["TCATraceFile", "ToolSupport"]
    ),
    // NB: A recorded session as a `TestStore` test (`tcatrace test`, serve's download).
    .target(
      name: "TestGeneration",
      dependencies: ["TCATraceFile", "ToolSupport"]
    ),
    .executableTarget(
      name: "tcatrace-lint",
      dependencies: [
        "GeneratedTestCheck",
        "ToolSupport",
        "TCATraceLint",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .plugin(
      name: "TCATraceLintBuildToolPlugin",
      capability: .buildTool(),
      dependencies: ["tcatrace-lint"]
    ),
    .plugin(
      name: "TCATraceLintCommandPlugin",
      capability: .command(
        intent: .custom(
          verb: "lint-boundaries",
          description: "Check the package's Swift sources for boundary leaks with tcatrace-lint."
        )
      ),
      dependencies: ["tcatrace-lint"]
    ),
    .target(
      name: "TCATraceBenchmarks",
      dependencies: [
        "CSQLite",
        "TCATrace",
        "TCATraceExamples",
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    .executableTarget(
      name: "tcatrace-bench",
      dependencies: [
        "TCATraceBenchmarks",
        // NB: Built beside it (executables are not linked): the reader and serve scenarios run
        // them.
        "tcatrace",
        "tcatrace-serve",
      ]
    ),
    // NB: A second app, which Tests/RealTCA compiles against pointfreeco's TCA too.
    .target(
      name: "LibraryExample",
      dependencies: ["TCATrace"],
      path: "Tests/Fixtures/Library"
    ),
    .executableTarget(
      name: "tcatrace-fixture",
      dependencies: [
        "LibraryExample",
        "TCATrace",
        "TCATraceExamples",
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      path: "Tests/Fixtures/tcatrace-fixture"
    ),
    .target(
      name: "TestSupport",
      dependencies: [.product(name: "Clocks", package: "swift-clocks")],
      path: "Tests/TestSupport"
    ),
    .testTarget(
      name: "CSQLiteTests",
      dependencies: ["CSQLite", "TestSupport"]
    ),
    .testTarget(
      name: "ComposableTests",
      dependencies: [
        "Composable",
        "TestSupport",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    .testTarget(
      name: "ComposableMacrosTests",
      dependencies: [
        "ComposableMacros",
        "TestSupport",
        .product(name: "MacroTesting", package: "swift-macro-testing"),
      ]
    ),
    .testTarget(
      name: "TCABoundariesTests",
      dependencies: [
        "TCABoundaries",
        "TestSupport",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    // NB: The trace file and its reader, tested without the runtime that records traces.
    .testTarget(
      name: "TCATraceFileTests",
      dependencies: ["TCATraceFile", "TestSupport"]
    ),
    .testTarget(
      name: "ActionObservationTests",
      dependencies: ["ActionObservation", "TestSupport"]
    ),
    .testTarget(
      name: "RuntimeSupportTests",
      dependencies: ["RuntimeSupport", "TestSupport"]
    ),
    .testTarget(
      name: "TCATraceTests",
      dependencies: [
        "ActionObservation",
        "RuntimeSupport",
        "CSQLite",
        "TCATrace",
        "TestSupport",
        "tcatrace-fixture",
        "TCATraceExamples",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    .testTarget(
      name: "TCATraceBenchmarksTests",
      dependencies: ["TCATraceBenchmarks", "TestSupport", "tcatrace-bench"]
    ),
    .testTarget(
      name: "TCATraceExamplesTests",
      dependencies: [
        "LibraryExample",
        "TCATraceExamples",
        "TestSupport",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    // NB: The check that the libraries an app compiles use no API above the declared floor;
    // it reads the toolchain's interfaces with swift-syntax.
    .testTarget(
      name: "AvailabilityTests",
      dependencies: [
        "TestSupport",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]
    ),
    .testTarget(
      name: "GeneratedTestCheckTests",
      dependencies: ["GeneratedTestCheck", "TestSupport"]
    ),
    .testTarget(
      name: "TCATraceLintTests",
      dependencies: ["TCATraceLint", "TestSupport"]
    ),
    .testTarget(
      name: "tcatraceTests",
      dependencies: [
        "CSQLite",
        "GeneratedTestCheck",
        "TCATraceFile",
        "tcatrace",
        "tcatrace-demo",
        "tcatrace-lint",
        "tcatrace-serve",
        "tcatrace-fixture",
        "TestSupport",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      // NB: Python/ holds the scripts that read `tcatrace export`'s OTLP as OpenTelemetry's own
      // definitions do, and receive it as a collector would.
      exclude: ["Expected", "Python"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system && target.type != .plugin {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny")
    ]
}
