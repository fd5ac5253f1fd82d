import ComposableMacros
import MacroTesting
import Testing
import TestSupport

@Suite(.hangGuard, .macros([ViewActionMacro.self], record: .missing))
struct ViewActionMacroTests {
  @Test func aTypeWithAStoreSendsViewActions() {
    assertMacro {
      """
      @ViewAction(for: Feature.self)
      struct FeatureView {
        let store: StoreOf<Feature>
      }
      """
    } expansion: {
      """
      struct FeatureView {
        let store: StoreOf<Feature>
      }

      extension FeatureView: Composable.ViewActionSending {
      }
      """
    }
  }

  @Test func aPublicTypeWithAPublicStore() {
    assertMacro {
      """
      @ViewAction(for: Feature.self)
      public struct FeatureView {
        public var store: StoreOf<Feature>
      }
      """
    } expansion: {
      """
      public struct FeatureView {
        public var store: StoreOf<Feature>
      }

      extension FeatureView: Composable.ViewActionSending {
      }
      """
    }
  }

  @Test func aTypeWithoutAStoreIsAnErrorFixedByAddingOne() {
    assertMacro {
      """
      @ViewAction(for: Feature.self)
      public struct FeatureView {
        public var title: String
      }
      """
    } diagnostics: {
      """
      @ViewAction(for: Feature.self)
      ╰─ 🛑 '@ViewAction' requires 'FeatureView' to have a 'store' property of type 'Store'.
         ✏️ Add 'store'
      public struct FeatureView {
        public var title: String
      }
      """
    } fixes: {
      """
      @ViewAction(for: Feature.self)
      public struct FeatureView {
        public let store: StoreOf<Feature>

        public var title: String
      }
      """
    } expansion: {
      """
      public struct FeatureView {
        public let store: StoreOf<Feature>

        public var title: String
      }

      extension FeatureView: Composable.ViewActionSending {
      }
      """
    }
  }

  @Test func storeSendIsAWarningFixedToSendWhenTheActionIsAViewAction() {
    assertMacro {
      """
      @ViewAction(for: Feature.self)
      struct FeatureView {
        let store: StoreOf<Feature>
        func tapped() {
          store.send(.view(.tap))
          self.store.send(.view(.tap))
        }
      }
      """
    } diagnostics: {
      """
      @ViewAction(for: Feature.self)
      struct FeatureView {
        let store: StoreOf<Feature>
        func tapped() {
          store.send(.view(.tap))
          ┬──────────────────────
          ╰─ ⚠️ Do not use 'store.send' directly when using '@ViewAction'
             ✏️ Call 'send' directly with a view action
          self.store.send(.view(.tap))
          ┬───────────────────────────
          ╰─ ⚠️ Do not use 'store.send' directly when using '@ViewAction'
             ✏️ Call 'send' directly with a view action
        }
      }
      """
    } fixes: {
      """
      @ViewAction(for: Feature.self)
      struct FeatureView {
        let store: StoreOf<Feature>
        func tapped() {
          send(.tap)
          self.send(.tap)
        }
      }
      """
    } expansion: {
      """
      struct FeatureView {
        let store: StoreOf<Feature>
        func tapped() {
          send(.tap)
          self.send(.tap)
        }
      }

      extension FeatureView: Composable.ViewActionSending {
      }
      """
    }
  }

  @Test func storeSendOfAnotherActionIsAWarningWithoutAFix() {
    assertMacro {
      """
      @ViewAction(for: Feature.self)
      struct FeatureView {
        let store: StoreOf<Feature>
        func refresh() {
          self.store.send(.refresh)
        }
      }
      """
    } diagnostics: {
      """
      @ViewAction(for: Feature.self)
      struct FeatureView {
        let store: StoreOf<Feature>
        func refresh() {
          self.store.send(.refresh)
          ┬────────────────────────
          ╰─ ⚠️ Do not use 'store.send' directly when using '@ViewAction'
        }
      }
      """
    } expansion: {
      """
      struct FeatureView {
        let store: StoreOf<Feature>
        func refresh() {
          self.store.send(.refresh)
        }
      }

      extension FeatureView: Composable.ViewActionSending {
      }
      """
    }
  }

  @Test func aStoreLessVisibleThanTheTypeIsAnError() {
    assertMacro {
      """
      @ViewAction(for: Feature.self)
      public struct FeatureView {
        private var store: StoreOf<Feature>
      }
      """
    } diagnostics: {
      """
      @ViewAction(for: Feature.self)
      public struct FeatureView {
        private var store: StoreOf<Feature>
        ┬──────
        ╰─ 🛑 'store' variable must be same access level as enclosing type.
           ✏️ Add public
      }
      """
    } fixes: {
      """
      @ViewAction(for: Feature.self)
      public struct FeatureView {
        public var store: StoreOf<Feature>
      }
      """
    } expansion: {
      """
      public struct FeatureView {
        public var store: StoreOf<Feature>
      }

      extension FeatureView: Composable.ViewActionSending {
      }
      """
    }
  }
}
