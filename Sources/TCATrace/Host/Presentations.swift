#if ComposableArchitecture
  import ComposableArchitecture

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

    private static func presented(before: Any, after: Any) -> Bool {
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
      let type = String(reflecting: Swift.type(of: value))
      if type.hasPrefix("ComposableArchitecture.PresentationState<") {
        guard let wrapper = value as? any _TransparentStateWrapper else { return nil }
        let presented = Mirror(reflecting: wrapper.wrappedState).children.first?.value
        guard let presented, !self.isEphemeral(presented) else { return [] }
        let mirror = Mirror(reflecting: presented)
        let label = mirror.displayStyle == .enum ? mirror.children.first?.label ?? "" : ""
        return [String(reflecting: Swift.type(of: presented)) + "." + label]
      }
      guard type.hasPrefix("ComposableArchitecture.StackState<"),
        let mounted = Mirror(reflecting: value).children.first(where: { $0.label == "_mounted" })
      else { return nil }
      return Set(Mirror(reflecting: mounted.value).children.map { String(reflecting: $0.value) })
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
