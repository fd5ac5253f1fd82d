@_exported import Composable
@_exported import TCABoundaries
