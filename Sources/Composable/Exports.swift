// Feature code imports `Composable` alone, as TCA code imports `ComposableArchitecture`, and gets
// what TCA re-exports with it: case paths, clocks, schedulers, concurrency helpers, CustomDump,
// the dependency system and its macros, identified collections and issue reporting — and
// Foundation (`UUID`, `Date`, `URL`), which `import ComposableArchitecture` brings on Apple
// platforms through SwiftUI and Combine.
@_exported import Foundation
// NB: On Linux, Foundation keeps `URLSession` and `URLRequest` in a module of their own; on
// Apple platforms they are Foundation's. Dependency clients that fetch (`URLSession.shared`)
// compile here as they do there.
#if canImport(FoundationNetworking)
  @_exported import FoundationNetworking
#endif
@_exported import CasePaths
@_exported import Clocks
@_exported import CombineSchedulers
@_exported import ConcurrencyExtras
@_exported import CustomDump
@_exported import Dependencies
@_exported import DependenciesMacros
@_exported import IdentifiedCollections
@_exported import IssueReporting
@_exported import Observation
// NB: The seam a store's observer sees (`ActionEvent`, `ActionOrigin`, `ActionRoute`), shared
// with `TCATrace`, which records through it on either host.
@_exported import ActionObservation
