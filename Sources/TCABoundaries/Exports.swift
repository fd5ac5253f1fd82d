// NB: The same sources compile against either host; the `ComposableArchitecture` trait picks
// pointfreeco's TCA, and the default trait, `BundledComposable`, this package's `Composable`
// (see Package.swift).
#if ComposableArchitecture && BundledComposable
  #error(
    """
    TCATrace's traits 'ComposableArchitecture' and 'BundledComposable' are both on: a build records \
    on one host. Some package adds TCATrace without naming a trait (which turns on the default, \
    'BundledComposable') while another names 'ComposableArchitecture'. Name \
    `traits: ["ComposableArchitecture"]` wherever TCATrace is added, or, in an Xcode app project, \
    add TCATrace/TCAHost instead of TCATrace, not beside it.
    """
  )
#elseif ComposableArchitecture
  @_exported import ComposableArchitecture
#else
  @_exported import Composable
#endif
