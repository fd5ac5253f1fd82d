@_exported import TCABoundaries
