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
    let description = ComputedPropertyNames.naming(keyPath.debugDescription)
    let rootType = type(of: keyPath).rootType
    let prefix = "\\" + String(describing: rootType) + "."
    guard description.hasPrefix(prefix) else { return description }
    let path = description.dropFirst(prefix.count)
    // NB: Without symbols (a stripped build), a computed component is named from the type's
    // reflection metadata when one property alone can be it.
    if path.contains("<computed 0x"), let candidates = ReflectedKeyPathNames.candidates(of: path, root: rootType),
      candidates.count == 1
    {
      return self.unwrapped(candidates[0][...])
    }
    return self.unwrapped(path)
  }

  /// Every path `keyPath` may name, as ``name(of:)`` names it: one when the program or the
  /// type's reflection metadata names each of its components, several when a computed
  /// component without a symbol (a stripped build) could be more than one property of its
  /// type; `nil` when it cannot be read. A caller with values of the root tells them apart.
  package static func candidates(of keyPath: AnyKeyPath) -> [String]? {
    let description = ComputedPropertyNames.naming(keyPath.debugDescription)
    let rootType = type(of: keyPath).rootType
    let prefix = "\\" + String(describing: rootType) + "."
    guard description.hasPrefix(prefix) else { return nil }
    let path = description.dropFirst(prefix.count)
    guard path.contains("<computed 0x") else { return [self.unwrapped(path)] }
    return ReflectedKeyPathNames.candidates(of: path, root: rootType)?.map { self.unwrapped($0[...]) }
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
