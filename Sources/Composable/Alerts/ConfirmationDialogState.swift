import Foundation

/// A confirmation dialog, as state: like ``AlertState``, with a title that may be hidden.
///
/// ```swift
/// state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
///   TextState("Share")
/// } actions: {
///   ButtonState(action: .copyLink) { TextState("Copy link") }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// }
/// ```
public struct ConfirmationDialogState<Action>: Identifiable {
  public let id: UUID
  public var buttons: [ButtonState<Action>]
  public var message: TextState?
  public var title: TextState
  public var titleVisibility: ConfirmationDialogStateTitleVisibility

  init(
    id: UUID, buttons: [ButtonState<Action>], message: TextState?, title: TextState,
    titleVisibility: ConfirmationDialogStateTitleVisibility
  ) {
    self.id = id
    self.buttons = buttons
    self.message = message
    self.title = title
    self.titleVisibility = titleVisibility
  }

  /// A dialog with `title` (shown as `titleVisibility` says), the buttons `actions` builds,
  /// and a `message`.
  public init(
    titleVisibility: ConfirmationDialogStateTitleVisibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.init(
      id: UUID(), buttons: actions(), message: message?(), title: title(),
      titleVisibility: titleVisibility
    )
  }

  /// The same dialog, its buttons sending transformed actions.
  public func map<NewAction>(
    _ transform: (Action?) -> NewAction?
  ) -> ConfirmationDialogState<NewAction> {
    ConfirmationDialogState<NewAction>(
      id: self.id, buttons: self.buttons.map { $0.map(transform) }, message: self.message,
      title: self.title, titleVisibility: self.titleVisibility
    )
  }
}

/// Whether a confirmation dialog shows its title.
public enum ConfirmationDialogStateTitleVisibility: Hashable, Sendable {
  case automatic
  case hidden
  case visible
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
      && lhs.titleVisibility == rhs.titleVisibility
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.title)
    hasher.combine(self.message)
    hasher.combine(self.buttons)
    hasher.combine(self.titleVisibility)
  }
}

extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: _EphemeralState {}

extension ConfirmationDialogState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [
      ("titleVisibility", self.titleVisibility), ("title", self.title),
    ]
    if !self.buttons.isEmpty { children.append(("actions", self.buttons)) }
    if let message = self.message { children.append(("message", message)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension ConfirmationDialogState: CustomReflectable {
  public var customMirror: Mirror { self.customDumpMirror }
}
