import ComposableMacros
import MacroTesting
import Testing
import TestSupport

@Suite(.hangGuard, .macros([PresentsMacro.self], record: .missing))
struct PresentsMacroTests {
  @Test func theOptionalStaysStoredAndIsProjectedAsPresentationState() {
    assertMacro {
      """
      struct State {
        @Presents public var destination: Destination.State?
      }
      """
    } expansion: {
      """
      struct State {
        public var destination: Destination.State?

        public var $destination: Composable.PresentationState<Destination.State> {
          get {
            Composable.PresentationState(wrappedValue: self.destination)
          }
          set {
            self.destination = newValue.wrappedValue
          }
        }
      }
      """
    }
  }

  @Test func aLetIsAnError() {
    assertMacro {
      """
      struct State {
        @Presents let destination: Destination.State?
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents let destination: Destination.State?
        ┬────────
        ╰─ 🛑 '@Presents' can only be applied to a stored 'var' of optional type
      }
      """
    }
  }

  @Test func aNonOptionalIsAnError() {
    assertMacro {
      """
      struct State {
        @Presents var destination: Destination.State
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents var destination: Destination.State
        ┬────────
        ╰─ 🛑 '@Presents' needs an explicit optional type: 'var destination: Feature.State?'
      }
      """
    }
  }
}
