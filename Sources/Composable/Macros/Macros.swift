/// Makes a type a reducer, as TCA's `@Reducer` does.
///
/// On a struct: conforms it to ``Reducer``, makes its `Action` (and an enum `State`)
/// `@CasePathable`, and puts `@ReducerBuilder` on its `body`. A struct with no `State`,
/// `Action` or `body` gets empty ones.
///
/// ```swift
/// @Reducer
/// struct Counter {
///   @ObservableState
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementButtonTapped }
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
///
/// On an enum of features (a destination, a navigation path): synthesizes the `State` and
/// `Action` enums with a case per feature, a `body` that runs each case's feature, and
/// `scope(_:)`. Cases that hold plain data are kept in `State` only (``ReducerCaseIgnored()``);
/// `AlertState` and `ConfirmationDialogState` cases have actions but no feature
/// (``ReducerCaseEphemeral()``).
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case settings(SettingsFeature)
///   case alert(AlertState<Alert>)
/// }
/// ```
@attached(
  member,
  names: named(State), named(Action), named(init), named(body), named(CaseScope), named(scope)
)
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
public macro Reducer() = #externalMacro(module: "ComposableMacros", type: "ReducerMacro")

/// ``Reducer()`` on an enum, with conformances for the `State` and `Action` it synthesizes:
/// `@Reducer(state: .equatable, .sendable, action: .equatable)`.
@attached(
  member,
  names: named(State), named(Action), named(init), named(body), named(CaseScope), named(scope)
)
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
public macro Reducer(state: _SynthesizedConformance..., action: _SynthesizedConformance...) =
  #externalMacro(module: "ComposableMacros", type: "ReducerMacro")

/// A protocol conformance for the `State` or `Action` that ``Reducer(state:action:)``
/// synthesizes.
public struct _SynthesizedConformance: Sendable {
  /// `Codable`.
  public static let codable = Self()
  /// `Decodable`.
  public static let decodable = Self()
  /// `Encodable`.
  public static let encodable = Self()
  /// `Equatable`.
  public static let equatable = Self()
  /// `Hashable`.
  public static let hashable = Self()
  /// `Sendable`.
  public static let sendable = Self()
}

/// Marks a case of an enum reducer that holds ephemeral state, such as `AlertState`: it has
/// actions but no feature of its own.
@attached(peer, names: named(_))
public macro ReducerCaseEphemeral() =
  #externalMacro(module: "ComposableMacros", type: "ReducerCaseEphemeralMacro")

/// Marks a case of an enum reducer that holds plain data rather than a feature.
@attached(peer, names: named(_))
public macro ReducerCaseIgnored() =
  #externalMacro(module: "ComposableMacros", type: "ReducerCaseIgnoredMacro")

/// Conforms a state type to ``ObservableState``, as TCA's macro does.
///
/// State stays a value type: equality, copying and what CustomDump shows of it are unchanged.
/// Properties are not observed one by one: nothing here draws a UI from them.
@attached(extension, conformances: Observable, ObservableState)
@attached(member, names: named(_$id), named(_$observationRegistrar), named(_$willModify))
@attached(memberAttribute)
public macro ObservableState() =
  #externalMacro(module: "ComposableMacros", type: "ObservableStateMacro")

/// Marks a property of an ``ObservableState()`` type as not observed.
@attached(accessor, names: named(willSet))
public macro ObservationStateIgnored() =
  #externalMacro(module: "ComposableMacros", type: "ObservationStateIgnoredMacro")

/// Projects an optional child feature's state as a ``PresentationState``, `$destination`, for
/// `ifLet(\.$destination, action: \.destination)`; the property itself stays a stored optional.
///
/// ```swift
/// @ObservableState
/// struct State {
///   @Presents var destination: Destination.State?
/// }
/// ```
@attached(peer, names: prefixed(`$`))
public macro Presents() = #externalMacro(module: "ComposableMacros", type: "PresentsMacro")

/// Conforms a type with a `store` to ``ViewActionSending``, so that it sends view actions with
/// `send(.loginButtonTapped)` instead of `store.send(.view(.loginButtonTapped))`, as TCA's macro
/// does.
///
/// The macro also reports, as TCA's does: a type without a `store` property (an error, with a
/// fix-it adding `let store: StoreOf<Feature>`), a `store` less visible than the type (an
/// error), and `store.send` or `self.store.send` in the type (a warning, with a fix-it to
/// `send` when the action is `.view(…)`).
@attached(extension, conformances: ViewActionSending)
public macro ViewAction<R: Reducer>(for: R.Type) =
  #externalMacro(module: "ComposableMacros", type: "ViewActionMacro") where R.Action: ViewAction
