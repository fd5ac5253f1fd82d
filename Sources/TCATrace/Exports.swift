#if ComposableArchitecture
  @_exported import ComposableArchitecture
#else
  @_exported import Composable
#endif
@_exported import TCABoundaries
@_exported import TCATraceFile
@_exported import ActionObservation
