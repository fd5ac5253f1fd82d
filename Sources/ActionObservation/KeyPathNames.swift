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
    let prefix = "\\" + String(describing: type(of: keyPath).rootType) + "."
    guard description.hasPrefix(prefix) else { return description }
    return self.unwrapped(description.dropFirst(prefix.count))
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
