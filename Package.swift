// swift-tools-version: 6.2

import CompilerPluginSupport
import PackageDescription

// NB: A release `tcatrace-lint` on Linux carries the Swift runtime and Foundation in itself and
// is not position-independent: the loader then binds no Swift shared libraries' symbols and
// applies no relative relocations, which took start-up from 14 ms to 7. See README, "Performance".
let selfContainedOnLinux: [LinkerSetting] = [
  .unsafeFlags(
    [
      "-static-stdlib", "-Xclang-linker", "-no-pie",
      // Static Foundation's own libraries: our modules are compiled against the shared ones,
      // whose interfaces do not name them.
      "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims",
      "-l_FoundationCollections", "-lswiftSynchronization",
    ],
    .when(platforms: [.linux], configuration: .release)
  )
]

// NB: A release `tcatrace` on Linux is one static executable: the Swift runtime,
// FoundationEssentials (all of Foundation its modules import), SQLite (Debian's
// `libsqlite3.a`, in `libsqlite3-dev`) and the C libraries. The loader then maps and binds
// nothing: `tcatrace state` took 2 ms less than with them shared. It runs on any Linux of its
// architecture; glibc's name lookups (users, groups) and `dlopen` would need the glibc it was
// built with, and it calls neither (SQLite's extensions are off). See README, "Performance".
let staticExecutableOnLinux: [LinkerSetting] = [
  .unsafeFlags(
    ["-static-executable", "-l_FoundationCShims", "-l_FoundationCollections", "-lswiftSynchronization"],
    .when(platforms: [.linux], configuration: .release)
  )
]

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
    .library(name: "TCATraceExamples", targets: ["TCATraceExamples"]),
    .library(name: "TCATraceFile", targets: ["TCATraceFile"]),
    .library(name: "TCATraceLint", targets: ["TCATraceLint"]),
    .executable(name: "tcatrace-bench", targets: ["tcatrace-bench"]),
    .executable(name: "tcatrace", targets: ["tcatrace"]),
    .executable(name: "tcatrace-demo", targets: ["tcatrace-demo"]),
    .executable(name: "tcatrace-lint", targets: ["tcatrace-lint"]),
  ],
  traits: [
    // NB: One source, two hosts. `TCABoundaries` and `TCATrace` compile against this package's
    // `Composable` by default, and with this trait against pointfreeco's TCA instead, which
    // they then re-export: an app on TCA adds this package with `traits:
    // ["ComposableArchitecture"]`. TCA is only resolved when the trait is on.
    .trait(
      name: "ComposableArchitecture",
      description: "Record apps built on pointfreeco's swift-composable-architecture: TCABoundaries and TCATrace compile against its ComposableArchitecture and re-export it instead of Composable."
    ),
    .trait(
      name: "Composable",
      description: "TCABoundaries and TCATrace compile against this package's Composable (the default)."
    ),
    .default(enabledTraits: ["Composable"]),
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
    // NB: TCA's graph caps swift-syntax below 603 (swift-perception), so 602 is admitted too.
    .package(url: "https://github.com/swiftlang/swift-syntax", "602.0.0"..<"604.0.0"),
    .package(url: "https://github.com/pointfreeco/swift-composable-architecture", from: "1.25.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
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
    .target(name: "ActionObservation", dependencies: ["TCATraceAtomicsShims"]),
    // NB: Atomic operations on a word for `ActionObservation.AtomicWord`: the standard
    // library's `Atomic` is available from iOS 18 and macOS 15 only.
    .target(name: "TCATraceAtomicsShims"),
    .target(
      name: "Composable",
      dependencies: [
        "ActionObservation",
        "ComposableMacros",
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
        .target(name: "Composable", condition: .when(traits: ["Composable"])),
        .product(
          name: "ComposableArchitecture", package: "swift-composable-architecture",
          condition: .when(traits: ["ComposableArchitecture"])
        ),
        .product(name: "CasePaths", package: "swift-case-paths"),
      ]
    ),
    .target(
      name: "TCATraceFile",
      dependencies: ["CSQLite"]
    ),
    .target(
      name: "TCATrace",
      dependencies: [
        .target(name: "Composable", condition: .when(traits: ["Composable"])),
        .product(
          name: "ComposableArchitecture", package: "swift-composable-architecture",
          condition: .when(traits: ["ComposableArchitecture"])
        ),
        "ActionObservation",
        "CSQLite",
        "TCABoundaries",
        "TCATraceFile",
        "TCATraceText",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    .target(
      name: "TCATraceLint",
      dependencies: [
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]
    ),
    .target(
      name: "TCATraceExamples",
      dependencies: ["TCABoundaries", "TCATrace"]
    ),
    .target(
      name: "TCATraceCLI",
      dependencies: ["TCATraceText", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    // NB: What a terminal shows of a trace's text, for the programs and the libraries alike.
    .target(name: "TCATraceText"),
    .executableTarget(
      name: "tcatrace",
      dependencies: [
        "TCATraceCLI",
        "TCATraceFile",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      // NB: Neither `tcatrace-demo` nor `tcatrace-lint`, which `tcatrace demo` and `tcatrace
      // lint` run: `tcatrace` finds them beside itself, or builds them in a checkout of this
      // package (Sources/tcatrace/Commands/Companions.swift).
      linkerSettings: staticExecutableOnLinux
    ),
    .executableTarget(
      name: "tcatrace-demo",
      dependencies: [
        "TCATrace",
        "TCATraceCLI",
        "TCATraceExamples",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "tcatrace-lint",
      dependencies: [
        "TCATraceCLI",
        "TCATraceLint",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      linkerSettings: selfContainedOnLinux
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
        // NB: Built beside it (executables are not linked): the reader scenario runs it.
        "tcatrace",
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
    .testTarget(
      name: "TCATraceTests",
      dependencies: [
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
    // NB: The check that the libraries an app compiles use no API above the declared floor
    // (issue #59); it reads the toolchain's interfaces with swift-syntax.
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
      name: "TCATraceLintTests",
      dependencies: ["TCATraceLint", "TestSupport"]
    ),
    .testTarget(
      name: "tcatraceTests",
      dependencies: [
        "CSQLite",
        "TCATraceFile",
        "TCATraceLint",
        "tcatrace",
        "tcatrace-demo",
        "tcatrace-lint",
        "tcatrace-fixture",
        "TestSupport",
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ],
      // NB: Python/ holds the scripts that read `tcatrace export`'s OTLP as OpenTelemetry's own
      // definitions do, and receive it as a collector would.
      exclude: ["Expected", "Python"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
  target.swiftSettings = (target.swiftSettings ?? []) + [
    .enableUpcomingFeature("ExistentialAny")
  ]
}
