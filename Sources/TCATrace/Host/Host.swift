// NB: What the recorder needs of its host that the two hosts' public APIs do not share. This
// folder is where the module knows which host it is built for (besides how `StateDiff` renders
// a value). `Composable` reports the route each action takes and keeps shared values' earlier
// values; on pointfreeco's TCA the route is read from the action and the state
// (`RouteDerivation`), the effects from what `TCABoundaries`' reducers report, and shared
// values' earlier values from the state before the reducer runs (`SharedValuesBefore`).

#if ComposableArchitecture
  import ComposableArchitecture
  @_spi(Reflection) import Swift
#else
  import Composable
#endif
import ActionObservation
import RuntimeSupport

/// The runtime the recorder is built against, as a session's `recorder_version` says it:
/// `0.1.0` on `Composable`, `0.1.0+ComposableArchitecture` on pointfreeco's TCA (semantic
/// versioning's build metadata). `tcatrace test` imports the module it names.
enum RecordingHost {
  static var versionSuffix: String {
    #if ComposableArchitecture
      "+ComposableArchitecture"
    #else
      ""
    #endif
  }
}

/// Runs `body`, a reducer call, for `action` from the state at `stateBefore`, and sets `route`
/// to the route the action took and `ownEffectCounts` to the effects each reducer along it
/// returned itself; returns what `body` returned.
///
/// `Composable`'s `Scope`, `ifLet` and `forEach` report the route as they run (see
/// `collectingActionRoute(_:effectCount:)`). On TCA the route is read from the action and the
/// state (``RouteDerivation``), and the effects a feature returned itself are what features
/// with the boundaries report, by their action's type: `BoundingReducer` and
/// `Reduce(view:internal:)` their own, a feature's `body` what it returned in all. A feature
/// that returned an effect while the child the action went on to returned none returned it
/// itself; otherwise a feature that reports nothing of its own counts 0.
///
/// - Parameters:
///   - classifier: The classifier of `Action`, which keeps on TCA the routes that depend only
///     on the action's cases.
///   - collectors: Where, on TCA, the collector of what features report is taken from.
///   - effectCount: How many effects what `body` returns is, as a route step counts them.
///
/// NB: The effect is returned, not put in a tuple with the route: in code that is not
/// specialized, it was copied into the tuple and then destroyed (about 780 instructions). Its
/// type is the caller's type parameter (``ReducerRecording``'s), whose metadata the caller has.
@inline(__always)
func collectingRoute<State, Action, ReducerEffect>(
  of action: Action, from stateBefore: UnsafePointer<State>, classifier: ActionClassifier?,
  collectors: ReusableRouteCollector, route: inout [ActionRoute], ownEffectCounts: inout [Int],
  effectCount: (ReducerEffect) -> Int, _ body: () -> ReducerEffect
) -> ReducerEffect {
  #if ComposableArchitecture
    let collector = collectors.take()
    defer { collectors.giveBack(collector) }
    // NB: Bound around the call itself, not through `ActionRouting.withCollector`: a generic
    // call, not specialized, looked up the effect type's metadata at every action.
    let previous = ActionRouting.bind(collector)
    let effect = body()
    ActionRouting.unbind(restoring: previous)
    let derived = RouteDerivation.route(of: action, in: stateBefore, classifier: classifier)
    route = derived.route
    // NB: Most actions stay in the root: what the root's feature reported is all there is to
    // read, and no array is made.
    if route.isEmpty {
      ownEffectCounts = collector.rootOnlyOwnEffectCounts(actionType: ObjectIdentifier(Action.self))
      return effect
    }
    let (actionTypes, isEnumReducer) = (derived.actionTypes, derived.isEnumReducer)
    let types = [ObjectIdentifier(Action.self)] + actionTypes
    let own = collector.ownEffectsByActionType
    let totals = collector.totalEffectsByActionType
    let depths = route.count
    // NB: The effects the feature at `depth` returned in all, when known: the root's are what
    // `body` returned; a feature with the boundaries reports its own; an enum reducer only
    // scopes to its cases, and returns what the case's feature does.
    func totalEffects(_ depth: Int) -> Int? {
      if depth == 0 { return effectCount(effect) }
      if let total = totals[types[depth]] { return total }
      if isEnumReducer[depth - 1], depth < depths { return totalEffects(depth + 1) }
      return nil
    }
    ownEffectCounts = types.indices.map { depth in
      var count = own[types[depth]] ?? 0
      // NB: A feature that returned an effect while the child the action went on to returned
      // none returned it itself, whatever reducer it was written with. Where both returned
      // one, TCA's merged effect does not tell whether the parent's held one of its own.
      if depth < depths, let total = totalEffects(depth), total > 0,
        totalEffects(depth + 1) == 0
      {
        count = max(count, total)
      }
      return count
    }
    return effect
  #else
    let effect: ReducerEffect
    (effect, route, ownEffectCounts) = collectingActionRoute(body, effectCount: effectCount)
    return effect
  #endif
}

/// What the shared values in a state held before an action, for the diff of the state before
/// and after it, which hold the same shared references: `Composable`'s store keeps it (see
/// `SharedChangeTracker`); on TCA it is read from the state before the reducer runs (see
/// `SharedValuesBefore`).
struct SharedValuesBeforeAction {
  #if ComposableArchitecture
    /// The shared values the state before held, by their references; `nil` for a state that
    /// cannot hold one (an empty dictionary made at each action cost it about 50 instructions).
    private let values: [ObjectIdentifier: Any]?
  #endif

  /// Reads what it needs of the state at `state`, the state before the action.
  ///
  /// - Parameter mayHoldShared: Whether `State`'s kind may hold a shared value
  ///   (``NodeKind/mayHoldShared``): where it cannot, there is nothing to read, and the state
  ///   is not boxed to find that out.
  ///
  /// NB: The state is read where it lies, only where it may hold a shared value: handed over
  /// as a value, it was copied for the call and destroyed in it.
  init<State>(in state: UnsafePointer<State>, mayHoldShared: Bool) {
    #if ComposableArchitecture
      self.values = mayHoldShared ? SharedValuesBefore.values(in: state.pointee) : nil
    #endif
  }

  /// Runs `body`, which records the action, with shared values comparing their values before
  /// the action with now.
  func comparing<Result>(_ body: () -> Result) -> Result {
    #if ComposableArchitecture
      if let values = self.values, !values.isEmpty {
        SharedValuesBefore.$current.withValue(
          SharedValuesBefore.Values(byID: values), operation: body)
      } else {
        body()
      }
    #else
      if let sharedChanges = SharedChangeTracker.current {
        sharedChanges.comparing(body)
      } else {
        body()
      }
    #endif
  }
}

#if ComposableArchitecture
  /// A TCA `BindingAction` as `Composable`'s reads, `.set(\.displayName, "Blob")`; `nil` for
  /// any other value. TCA's prints its key path whole (`\State.displayName`).
  func renderedBindingAction(_ value: Any) -> String? {
    // NB: Every `BindingAction` conforms: the cast tells a binding without naming its type.
    guard let binding = value as? any RenderedBindingAction else { return nil }
    if let rendered = binding.rendered { return rendered }
    let children = Mirror(reflecting: value).children
    guard
      let keyPath = children.first(where: { $0.label == "keyPath" })?.value as? AnyKeyPath,
      let bound = children.first(where: { $0.label == "value" })?.value
    else { return nil }
    return ".set(\\.\(KeyPathNames.name(of: keyPath)), \(StateDiff.render(bound)))"
  }

  /// TCA's `BindingAction`, read without a `Mirror`: its key path is public, and its value, in
  /// its internal `value: any Sendable`, is read at that field's offset. A mirror of each
  /// keystroke's binding cost a typing app about 39,000 instructions an action.
  protocol RenderedBindingAction {
    /// `nil` when the value's field is not where TCA 1.25 keeps it: the mirror reads it then.
    var rendered: String? { get }
  }

  extension BindingAction: RenderedBindingAction {
    var rendered: String? {
      guard let offset = BindingValueField.offset else { return nil }
      let bound = withUnsafeBytes(of: self) { $0.load(fromByteOffset: offset, as: Any.self) }
      return ".set(\\.\(KeyPathNames.name(of: self.keyPath)), \(StateDiff.render(bound)))"
    }
  }

  /// Where a `BindingAction` keeps its value. Its fields (a key path, two closures and an
  /// existential) are laid out alike whatever its root, so one root's layout tells every one's.
  enum BindingValueField {
    static let offset: Int? = {
      var found: Int?
      let described = _forEachField(of: BindingAction<Int>.self) { name, offset, type, _ in
        if String(cString: name) == "value", type == Any.self { found = offset }
        return true
      }
      return described ? found : nil
    }()
  }

  extension PresentationState: _TransparentStateWrapper, _StateWrapperType {
    package var wrappedState: Any { self.wrappedValue as Any }
    package static var wrappedStateType: Any.Type { State.self }
    package static var readsAsOptional: Bool { true }
  }
#else
  /// `Composable`'s `BindingAction`, which ``StateDiff/render(_:)`` renders as its
  /// `customDumpDescription` reads, `.set(\.displayName, "Blob")`, with its value rendered as
  /// a state's leaves are: CustomDump looks for a dozen protocols before it prints a string,
  /// once for each keystroke a text field sends.
  protocol RenderedBindingAction {
    var rendered: String { get }
  }

  extension BindingAction: RenderedBindingAction {
    var rendered: String {
      ".set(\\.\(KeyPathNames.name(of: self.keyPath)), \(StateDiff.render(self.value)))"
    }
  }
#endif

/// How a value of `type` is rendered where it lies, when it is a `BindingAction` (a text field's
/// keystroke): read as its own type, where ``StateDiff/render(_:)`` is handed it boxed and casts
/// it to ``RenderedBindingAction`` (about 2,500 instructions, at each keystroke); `nil` for
/// any other type, or where the binding cannot render itself.
func bindingActionRenderer(for type: Any.Type) -> ((UnsafeRawPointer) -> String?)? {
  guard let binding = type as? any RenderedBindingAction.Type else { return nil }
  func renderer<Binding: RenderedBindingAction>(
    _: Binding.Type
  ) -> (UnsafeRawPointer) -> String? {
    { $0.load(as: Binding.self).rendered }
  }
  return renderer(binding)
}
