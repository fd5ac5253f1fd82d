import Foundation

/// Names key paths the way a state path reads: `\AppFeature.State.login` → `login`.
package enum KeyPathNames {
  private static let cache = Locked<[AnyKeyPath: String]>([:])

  package static func name(of keyPath: AnyKeyPath) -> String {
    self.cache.value(for: keyPath) { self.computeName(of: keyPath) }
  }

  package static func computeName(of keyPath: AnyKeyPath) -> String {
    // NB: The standard library describes a key path as `\Root.property.path`, with the root
    // named by `String(describing:)`. On Linux a computed component reads `<computed 0x…
    // (Type)>`, and its name is looked up in the program's symbols (TCA's `@ObservableState`
    // makes every property computed); one not found keeps the description whole, which is
    // still unique if not pretty.
    let (description, path) = self.described(keyPath)
    guard let path else { return description }
    // NB: Without symbols (a stripped build), a computed component is named from the type's
    // reflection metadata when one property alone can be it.
    if let candidates = self.candidates(path, root: type(of: keyPath).rootType),
      candidates.count == 1
    {
      return candidates[0]
    }
    return self.unwrapped(path)
  }

  /// Every path `keyPath` may name, as ``name(of:)`` names it: one when the program or the
  /// type's reflection metadata names each of its components, several when a computed
  /// component without a symbol (a stripped build) could be more than one property of its
  /// type; `nil` when it cannot be read. A caller with values of the root tells them apart.
  package static func candidates(of keyPath: AnyKeyPath) -> [String]? {
    self.described(keyPath).path.flatMap { self.candidates($0, root: type(of: keyPath).rootType) }
  }

  /// The key path's description, its computed components named from the program's symbols
  /// where it has them, and the path in it after `\Root.`; `nil` when it does not start so.
  private static func described(_ keyPath: AnyKeyPath) -> (description: String, path: Substring?) {
    let description = ComputedPropertyNames.naming(keyPath.debugDescription)
    let prefix = "\\" + String(describing: type(of: keyPath).rootType) + "."
    guard description.hasPrefix(prefix) else { return (description, nil) }
    return (description, description.dropFirst(prefix.count))
  }

  /// The names `path` (a description after `\Root.`) may read as: itself when it has no
  /// computed component left; else those the root type's reflection metadata gives.
  private static func candidates(_ path: Substring, root: Any.Type) -> [String]? {
    guard path.contains("<computed 0x") else { return [self.unwrapped(path)] }
    return ReflectedKeyPathNames.candidates(of: path, root: root)?.map { self.unwrapped($0[...]) }
  }

  /// A property wrapper's projection reads as the property it wraps: `$destination` and
  /// `$destination.wrappedValue` as `destination`.
  private static func unwrapped(_ path: Substring) -> String {
    guard path.contains("$") else { return String(path) }
    var components: [Substring] = []
    for component in path.split(separator: ".", omittingEmptySubsequences: false) {
      if component == "wrappedValue", components.last?.hasPrefix("$") == true {
        continue
      }
      components.append(component)
    }
    return components.map { $0.hasPrefix("$") ? $0.dropFirst() : $0 }.joined(separator: ".")
  }
}
