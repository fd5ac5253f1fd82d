/// Text that can be held in state and compared: the title, message and button labels of
/// ``AlertState`` and ``ConfirmationDialogState``, as swift-navigation's `TextState` is on a
/// platform without SwiftUI (no fonts or other modifiers).
///
/// ```swift
/// TextState("Delete \(name)?")
/// TextState("Hello, ") + TextState(name)
/// ```
///
/// CustomDump shows it as its string: `"Delete Blob?"`.
public struct TextState: Equatable, Hashable, Sendable {
  private indirect enum Storage: Equatable, Hashable, Sendable {
    case verbatim(String)
    case concatenated(TextState, TextState)
  }

  private let storage: Storage

  /// Text that shows `content` as it is.
  public init(verbatim content: String) {
    self.storage = .verbatim(content)
  }

  /// Text that shows `content`.
  @_disfavoredOverload
  public init<S: StringProtocol>(_ content: S) {
    self.init(verbatim: String(content))
  }

  private init(storage: Storage) {
    self.storage = storage
  }

  /// The two texts one after the other.
  public static func + (lhs: Self, rhs: Self) -> Self {
    Self(storage: .concatenated(lhs, rhs))
  }
}

extension String {
  /// The characters `state` shows.
  public init(state: TextState) {
    self = state.string
  }
}

extension TextState {
  fileprivate var string: String {
    switch self.storage {
    case let .verbatim(string): string
    case let .concatenated(lhs, rhs): lhs.string + rhs.string
    }
  }
}

extension TextState: CustomDumpRepresentable, CustomStringConvertible {
  public var customDumpValue: Any {
    self.string
  }

  public var description: String {
    self.string
  }
}

/// Reflected as the string it shows.
extension TextState: CustomReflectable {
  public var customMirror: Mirror { Mirror(reflecting: self.string) }
}
