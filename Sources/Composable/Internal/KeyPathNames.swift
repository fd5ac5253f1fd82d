import Foundation

/// Names key paths the way a state path reads: `\AppFeature.State.login` → `login`.
package enum KeyPathNames {
  private static let cache = Locked<[AnyKeyPath: String]>([:])
  private static let presentationCache = Locked<[AnyKeyPath: String]>([:])

  package static func name(of keyPath: AnyKeyPath) -> String {
    if let name = self.cache.withLock({ $0[keyPath] }) { return name }
    let name = self.computeName(of: keyPath)
    self.cache.withLock { $0[keyPath] = name }
    return name
  }

  private static func computeName(of keyPath: AnyKeyPath) -> String {
    // NB: The standard library describes a key path as `\Root.property.path`, with the root
    // named by `String(describing:)`. Computed components read `<computed …>`; those keep the
    // description whole, which is still unique if not pretty.
    let description = keyPath.debugDescription
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

  /// The name of the property a ``PresentationState`` key path reads, `destination` for
  /// `\.$destination`.
  ///
  /// `@Presents` makes `$destination` a computed property, whose key path does not carry its
  /// name; the name is then that of the one stored property of `state` that holds the same
  /// optional (`destination`), or the one `PresentationState` of that type (`_destination`,
  /// from the property wrapper).
  package static func presentationName<Root, Value>(
    of keyPath: KeyPath<Root, PresentationState<Value>>, in state: Root
  ) -> String {
    if let name = self.presentationCache.withLock({ $0[keyPath] }) { return name }
    var name = self.computeName(of: keyPath)
    if name.contains("<computed") {
      let stored = Mirror(reflecting: state).children.compactMap { child -> String? in
        guard let label = child.label else { return nil }
        if type(of: child.value) == Value?.self, !label.hasPrefix("_") { return label }
        if child.value is PresentationState<Value>, label.hasPrefix("_") {
          return String(label.dropFirst())
        }
        return nil
      }
      if stored.count == 1 { name = stored[0] }
    }
    self.presentationCache.withLock { $0[keyPath] = name }
    return name
  }
}
