// swift-tools-version: 6.1

// The example app's features and the library example (Tests/Fixtures/Library), compiled against pointfreeco's swift-composable-architecture
// through the `ComposableArchitecture` trait of TCATrace: the same files the main package
// compiles against `Composable`. `check.sh` builds it with the patched TCA (see
// ../../Documentation/RealTCA.md) and compares the two recordings with `tcatrace diff`.

import PackageDescription

let package = Package(
  name: "RealTCA",
  platforms: [.macOS(.v14), .iOS(.v17)],
  dependencies: [
    // NB: `TCATrace` is a link to this repository's root, so that the package is named as an
    // app names it.
    .package(path: "TCATrace", traits: ["ComposableArchitecture"]),
    .package(url: "https://github.com/pointfreeco/swift-composable-architecture", from: "1.25.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
  ],
  targets: [
    .target(
      name: "RealTCAExamples",
      dependencies: [.product(name: "TCATrace", package: "TCATrace")],
      path: "Sources/TCATraceExamples"
    ),
    .target(
      name: "LibraryExample",
      dependencies: [.product(name: "TCATrace", package: "TCATrace")],
      path: "Sources/LibraryExample"
    ),
    .executableTarget(
      name: "RealTCADemo",
      dependencies: ["LibraryExample", "RealTCAExamples"]
    ),
    // NB: What recording costs on TCA, against a plain TCA `Store` (`bench.sh`).
    .executableTarget(
      name: "RealTCABench",
      dependencies: [
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "TCATrace", package: "TCATrace"),
      ]
    ),
    // NB: The test `tcatrace test` writes from the app's session recorded on TCA, kept here and
    // run against TCA's `TestStore` (check.sh writes it again and compares).
    .testTarget(
      name: "RealTCATests",
      dependencies: [
        "LibraryExample",
        "RealTCAExamples",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "TCATrace", package: "TCATrace"),
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
