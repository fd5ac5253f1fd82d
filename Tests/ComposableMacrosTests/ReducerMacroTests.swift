import ComposableMacros
import MacroTesting
import Testing
import TestSupport

@Suite(.hangGuard, .macros([ReducerMacro.self], record: .missing))
struct ReducerMacroTests {
  @Test func aStructBecomesAReducer() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        struct State {}
        @CasePathable
        enum Action {}
        @Composable.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }

      extension Feature: Composable.Reducer {
      }
      """
    }
  }

  @Test func aStructThatAlreadyConformsGetsNoExtension() {
    assertMacro {
      """
      @Reducer
      public struct Feature: Reducer {
        public struct State {}
        @CasePathable
        public enum Action {}
        @ReducerBuilder<State, Action>
        public var body: some Reducer<State, Action> {
          EmptyReducer()
        }
      }
      """
    } expansion: {
      """
      public struct Feature: Reducer {
        public struct State {}
        @CasePathable
        public enum Action {}
        @ReducerBuilder<State, Action>
        public var body: some Reducer<State, Action> {
          EmptyReducer()
        }
      }
      """
    }
  }

  @Test func anEnumStateIsCasePathableWithDynamicMembers() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        enum State {
          case loggedIn(LoggedIn.State)
          case loggedOut(LoggedOut.State)
        }
        enum Action: CasePathable {
          case loggedIn(LoggedIn.Action)
        }
        var body: some Reducer<State, Action> {
          EmptyReducer()
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        @CasePathable @dynamicMemberLookup
        enum State {
          case loggedIn(LoggedIn.State)
          case loggedOut(LoggedOut.State)
        }
        enum Action: CasePathable {
          case loggedIn(LoggedIn.Action)
        }
        @Composable.ReducerBuilder<State, Action>
        var body: some Reducer<State, Action> {
          EmptyReducer()
        }
      }

      extension Feature: Composable.Reducer {
      }
      """
    }
  }

  @Test func anEmptyStructGetsStateActionAndBody() {
    assertMacro {
      """
      @Reducer
      public struct Empty {
      }
      """
    } expansion: {
      """
      public struct Empty {

          @ObservableState
          public struct State: Codable, Equatable, Hashable, Sendable {
              public init() {
              }
          }

          public enum Action: Equatable, Hashable, Sendable {
          }

          public let body = Composable.EmptyReducer<State, Action>()
      }

      extension Empty: Composable.Reducer {
      }
      """
    }
  }

  /// Issue #60 asked whether a `@Dependency` property should stop the synthesis of `State` and
  /// `Action`. TCA's macro (ReducerMacro.swift, `hasExplicitReducerBody`, at ff20f36) counts
  /// every stored property without an initializer as a sign of a hand-written reducer, a
  /// `@Dependency var` included, and synthesizes only `body`: so does this one. A property
  /// with an initializer does not count, in both.
  @Test func aPropertyWithoutAnInitializerStopsStateAndActionAsInTCA() {
    assertMacro {
      """
      @Reducer
      struct Ticker {
        @Dependency(\\.continuousClock) var clock
      }
      """
    } expansion: {
      """
      struct Ticker {
        @Dependency(\\.continuousClock) var clock

        let body = Composable.EmptyReducer<State, Action>()
      }

      extension Ticker: Composable.Reducer {
      }
      """
    }
    assertMacro {
      """
      @Reducer
      struct Ticker {
        let interval = 1
      }
      """
    } expansion: {
      """
      struct Ticker {
        let interval = 1

        @ObservableState
        struct State: Codable, Equatable, Hashable, Sendable {
          init() {
          }
        }

        enum Action: Equatable, Hashable, Sendable {
        }

        let body = Composable.EmptyReducer<State, Action>()
      }

      extension Ticker: Composable.Reducer {
      }
      """
    }
  }

  @Test func argumentsOnAStructAreAnError() {
    assertMacro {
      """
      @Reducer(state: .equatable)
      struct Feature {
        struct State {}
        enum Action {}
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } diagnostics: {
      """
      @Reducer(state: .equatable)
               ┬────────────────
               ╰─ 🛑 Argument passed to call that takes no arguments when applied to a struct
                  ✏️ Remove '(state: .equatable)'
      struct Feature {
        struct State {}
        enum Action {}
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } fixes: {
      """
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        struct State {}
        @CasePathable
        enum Action {}
        @Composable.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }

      extension Feature: Composable.Reducer {
      }
      """
    }
  }

  @Test func reduceIntoActionIsDeprecated() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
          return .none
        }
      }
      """
    } diagnostics: {
      """
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
             ┬─────
             ╰─ ⚠️ 'reduce(into:action:)' is deprecated: Reducers should be defined using the 'body' property and a 'Reduce'.
                ✏️ Use 'body' instead
          return .none
        }
      }
      """
    } fixes: {
      """
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        var body: some Reducer<State, Action> {
      Reduce { state, action in
      return .none
      }
      }
      }
      """
    } expansion: {
      """
      struct Feature {
        struct State {}
        @CasePathable
        enum Action {}
        @Composable.ReducerBuilder<State, Action>
        var body: some Reducer<State, Action> {
      Reduce { state, action in
      return .none
      }
      }
      }

      extension Feature: Composable.Reducer {
      }
      """
    }
  }

  @Test func anEnumOfFeatures() {
    assertMacro {
      """
      @Reducer(state: .equatable, action: .equatable, .sendable)
      enum Destination {
        case detail(DetailFeature)
        case edit(EditFeature = EditFeature(autosave: true))
        case alert(AlertState<Alert>)
        case meeting(id: Meeting.ID, title: String)
        @ReducerCaseIgnored
        case note(String)
        case empty

        enum Alert {
          case confirmDeletion
        }
      }
      """
    } expansion: {
      #"""
      enum Destination {
        case detail(DetailFeature)
        case edit(EditFeature = EditFeature(autosave: true))
        @ReducerCaseEphemeral
        case alert(AlertState<Alert>)
        @ReducerCaseIgnored
        case meeting(id: Meeting.ID, title: String)
        @ReducerCaseIgnored
        case note(String)
        @ReducerCaseIgnored
        case empty

        enum Alert {
          case confirmDeletion
        }

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        enum State: Composable.CaseReducerState, Equatable {
          typealias StateReducer = Destination
          case detail(DetailFeature.State)
          case edit(EditFeature.State)
          case alert(AlertState<Alert>)
          case meeting(id: Meeting.ID, title: String)
          case note(String)
          case empty
        }

        @CasePathable
        enum Action: Equatable, Sendable {
          case detail(DetailFeature.Action)
          case edit(EditFeature.Action)
          case alert(Alert)
          case meeting(Swift.Never)
          case note(Swift.Never)
          case empty(Swift.Never)
        }

        @Composable.ReducerBuilder<Self.State, Self.Action>
        static var body: Composable.Reduce<Self.State, Self.Action> {
          Composable.Reduce(
            Composable.EmptyReducer<Self.State, Self.Action>()
            .ifCaseLet(\Self.State.Cases.detail, action: \Self.Action.Cases.detail) {
              DetailFeature()
            }
            .ifCaseLet(\Self.State.Cases.edit, action: \Self.Action.Cases.edit) {
              EditFeature(autosave: true)
            }
          )
        }

        @dynamicMemberLookup
        enum CaseScope: Composable._CaseScopeProtocol, CasePaths.CasePathable {
          case detail(Composable.StoreOf<DetailFeature>)
          case edit(Composable.StoreOf<EditFeature>)
          case alert(AlertState<Alert>)
          case meeting(id: Meeting.ID, title: String)
          case note(String)
          case empty
          struct AllCasePaths {
            var detail: CasePaths.AnyCasePath<CaseScope, Composable.StoreOf<DetailFeature>> {
              CasePaths.AnyCasePath(
                embed: CaseScope.detail,
                extract: {
                  guard case let .detail(v0) = $0 else {
                    return nil
                  };
                  return v0
                }
              )
            }
            var edit: CasePaths.AnyCasePath<CaseScope, Composable.StoreOf<EditFeature>> {
              CasePaths.AnyCasePath(
                embed: CaseScope.edit,
                extract: {
                  guard case let .edit(v0) = $0 else {
                    return nil
                  };
                  return v0
                }
              )
            }
            var alert: CasePaths.AnyCasePath<CaseScope, AlertState<Alert>> {
              CasePaths.AnyCasePath(
                embed: CaseScope.alert,
                extract: {
                  guard case let .alert(v0) = $0 else {
                    return nil
                  };
                  return v0
                }
              )
            }
            var note: CasePaths.AnyCasePath<CaseScope, String> {
              CasePaths.AnyCasePath(
                embed: CaseScope.note,
                extract: {
                  guard case let .note(v0) = $0 else {
                    return nil
                  };
                  return v0
                }
              )
            }
            var empty: CasePaths.AnyCasePath<CaseScope, Void> {
              CasePaths.AnyCasePath(
                embed: {
                  CaseScope.empty
                },
                extract: {
                  guard case .empty = $0 else {
                    return nil
                  };
                  return ()
                }
              )
            }
          }
          static var allCasePaths: AllCasePaths {
            AllCasePaths()
          }
        }

        @preconcurrency @MainActor
        static func scope(_ store: Composable.Store<Self.State, Self.Action>) -> CaseScope {
          switch store.state {
          case .detail:
            return .detail(store.scope(state: \.detail, action: \.detail)!)
          case .edit:
            return .edit(store.scope(state: \.edit, action: \.edit)!)
          case let .alert(v0):
            return .alert(v0)
          case let .meeting(v0, v1):
            return .meeting(id: v0, title: v1)
          case let .note(v0):
            return .note(v0)
          case .empty:
            return .empty
          }
        }
      }

      extension Destination: Composable.CaseReducer, Composable.Reducer {
      }
      """#
    }
  }

  @Test func aCaseWithOneValueIsAFeatureUnlessIgnoredAsInTCA() {
    assertMacro {
      """
      @Reducer
      public enum Path {
        case message(String)
      }
      """
    } expansion: {
      #"""
      public enum Path {
        case message(String)

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        public enum State: Composable.CaseReducerState {
          public typealias StateReducer = Path
          case message(String.State)
        }

        @CasePathable
        public enum Action {
          case message(String.Action)
        }

        @Composable.ReducerBuilder<Self.State, Self.Action>
        public static var body: Composable.Reduce<Self.State, Self.Action> {
          Composable.Reduce(
            Composable.EmptyReducer<Self.State, Self.Action>()
            .ifCaseLet(\Self.State.Cases.message, action: \Self.Action.Cases.message) {
              String()
            }
          )
        }

        @dynamicMemberLookup
        public enum CaseScope: Composable._CaseScopeProtocol, CasePaths.CasePathable {
          case message(Composable.StoreOf<String>)
          public struct AllCasePaths {
            var message: CasePaths.AnyCasePath<CaseScope, Composable.StoreOf<String>> {
              CasePaths.AnyCasePath(
                embed: CaseScope.message,
                extract: {
                  guard case let .message(v0) = $0 else {
                    return nil
                  };
                  return v0
                }
              )
            }
          }
          public static var allCasePaths: AllCasePaths {
            AllCasePaths()
          }
        }

        @preconcurrency @MainActor
        public static func scope(_ store: Composable.Store<Self.State, Self.Action>) -> CaseScope {
          switch store.state {
          case .message:
            return .message(store.scope(state: \.message, action: \.message)!)
          }
        }
      }

      extension Path: Composable.CaseReducer, Composable.Reducer {
      }
      """#
    }
  }

  @Test func ifConfigAroundEnumCasesIsReported() {
    assertMacro {
      """
      @Reducer
      enum Destination {
        #if DEBUG
        case debug(DebugFeature)
        #endif
      }
      """
    } diagnostics: {
      """
      @Reducer
      enum Destination {
        #if DEBUG
        ╰─ 🛑 '#if' around the cases of an enum reducer is not supported by Composable's '@Reducer'
        case debug(DebugFeature)
        #endif
      }
      """
    }
  }
}
