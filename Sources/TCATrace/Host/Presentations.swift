#if ComposableArchitecture
  import ComposableArchitecture
  import RuntimeSupport
  @_spi(Reflection) import Swift

  /// Whether an action presented a feature or pushed a stack element: TCA's `ifLet` and
  /// `forEach` then return an effect that runs until the feature is dismissed, which
  /// ``RecordingStore/finish()`` must not wait for.
  ///
  /// Read, by reflection, from the state of each feature the action went through (only those
  /// run an `ifLet` or a `forEach` for it), before and after: a `forEach` on a `StackState`
  /// returns that effect when it mounts an element it had not (its `_mounted`); an `ifLet` on
  /// a `PresentationState` when what it presents is new and not an alert or a dialog
  /// (TCA's `_EphemeralState`). TCA keeps the presentation's own id internal: "new" is read
  /// as a value where there was none, or one of another type or case. An `ifLet` also returns
  /// one the first time it runs after an ancestor presented the feature for it, which this
  /// does not see: there ``RecordingStore/finish()`` waits until the feature is dismissed.
  enum Presentations {
    static func presented(by action: Any, before: Any, after: Any) -> Bool {
      let statesBefore = [before] + RouteDerivation.states(of: action, in: before)
      let statesAfter = [after] + RouteDerivation.states(of: action, in: after)
      return zip(statesBefore, statesAfter).contains { self.presented(before: $0, after: $1) }
    }

    /// Whether an action that went through no child (its route from the state before it is
    /// empty, so no child's state is read) presented a feature or pushed an element: only the
    /// root's state is read, and only when ``mayPresent(_:)`` says it may, given as
    /// `rootMayPresent` (found once a reducer).
    static func presentedAtRoot<State>(before: State, after: State, rootMayPresent: Bool) -> Bool {
      rootMayPresent && self.presented(before: before, after: after)
    }

    private static func presented(before: Any, after: Any) -> Bool {
      guard self.mayPresent(Swift.type(of: after)) else { return false }
      let mountedBefore = Dictionary(
        Mirror(reflecting: before).children.compactMap { child in
          child.label.flatMap { label in self.mounted(child.value).map { (label, $0) } }
        },
        uniquingKeysWith: { first, _ in first }
      )
      return Mirror(reflecting: after).children.contains { child in
        guard let label = child.label, let mounted = self.mounted(child.value) else { return false }
        return !mounted.isSubset(of: mountedBefore[label] ?? [])
      }
    }

    /// What a `PresentationState` presents (its value's type and case, when it is not an
    /// alert or a dialog), or the elements a `StackState` has mounted, as text; `nil` for any
    /// other value.
    private static func mounted(_ value: Any) -> Set<String>? {
      let type = RouteDerivation.name(of: Swift.type(of: value))
      if type.hasPrefix(Self.presentationState) {
        guard let wrapper = value as? any _TransparentStateWrapper else { return nil }
        let presented = Mirror(reflecting: wrapper.wrappedState).children.first?.value
        guard let presented, !self.isEphemeral(presented) else { return [] }
        let mirror = Mirror(reflecting: presented)
        let label = mirror.displayStyle == .enum ? mirror.children.first?.label ?? "" : ""
        return [RouteDerivation.name(of: Swift.type(of: presented)) + "." + label]
      }
      guard type.hasPrefix(Self.stackState),
        let mounted = Mirror(reflecting: value).children.first(where: { $0.label == "_mounted" })
      else { return nil }
      return Set(Mirror(reflecting: mounted.value).children.map { String(reflecting: $0.value) })
    }

    private static let presentationState = "ComposableArchitecture.PresentationState<"
    private static let stackState = "ComposableArchitecture.StackState<"

    /// Whether a state of each type may hold a presentation or a stack among its fields, found
    /// once a type: the check otherwise reflects every field of every state on the route at
    /// every action with an effect.
    private static let presentingTypes = Locked<[ObjectIdentifier: Bool]>([:])

    /// Whether a value of `type` may hold a `PresentationState` or a `StackState` as one of its
    /// own fields: `false` only for a struct whose fields the standard library describes and
    /// none of which is one, or an existential that could hold one, and that does not give a
    /// mirror of its own (a state kept in a class, mirrored as the fields it holds there).
    static func mayPresent(_ type: Any.Type) -> Bool {
      self.presentingTypes.value(for: ObjectIdentifier(type)) {
        guard MetadataKind.of(type) == MetadataKind.struct, !(type is any CustomReflectable.Type)
        else { return true }
        var mayPresent = false
        let described = _forEachField(of: type) { _, _, field, _ in
          let kind = MetadataKind.of(field)
          let name = RouteDerivation.name(of: field)
          if kind == MetadataKind.existential || kind == MetadataKind.extendedExistential
            || name.hasPrefix(Self.presentationState) || name.hasPrefix(Self.stackState)
          {
            mayPresent = true
            return false
          }
          return true
        }
        return mayPresent || !described
      }
    }

    /// Whether a presented value is an alert or a dialog, or an enum case holding one.
    private static func isEphemeral(_ value: Any) -> Bool {
      if value is any _EphemeralState { return true }
      let mirror = Mirror(reflecting: value)
      guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else {
        return false
      }
      return payload is any _EphemeralState
    }
  }
#endif
