import RuntimeSupport

#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif

/// A value to keep out of traces, named by where it lives: a field of the state, or the
/// associated value of an action case.
///
/// ```swift
/// let recorder = try TraceRecorder(path: "session.db", redacting: [
///   .state(\AppFeature.State.login.password),
///   .state(\AppFeature.State.login.twoFactor?.code),
///   .action(\LoginFeature.Action.Cases.view.passwordChanged),
///   .action(\TwoFactorFeature.Action.Cases.view.codeChanged),
/// ])
/// ```
///
/// What is named is written as `<redacted>`: the state change at that path (which is still
/// recorded, with both sides `<redacted>`), the action's payload, and the same values wherever
/// else the action's row would show them (a whole struct that contains the field, the action's
/// JSON). For types that are secret wherever they appear, conform them to ``TraceRedacted``.
public struct TraceRedaction: @unchecked Sendable {
  // NB: `@unchecked`: key paths and case paths are immutable values.

  /// What redacted values are written as.
  public static let marker = "<redacted>"

  enum Kind {
    /// A path from the root state: the key path's root type, the key path, and its path in
    /// the state (`login.password`).
    case state(root: Any.Type, keyPath: AnyKeyPath, path: String)
    /// An action case, in whichever feature's action it appears.
    case action(root: Any.Type, extract: (Any) -> Any?)
  }

  let kind: Kind

  /// A field of the recorded store's root state, and everything below it.
  ///
  /// - Parameter keyPath: A key path from the root state: `\AppFeature.State.login.password`;
  ///   optional chaining reaches into optional children: `\AppFeature.State.login.twoFactor?.code`.
  public static func state<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> Self {
    let path = KeyPathPath.path(of: keyPath)
    return Self(kind: .state(root: Root.self, keyPath: keyPath, path: path))
  }

  /// The associated value of an action case, wherever that feature's action appears in the
  /// recorded store's actions.
  ///
  /// - Parameter casePath: A case key path into a feature's action:
  ///   `\LoginFeature.Action.Cases.view.passwordChanged`.
  public static func action<Root, Value>(_ casePath: CaseKeyPath<Root, Value>) -> Self {
    let casePath = AnyCasePath(casePath)
    return Self(
      kind: .action(root: Root.self, extract: { ($0 as? Root).flatMap(casePath.extract(from:)) }))
  }
}

/// Names key paths as the state diff names paths: `\State.login.twoFactor?.code` →
/// `login.twoFactor.code` (the key path's name, without optional chaining).
enum KeyPathPath {
  static func path(of keyPath: AnyKeyPath) -> String {
    self.path(ofName: KeyPathNames.name(of: keyPath))
  }

  /// `name`, a key path's name, without its optional chaining.
  static func path(ofName name: String) -> String {
    name.replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "!", with: "")
  }
}
