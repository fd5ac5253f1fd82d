import Foundation
#if canImport(SwiftUI)
  import SwiftUI
#endif

/// A button of an ``AlertState`` or a ``ConfirmationDialogState``: its label, role, and the
/// action it sends.
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) {
///   TextState("Delete")
/// }
/// ```
public struct ButtonState<Action>: Identifiable {
  public let id: UUID
  public let action: ButtonStateAction<Action>
  public let label: TextState
  public let role: ButtonStateRole?

  init(id: UUID, action: ButtonStateAction<Action>, label: TextState, role: ButtonStateRole?) {
    self.id = id
    self.action = action
    self.label = label
    self.role = role
  }

  /// A button that sends `action` (default: none, a button that only dismisses).
  public init(
    role: ButtonStateRole? = nil,
    action: ButtonStateAction<Action> = .send(nil),
    label: () -> TextState
  ) {
    self.init(id: UUID(), action: action, label: label(), role: role)
  }

  /// A button that sends `action`.
  public init(role: ButtonStateRole? = nil, action: Action, label: () -> TextState) {
    self.init(id: UUID(), action: .send(action), label: label(), role: role)
  }

  /// Hands the button's action, if any, to `perform`: what a UI does when it is tapped.
  public func withAction(_ perform: (Action?) -> Void) {
    perform(self.action.action)
  }

  /// Hands the button's action, if any, to `perform`.
  @MainActor
  public func withAction(_ perform: @MainActor (Action?) async -> Void) async {
    await perform(self.action.action)
  }

  /// The same button sending a transformed action.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> ButtonState<NewAction> {
    ButtonState<NewAction>(
      id: self.id, action: self.action.map(transform), label: self.label, role: self.role
    )
  }
}

/// The action a ``ButtonState`` sends.
public struct ButtonStateAction<Action> {
  public let type: _ActionType

  /// Sends `action`, or nothing.
  public static func send(_ action: Action?) -> Self {
    Self(type: .send(action))
  }

  /// Sends `action`, or nothing; the animation is accepted and ignored.
  public static func send(_ action: Action?, animation: Animation?) -> Self {
    Self(type: .send(action))
  }

  /// The action, if the button sends one.
  public var action: Action? {
    switch self.type {
    case let .send(action): action
    }
  }

  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> ButtonStateAction<NewAction> {
    .send(transform(self.action))
  }

  public enum _ActionType {
    case send(Action?)
  }
}

/// What a button is for: `cancel` or `destructive`.
public enum ButtonStateRole: Hashable, Sendable {
  case cancel
  case destructive
}

extension ButtonStateAction: Equatable where Action: Equatable {}
extension ButtonStateAction._ActionType: Equatable where Action: Equatable {}
extension ButtonStateAction: Hashable where Action: Hashable {}
extension ButtonStateAction._ActionType: Hashable where Action: Hashable {}
extension ButtonStateAction: Sendable where Action: Sendable {}
extension ButtonStateAction._ActionType: Sendable where Action: Sendable {}

/// Buttons are equal when they look and act the same: their ids are not compared.
extension ButtonState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.action == rhs.action && lhs.label == rhs.label && lhs.role == rhs.role
  }
}

extension ButtonState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.action)
    hasher.combine(self.label)
    hasher.combine(self.role)
  }
}

extension ButtonState: Sendable where Action: Sendable {}

extension ButtonState: CustomDumpReflectable {
  /// `ButtonState(role: .destructive, action: .send(.confirmDeletion), label: "Delete")`: no id;
  /// as swift-navigation's, a button without an action reads `action: .send(nil)`.
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = []
    if let role = self.role { children.append(("role", role)) }
    children.append(("action", self.action.type))
    children.append(("label", self.label))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension ButtonState: CustomReflectable {
  public var customMirror: Mirror { self.customDumpMirror }
}
