import Foundation

/// An alert, as state: its title, message and buttons, and the actions the buttons send.
///
/// ```swift
/// state.alert = AlertState {
///   TextState("Delete \(todo.title)?")
/// } actions: {
///   ButtonState(role: .destructive, action: .confirmDeletion) {
///     TextState("Delete")
///   }
///   ButtonState(role: .cancel) {
///     TextState("Cancel")
///   }
/// } message: {
///   TextState("This cannot be undone.")
/// }
/// ```
///
/// Hold it with `@Presents var alert: AlertState<Action.Alert>?` and run it with
/// `.ifLet(\.$alert, action: \.alert)`: the alert goes away once a button sent its action.
/// Alerts are equal when they read and act the same; CustomDump shows them without ids.
public struct AlertState<Action>: Identifiable {
  public let id: UUID
  public var buttons: [ButtonState<Action>]
  public var message: TextState?
  public var title: TextState

  init(id: UUID, buttons: [ButtonState<Action>], message: TextState?, title: TextState) {
    self.id = id
    self.buttons = buttons
    self.message = message
    self.title = title
  }

  /// An alert with `title`, the buttons `actions` builds (default: none, and a UI shows an OK
  /// button), and a `message`.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.init(id: UUID(), buttons: actions(), message: message?(), title: title())
  }

  /// The same alert, its buttons sending transformed actions.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> AlertState<NewAction> {
    AlertState<NewAction>(
      id: self.id, buttons: self.buttons.map { $0.map(transform) }, message: self.message,
      title: self.title
    )
  }
}

extension AlertState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension AlertState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.title)
    hasher.combine(self.message)
    hasher.combine(self.buttons)
  }
}

extension AlertState: Sendable where Action: Sendable {}

extension AlertState: _EphemeralState {}

extension AlertState: CustomDumpReflectable {
  /// `AlertState(title: "Delete?", actions: [...], message: "...")`: no id.
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [("title", self.title)]
    if !self.buttons.isEmpty { children.append(("actions", self.buttons)) }
    if let message = self.message { children.append(("message", message)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

/// Reflected as CustomDump shows it, so that a diff of state compares what the alert reads and
/// does, not its id.
extension AlertState: CustomReflectable {
  public var customMirror: Mirror { self.customDumpMirror }
}
