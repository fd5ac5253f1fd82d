// swift-tools-version: 6.2

// The TCA host of TCATrace, for an app whose build cannot name a package trait (an Xcode app
// project): adding this package instead of `TCATrace` turns on `TCATrace`'s
// `ComposableArchitecture` trait alone, so `import TCATrace` re-exports pointfreeco's TCA and
// records its stores. Its library, `TCATraceOnTCA`, re-exports `TCATrace`. Adding `TCATrace`
// beside it turns on its default trait too (a package's traits are the union of those its
// dependents ask for), which the build refuses. See the README, "In an Xcode app project".

import PackageDescription

let package = Package(
  name: "TCATraceOnTCA",
  platforms: [.iOS(.v17), .macOS(.v14)],
  products: [
    .library(name: "TCATraceOnTCA", targets: ["TCATraceOnTCA"])
  ],
  dependencies: [
    // NB: This repository's root, whose folder is named `TCATrace` in a clone as the README
    // makes it: the package's identity.
    .package(path: "..", traits: ["ComposableArchitecture"]),
    // NB: Named here too, as `TCATrace` names it under the trait: SwiftPM resolves a dependency
    // that a trait of a dependency brings in only when something in the graph names it.
    .package(url: "https://github.com/pointfreeco/swift-composable-architecture", from: "1.25.0"),
  ],
  targets: [
    .target(
      name: "TCATraceOnTCA",
      dependencies: [
        .product(name: "TCATrace", package: "TCATrace"),
        .product(name: "ComposableArchitecture", package: "swift-composable-architecture"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
