import ComposableMacros
import MacroTesting
import Testing
import TestSupport

@Suite(.hangGuard, .macros([ObservableStateMacro.self], record: .missing))
struct ObservableStateMacroTests {
  @Test func aStructKeepsItsStoredProperties() {
    assertMacro {
      """
      @ObservableState
      public struct State: Equatable {
        var count = 0
        var title: String
      }
      """
    } expansion: {
      """
      public struct State: Equatable {
        var count = 0
        var title: String

        var _$observationRegistrar = Composable.ObservationStateRegistrar()

        public var _$id: Composable.ObservableStateID {
          _$observationRegistrar.id
        }

        public mutating func _$willModify() {
          _$observationRegistrar._$willModify()
        }
      }
      """
    }
  }

  @Test func anEnumTakesItsIdentityFromItsCase() {
    assertMacro {
      """
      @ObservableState
      enum State {
        case detail(DetailFeature.State)
        case meeting(id: Int)
        case empty
      }
      """
    } expansion: {
      """
      enum State {
        case detail(DetailFeature.State)
        case meeting(id: Int)
        case empty

        public var _$id: Composable.ObservableStateID {
          switch self {
          case let .detail(state):
            return ._$id(for: state)._$tag(0)
          case let .meeting(state):
            return ._$id(for: state)._$tag(1)
          case .empty:
            return Composable.ObservableStateID()._$tag(2)
          }
        }

        public mutating func _$willModify() {
          switch self {
          case var .detail(state):
            Composable._$willModify(&state)
            self = .detail(state)
          case var .meeting(state):
            Composable._$willModify(&state)
            self = .meeting(id: state)
          case .empty:
            break
          }
        }
      }
      """
    }
  }

  @Test func aClassIsAnError() {
    assertMacro {
      """
      @ObservableState
      class Model {
      }
      """
    } diagnostics: {
      """
      @ObservableState
      ┬───────────────
      ╰─ 🛑 '@ObservableState' cannot be applied to class type 'Model'
      class Model {
      }
      """
    }
  }

  @Test func observationIgnoredIsAnErrorWithAFixIt() {
    assertMacro {
      """
      @ObservableState
      struct State {
        @ObservationIgnored var cache: [Int] = []
      }
      """
    } diagnostics: {
      """
      @ObservableState
      struct State {
        @ObservationIgnored var cache: [Int] = []
        ┬──────────────────
        ╰─ 🛑 '@ObservationIgnored' cannot be used in '@ObservableState'
           ✏️ Use '@ObservationStateIgnored' instead
      }
      """
    } fixes: {
      """
      @ObservableState
      struct State {
        @ObservationStateIgnored var cache: [Int] = []
      }
      """
    } expansion: {
      """
      struct State {
        @ObservationStateIgnored var cache: [Int] = []

        var _$observationRegistrar = Composable.ObservationStateRegistrar()

        public var _$id: Composable.ObservableStateID {
          _$observationRegistrar.id
        }

        public mutating func _$willModify() {
          _$observationRegistrar._$willModify()
        }
      }
      """
    }
  }
}
