// Feature code imports `Composable` alone, as TCA code imports `ComposableArchitecture`: the
// case-path macros and identified collections come with it.
@_exported import CasePaths
@_exported import IdentifiedCollections
