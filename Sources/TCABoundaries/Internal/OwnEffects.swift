import ActionObservation
@_spi(Reflection) import Swift
import RuntimeSupport

#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif

extension Effect {
  /// How many effects this is, as a route step counts them: `Composable` counts each merged
  /// effect; on TCA, which merges effects into one, it is 0 for `.none` and 1 otherwise.
  package var effectCount: Int {
    #if ComposableArchitecture
      self.cannotSendActions ? 0 : 1
    #else
      self.operationCount
    #endif
  }

  #if ComposableArchitecture
    /// Whether this is `.none`. TCA's `Effect` keeps its operation private: its case is read
    /// with the operation enum's own value witness (see ``EffectNoneTest``).
    package var cannotSendActions: Bool {
      EffectNoneTest.of(Self.self).isNone(self)
    }

    /// Whether this is `.none`, read through reflection: what ``EffectNoneTest`` does where it
    /// cannot read an effect's layout.
    var isNoneByReflection: Bool {
      guard let operation = Mirror(reflecting: self).children.first?.value else { return false }
      return String(describing: operation) == "none"
    }
  #endif
}

#if ComposableArchitecture
  /// Tells TCA's `Effect.none` from every other effect of one action type, in constant time.
  ///
  /// `Effect` holds one stored property, its private `operation` enum. The tag of the case
  /// `Effect.none` holds is read once, with that enum's own `getEnumTag` value witness, and
  /// then each effect's tag is compared with it, at every feature along the action's route:
  /// reflection (a mirror, and the operation's description) would cost a large part of
  /// recording an action on TCA.
  package final class EffectNoneTest: @unchecked Sendable {
    // NB: `@unchecked`: immutable once built; the pointers are the type's, which live forever.
    private struct Operation {
      let offset: Int
      let metadata: UnsafeRawPointer
      let getEnumTag: EnumWitnesses.GetEnumTag
      let noneTag: UInt32
    }

    /// `nil` when the effect's layout is not the one expected: reflection answers then.
    private let operation: Operation?

    private static let cache = Locked<[ObjectIdentifier: EffectNoneTest]>([:])

    /// The test for effects of `Action`, built the first time it is asked for.
    package static func of<Action>(_: Effect<Action>.Type) -> EffectNoneTest {
      self.cache.value(for: ObjectIdentifier(Effect<Action>.self)) {
        EffectNoneTest(Effect<Action>.self)
      }
    }

    private init<Action>(_: Effect<Action>.Type) {
      var fields: [(name: String, offset: Int, type: Any.Type)] = []
      let described = _forEachField(of: Effect<Action>.self) { name, offset, type, _ in
        fields.append((String(cString: name), offset, type))
        return true
      }
      guard !SignedPointers.forbidLayoutReads, described, fields.count == 1,
        fields[0].name == "operation",
        MetadataKind.of(fields[0].type) == MetadataKind.enum
      else {
        self.operation = nil
        return
      }
      let witnesses = EnumWitnesses(enumType: fields[0].type)
      let (offset, metadata, getEnumTag) = (
        fields[0].offset, witnesses.metadata, witnesses.getEnumTag
      )
      let noneTag = withUnsafeBytes(of: Effect<Action>.none) {
        getEnumTag($0.baseAddress! + offset, metadata)
      }
      self.operation = Operation(
        offset: offset, metadata: metadata, getEnumTag: getEnumTag, noneTag: noneTag)
    }

    /// Whether the effect at `effect`, of the action type this test was built for, is `.none`;
    /// `nil` where the effect's layout is not the one expected (ask ``isNone(_:)``). Code that
    /// is not specialized looks no metadata up for it.
    package func isNone(at effect: UnsafeRawPointer) -> Bool? {
      guard let operation = self.operation else { return nil }
      return operation.getEnumTag(effect + operation.offset, operation.metadata)
        == operation.noneTag
    }

    /// Whether `effect` is `.none`.
    package func isNone<Action>(_ effect: Effect<Action>) -> Bool {
      guard let operation = self.operation else { return effect.isNoneByReflection }
      return withUnsafeBytes(of: effect) { bytes in
        operation.getEnumTag(bytes.baseAddress! + operation.offset, operation.metadata)
          == operation.noneTag
      }
    }
  }
#endif

/// Tells a recorder the effects a feature with the boundaries returned for an action: itself
/// (`.own`) or in all, its children's included (`.all`).
///
/// On TCA a recorder cannot see which reducer along an action's route returned which effects
/// (TCA merges them): a `BoundingReducer`'s own reduce and `Reduce(view:internal:)` say what
/// they returned themselves, and a feature's `body` what it returned in all.
/// `Composable`'s scoping reducers count them themselves: there this does nothing.
@usableFromInline
func reportEffects<Action>(_ effect: Effect<Action>, of _: Action.Type, _ scope: EffectScope) {
  #if ComposableArchitecture
    guard ActionRouting.collector != nil else { return }
    let (count, actionType) = (effect.effectCount, ObjectIdentifier(Action.self))
    switch scope {
    case .own: ActionRouting.reportOwnEffects(count, actionType: actionType)
    case .all: ActionRouting.reportTotalEffects(count, actionType: actionType)
    }
  #endif
}

/// Which effects ``reportEffects(_:of:_:)`` reports.
@usableFromInline
enum EffectScope {
  case own
  case all
}

#if ComposableArchitecture
  extension Reducer where Action: TCAFeatureAction, Body: Reducer<State, Action> {
    /// Runs the feature's `body`, and tells a recorder the effects it returned in all.
    ///
    /// TCA's `Scope`, `ifLet` and `forEach` call a child through this requirement; this is
    /// TCA's own default for a reducer with a `body`, for a feature with the boundaries, plus
    /// the report. Knowing what a feature returned in all, a recorder knows that the feature
    /// above it returned an effect itself when the feature returned none and its parent one,
    /// whatever reducer it was written with.
    @inlinable
    public func _reduce(into state: inout State, action: Action) -> Effect<Action> {
      let effect = self.body._reduce(into: &state, action: action)
      reportEffects(effect, of: Action.self, .all)
      return effect
    }
  }
#endif
