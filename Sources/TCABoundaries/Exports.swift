// NB: The same sources compile against either host; the `ComposableArchitecture` trait picks
// pointfreeco's TCA, and without it this package's `Composable` (see Package.swift).
#if ComposableArchitecture
  @_exported import ComposableArchitecture
#else
  @_exported import Composable
#endif
