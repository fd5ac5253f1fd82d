import ActionObservation
import Foundation
import RuntimeSupport

extension KeyPathNames {
  private static let presentationCache = Locked<[AnyKeyPath: String]>([:])

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
