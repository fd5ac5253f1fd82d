import Dependencies
import IssueReporting
#if canImport(SwiftUI)
  import SwiftUI
#endif

extension DependencyValues {
  /// An effect that dismisses the current presentation.
  ///
  /// See ``DismissEffect``.
  public var dismiss: DismissEffect {
    get { self[DismissKey.self] }
    set { self[DismissKey.self] = newValue }
  }

  /// Whether the current feature is presented by a parent: `true` in reducers run by `ifLet`
  /// with a ``PresentationAction`` and by `forEach` on a ``StackState``.
  public var isPresented: Bool {
    self.dismiss.dismiss != nil
  }
}

private enum DismissKey: DependencyKey {
  static let liveValue = DismissEffect()
  static let testValue = DismissEffect()
}

/// An effect that dismisses the current presentation.
///
/// Call it from an effect of a presented feature to end the presentation without asking the
/// parent:
///
/// ```swift
/// @Reducer
/// struct ChildFeature {
///   @Dependency(\.dismiss) var dismiss
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       switch action {
///       case .closeButtonTapped:
///         return .run { _ in await self.dismiss() }
///       }
///     }
///   }
/// }
/// ```
///
/// The nearest parent that presents the feature with `ifLet(_:action:)` on a
/// ``PresentationState`` receives ``PresentationAction/dismiss``; one that pushes it with
/// `forEach(_:action:)` on a ``StackState`` receives ``StackAction/popFrom(id:)``. Both arrive
/// as actions sent by an effect of the action that presented the feature.
///
/// A feature that is not presented cannot be dismissed: calling it reports an issue (a test
/// failure in tests). Use `@Dependency(\.isPresented)` to tell, or override the dependency to
/// test a child on its own:
///
/// ```swift
/// let isDismissed = LockIsolated(false)
/// let store = Store(initialState: Child.State()) {
///   Child()
/// } withDependencies: {
///   $0.dismiss = DismissEffect { isDismissed.setValue(true) }
/// }
/// ```
public struct DismissEffect: Sendable {
  var dismiss: (@MainActor @Sendable () -> Void)?

  init() {
    self.dismiss = nil
  }

  /// A dismiss effect that runs `dismiss` when called.
  public init(_ dismiss: @escaping @MainActor @Sendable () -> Void) {
    self.dismiss = dismiss
  }

  /// Dismisses the current presentation.
  @MainActor
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    self.perform(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Dismisses the current presentation; the animation is accepted and ignored.
  @MainActor
  public func callAsFunction(
    animation: Animation?,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    self.perform(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Dismisses the current presentation; the transaction is accepted and ignored.
  @MainActor
  public func callAsFunction(
    transaction: Transaction,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    self.perform(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  @MainActor
  private func perform(
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    guard let dismiss = self.dismiss else {
      reportIssue(
        """
        A reducer requested dismissal at "\(fileID):\(line)", but couldn't be dismissed.

        This is generally considered an application logic error, and can happen when a reducer \
        assumes it runs in a presentation context. If a reducer can run at both the root level \
        of an application, as well as in a presentation destination, use \
        @Dependency(\\.isPresented) to determine if the reducer is being presented before \
        calling @Dependency(\\.dismiss).
        """,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
      return
    }
    dismiss()
  }
}

/// The ids of the effect that lets a presented feature dismiss itself.
///
/// When `ifLet` presents a feature, or `forEach` pushes one, it starts an effect, marked with
/// `DismissalID(target: child, part: .whole)` and the child's own id, that waits under
/// `DismissalID(target: child, part: .wait)` until the feature's ``DismissEffect`` ends the
/// wait, and then sends the parent the action that dismisses the feature. The child going away
/// for another reason cancels the effect without a word; ``Store/finish()`` leaves it alone
/// while it waits.
struct DismissalID: Hashable, Sendable {
  enum Part: Hashable, Sendable { case whole, wait }
  let target: KeyPathID
  let part: Part

  /// The id of the wait of the effect this id marks.
  var wait: CancelID { CancelID(DismissalID(target: self.target, part: .wait)) }
}

extension Effect {
  /// The effect that waits for `child` to dismiss itself, then sends `dismissAction`; none when
  /// no store runs the reducer.
  static func dismissal(
    of child: KeyPathID, sending dismissAction: @escaping @Sendable () -> Action
  ) -> Self {
    guard let handle = StoreContext.current else { return .none }
    let whole = DismissalID(target: child, part: .whole)
    return Self(
      operation: .cancellable(
        id: CancelID(whole),
        cancelInFlight: false,
        .cancellable(
          id: CancelID(child),
          cancelInFlight: false,
          .run(nil, name: nil) { send in
            await handle.waitForDismissal(whole.wait)
            await send(dismissAction())
          }
        )
      )
    )
  }
}

/// Whether the child presented under `child` needs its dismissal effect started: it was just
/// presented (`isNew`), or it was presented without this reducer seeing it appear (in the
/// initial state, or by a reducer outside the `ifLet` or `forEach`) and the store running the
/// reducer has no such effect running.
func needsDismissal(of child: KeyPathID, isNew: Bool) -> Bool {
  if isNew { return true }
  guard let handle = StoreContext.current else { return false }
  // NB: A handle is current only while its store, on the main actor, runs the reducer.
  return MainActor.assumeIsolated {
    handle.isRunning.map { !$0(CancelID(DismissalID(target: child, part: .whole))) } ?? false
  }
}

/// The ``DismissEffect`` of a child presented under `child` in the store running the reducer.
func dismissEffect(for child: KeyPathID) -> DismissEffect {
  let handle = StoreContext.current
  let whole = DismissalID(target: child, part: .whole)
  return DismissEffect { handle?.dismiss(wait: whole.wait, startedBy: CancelID(whole)) }
}

/// Which presentation a presented child's state is: its type, its case when it is an enum (a
/// destination), and its `id` when it, or the case's value, is `Identifiable`.
///
/// A parent that replaces a presented child with another of a different identity dismisses the
/// first (its effects are cancelled) and presents the second, as TCA does.
struct NavigationIdentity: Hashable, @unchecked Sendable {
  // NB: `AnyHashable` is not `Sendable`; it only ever wraps an `id`, read once.
  private let type: ObjectIdentifier
  private let tag: String?
  private let id: AnyHashable?

  init(of value: Any) {
    self.type = ObjectIdentifier(Swift.type(of: value))
    if let id = identifiableID(of: value) {
      self.tag = nil
      self.id = id
      return
    }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum else {
      self.tag = nil
      self.id = nil
      return
    }
    if let payload = mirror.children.first {
      self.tag = payload.label
      self.id = identifiableID(of: payload.value)
    } else {
      self.tag = String(describing: value)
      self.id = nil
    }
  }
}

private func identifiableID(of value: Any) -> AnyHashable? {
  func id(_ value: some Identifiable) -> AnyHashable { AnyHashable(value.id) }
  guard let value = value as? any Identifiable else { return nil }
  return id(value)
}

/// Whether the child presented before an action and the one presented after it differ: one of
/// them is `nil`, or their identities differ.
func presentationChanged(_ before: Any?, _ after: Any?) -> Bool {
  switch (before, after) {
  case (nil, nil): false
  case (nil, _), (_, nil): true
  case let (before?, after?): NavigationIdentity(of: before) != NavigationIdentity(of: after)
  }
}
