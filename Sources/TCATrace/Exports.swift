@_exported import Composable
@_exported import TCABoundaries
@_exported import TCATraceFile
