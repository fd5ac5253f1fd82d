import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The macros `Composable` declares in `Macros.swift`.
@main
struct ComposableMacrosPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    ObservableStateMacro.self,
    ObservationStateIgnoredMacro.self,
    PresentsMacro.self,
    ReducerMacro.self,
    ReducerCaseEphemeralMacro.self,
    ReducerCaseIgnoredMacro.self,
    ViewActionMacro.self,
  ]
}
