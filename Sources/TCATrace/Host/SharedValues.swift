import RuntimeSupport

#if ComposableArchitecture
  import ActionObservation
  import ComposableArchitecture

  // NB: On TCA a `@Shared` value's reference holds only its value now, in the state before an
  // action as in the state after it. The recorder keeps each shared value's value from before
  // the action itself: it reads them from the state before the reducer runs, by the identity of
  // their reference (swift-sharing's `Shared` names it through CustomDump's
  // `_CustomDiffObject`), and the diff reads them back. `Composable`'s store keeps them instead.

  extension Shared: _StateWrapperType {
    package static var wrappedStateType: Any.Type { Value.self }
    package static var readsAsOptional: Bool { false }
  }

  extension Shared: _SharedStateValue {
    package var sharedValues: (before: Any, after: Any) {
      let now = self.wrappedValue
      return (SharedValuesBefore.current?.byID[self._objectIdentifier] ?? now, now)
    }
  }

  /// The shared values in a state before an action, by their reference's identity.
  enum SharedValuesBefore {
    /// The values of the action being recorded on this task, while the recorder reads it.
    @TaskLocal static var current: Values?

    /// Values read and used on the thread that records one action, synchronously.
    struct Values: @unchecked Sendable {
      let byID: [ObjectIdentifier: Any]
    }

    /// The shared values in `state`, now; empty when it holds none.
    ///
    /// Only the parts whose type may hold a shared value are looked into (``NodeKind``): a
    /// struct whose properties cannot, a number, a string, or an array, set or dictionary whose
    /// element types cannot is passed over; any other collection of `Equatable` elements (an
    /// `IdentifiedArray`, a `StackState`) is looked through.
    static func values(in state: Any) -> [ObjectIdentifier: Any] {
      var values: [ObjectIdentifier: Any] = [:]
      self.collect(state, into: &values, depth: 0)
      if !values.isEmpty, sharedValuesExist.loadRelaxed() == 0 {
        sharedValuesExist.storeRelaxed(1)
      }
      return values
    }

    private static func collect(
      _ value: Any, into values: inout [ObjectIdentifier: Any], depth: Int
    ) {
      // NB: Bounded as the diff is: a state deeper than this is not looked into further.
      guard depth < 64 else { return }
      let kind = NodeKind.of(value)
      guard kind.mayHoldShared else { return }
      if kind.isShared, let shared = value as? any _CustomDiffObject {
        values[shared._objectIdentifier] = shared._customDiffValues.1
        return
      }
      if let wrapper = value as? any _TransparentStateWrapper {
        return self.collect(wrapper.wrappedState, into: &values, depth: depth + 1)
      }
      for child in Mirror(reflecting: value).children {
        self.collect(child.value, into: &values, depth: depth + 1)
      }
    }
  }
#endif
