import ActionObservation
import CustomDump
import RuntimeSupport

/// The state paths a recorder's redactions name, as the diff names paths: `login.password`.
///
/// A key path names its path at once when the program can name each of its components. In a
/// stripped build, a computed one (every property of TCA's `@ObservableState`) has no symbol to
/// name it by, and is named from the type's reflection metadata (see `ReflectedKeyPathNames`):
/// a property of the component's type. Where a type has several (`email` and `password`, both
/// `String`), every one is redacted until the states recorded tell them apart: a candidate
/// whose value differs from the key path's in a state is not it. Redacting more than was asked
/// for until then keeps the secret out of the file whichever it is.
final class StatePaths: Sendable {
  /// A redaction's path, or the paths it may be.
  private enum Entry: Sendable {
    case named(path: String, steps: [JSONRedaction.Step]?)
    case unnamed(UnnamedStatePath)
  }

  private let entries: [Entry]

  init(_ redactions: [TraceRedaction]) {
    self.entries = redactions.compactMap { redaction in
      guard case let .state(_, keyPath, path) = redaction.kind else { return nil }
      guard path.contains("<computed 0x"), let unnamed = UnnamedStatePath(keyPath) else {
        return .named(path: path, steps: JSONRedaction.steps(ofStatePath: path))
      }
      return .unnamed(unnamed)
    }
  }

  /// The paths, having told candidates apart by `states` (an action's states before and
  /// after): for the store's thread, as it records an action.
  func paths(narrowedBy states: [Any]) -> [String] {
    for case let .unnamed(unnamed) in self.entries {
      for state in states { unnamed.narrow(by: state) }
    }
    return self.paths
  }

  /// The paths, as told apart so far.
  var paths: [String] {
    self.entries.flatMap { entry -> [String] in
      switch entry {
      case let .named(path, _): return [path]
      case let .unnamed(unnamed): return unnamed.candidates
      }
    }
  }

  /// The paths as paths into the state's JSON; see ``Redactor``.
  var jsonPaths: [[JSONRedaction.Step]] {
    self.entries.flatMap { entry -> [[JSONRedaction.Step]] in
      switch entry {
      case let .named(_, steps): return steps.map { [$0] } ?? []
      case let .unnamed(unnamed):
        return unnamed.candidates.compactMap(JSONRedaction.steps(ofStatePath:))
      }
    }
  }
}

/// A key path of the state that the program cannot name, and the paths it may be.
final class UnnamedStatePath: @unchecked Sendable {
  // NB: `@unchecked`: a key path is an immutable value (`TraceRedaction` holds it so too), and
  // the candidates are behind a lock.

  private let keyPath: AnyKeyPath
  private let state: Locked<(candidates: [String], samples: Int)>

  /// How many states are compared before the candidates left are kept for good: two that
  /// hold the same value all along are both redacted, without comparing every state.
  static let maxSamples = 256

  /// `nil` when the key path cannot be read as paths of its root.
  convenience init?(_ keyPath: AnyKeyPath) {
    guard let candidates = KeyPathNames.candidates(of: keyPath), !candidates.isEmpty else {
      return nil
    }
    self.init(keyPath, candidates: candidates)
  }

  /// The key path, and the paths (as ``KeyPathNames`` writes them) it may be.
  init(_ keyPath: AnyKeyPath, candidates: [String]) {
    self.keyPath = keyPath
    self.state = Locked((Array(Set(candidates.map(KeyPathPath.path(ofName:)))).sorted(), 0))
  }

  var candidates: [String] {
    self.state.withLock { $0.candidates }
  }

  /// Leaves out the candidates whose value in `state` is not the key path's.
  func narrow(by root: Any) {
    let (candidates, samples) = self.state.withLock { ($0.candidates, $0.samples) }
    guard candidates.count > 1, samples < Self.maxSamples else { return }
    guard let value = root[keyPath: self.keyPath].flatMap(Self.unwrapped) else { return }
    let rendering = String(customDumping: value)
    let kept = candidates.filter { path in
      // NB: A candidate that cannot be read here (an optional on its way is nil) stays.
      guard let candidate = Self.value(at: path, in: root) else { return true }
      return String(customDumping: candidate) == rendering
    }
    self.state.withLock { state in
      state.samples += 1
      if !kept.isEmpty, kept.count < state.candidates.count { state.candidates = kept }
    }
  }

  /// The value at `path` (`login.twoFactor.code`) in `root`, read by reflection as the diff
  /// reads a state: through storage (`_login`), presentation states, shared values and
  /// optionals; `nil` when a step is missing or nil.
  private static func value(at path: String, in root: Any) -> Any? {
    var current: Any = root
    for name in path.split(separator: ".") {
      guard let inner = Self.unwrapped(current),
        let child = Mirror(reflecting: inner).children.first(where: {
          $0.label == String(name) || $0.label == "_" + name
        })
      else { return nil }
      current = child.value
    }
    return Self.unwrapped(current)
  }

  /// `value` looked through: an optional's value, a presentation state's, a shared value's.
  private static func unwrapped(_ value: Any) -> Any? {
    var value = value
    for _ in 0..<8 {
      if let optional = value as? any OptionalProtocol {
        guard let wrapped = optional.wrapped else { return nil }
        value = wrapped
      } else if let wrapper = value as? any _TransparentStateWrapper {
        value = wrapper.wrappedState
      } else if let shared = value as? any _SharedStateValue {
        value = shared.sharedValues.after
      } else {
        return value
      }
    }
    return value
  }
}
