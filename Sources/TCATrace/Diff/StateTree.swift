#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif
import CustomDump
import Foundation
import RuntimeSupport

/// Builds the ``StateNode`` of a value: the tree that renders as `customDump(value)` renders it,
/// with each child keyed as ``StateDiff`` names it in a change's path.
///
/// NB: It follows CustomDump's own reading of a value, case for case: a type's custom dump
/// description or value, its custom dump mirror, then the mirror's display style. What
/// CustomDump prints differently depending on where a value is — an enum case at the root,
/// a string of several lines under a label — is kept as structure, and decided when the tree
/// is rendered. `StateTreeTests` checks the renderings agree.
enum StateTree {
  /// The tree of `value`.
  static func node(of value: Any) -> StateNode {
    self.build(value)
  }

  /// What rebuilding needs of a change's new `value`, besides its rendering `text`: its tree,
  /// unless `text` renders it wherever it is.
  static func rebuildNode(of value: Any, text: String) -> StateNode? {
    switch value {
    case is Int, is Bool, is Double:
      return nil
    case let string as String where !string.contains(where: \.isNewline):
      return nil
    default:
      let node = self.build(value)
      return node == .text(text) ? nil : node
    }
  }

  private static func build(_ value: Any) -> StateNode {
    if let type = value as? Any.Type {
      return .text(self.typeName(type) + ".self")
    }
    if let convertible = value as? any CustomDumpStringConvertible {
      return .text(convertible.customDumpDescription)
    }
    if let representable = value as? any CustomDumpRepresentable {
      return self.build(representable.customDumpValue)
    }
    let mirror =
      (value as? any CustomDumpReflectable)?.customDumpMirror ?? Mirror(reflecting: value)
    let isIncluded = self.propertyFilter(for: value)

    switch mirror.displayStyle {
    case .class?:
      var children = Array(mirror.children)
      var superclassMirror = mirror.superclassMirror
      while let superclass = superclassMirror {
        children.insert(contentsOf: superclass.children, at: 0)
        superclassMirror = superclass.superclassMirror
      }
      return self.structure(self.typeName(mirror.subjectType), children.filter(isIncluded))

    case .struct?:
      return self.structure(self.typeName(mirror.subjectType), mirror.children.filter(isIncluded))

    case .collection?:
      let elements = mirror.children.map(\.value)
      let ids = (value as? any ElementsIdentifiedByID)?.elementIDs
      let identified = ids?.count == elements.count
      let children = elements.enumerated().map { offset, element in
        StateChild(
          label: nil,
          key: identified ? "[id: \(self.describe(ids?[offset]))]" : "[\(offset)]",
          node: self.build(element)
        )
      }
      return .container(StateContainer(kind: .collection, children: children))

    case .dictionary?:
      let sorted = mirror.subjectType is any _UnorderedCollection.Type
      let identified = value is any ElementsIdentifiedByID
      var children: [StateChild] = []
      for child in mirror.children {
        guard let pair = child.value as? (key: AnyHashable, value: Any) else { continue }
        let keyNode = self.build(pair.key.base)
        children.append(
          StateChild(
            label: keyNode.renderedNested(),
            key: identified
              ? "[id: \(self.describe(pair.key))]" : "[\(StateDiff.render(pair.key.base))]",
            node: self.build(pair.value)
          )
        )
      }
      if sorted { children.sort { ($0.label ?? "") < ($1.label ?? "") } }
      return .container(StateContainer(kind: .dictionary(sorted: sorted), children: children))

    case .set?:
      var children = mirror.children.map { child in
        StateChild(
          label: nil, key: "[\(StateDiff.render(child.value))]", node: self.build(child.value))
      }
      if mirror.subjectType is any _UnorderedCollection.Type {
        children.sort { (lhs: StateChild, rhs: StateChild) in
          lhs.node.renderedNested() < rhs.node.renderedNested()
        }
      }
      return .container(StateContainer(kind: .set, children: children))

    case .enum?:
      let type = self.typeName(mirror.subjectType)
      guard let payload = mirror.children.first else {
        return .enumCase(type: type, description: "\(value)")
      }
      let name = payload.label ?? "@unknown"
      let payloadMirror =
        (payload.value as? any CustomDumpReflectable)?.customDumpMirror
        ?? Mirror(reflecting: payload.value)
      let children: [StateChild]
      if payloadMirror.displayStyle == .tuple {
        children = payloadMirror.children.enumerated().map { offset, element in
          StateChild(
            label: element.label.flatMap { $0.hasPrefix(".") ? nil : $0 },
            key: name + "." + self.key(element.label, offset),
            node: self.build(element.value)
          )
        }
      } else {
        children = [StateChild(label: nil, key: name, node: self.build(payload.value))]
      }
      return .container(StateContainer(kind: .enumCase(type: type, name: name), children: children))

    case .optional?:
      guard let wrapped = mirror.children.first?.value else { return .text("nil") }
      return .some(self.build(wrapped))

    case .tuple?:
      let children = mirror.children.enumerated().map { offset, element in
        StateChild(
          label: element.label.flatMap { $0.hasPrefix(".") ? nil : $0 },
          key: self.key(element.label, offset),
          node: self.build(element.value)
        )
      }
      return .container(StateContainer(kind: .tuple, children: children))

    default:
      guard let string = Self.string(value) else { return .text("\(value)") }
      if string.contains(where: \.isNewline) {
        return .multilineString(string, hashes: Self.hashCount(string, multiline: true))
      }
      if string.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C }) {
        let marks = String(repeating: "#", count: max(Self.hashCount(string, multiline: false), 1))
        return .text(marks + "\"" + string + "\"" + marks)
      }
      return .text(string.debugDescription)
    }
  }

  private static func structure(_ type: String, _ children: [Mirror.Child]) -> StateNode {
    .container(
      StateContainer(
        kind: .structure(type: type),
        children: children.enumerated().map { offset, child in
          // NB: A property reads as its name, also where it is a property wrapper's storage
          // (`_destination`) or, on TCA, `@ObservableState`'s (`_email`).
          StateChild(
            label: child.label.map { self.key($0, offset) }, key: self.key(child.label, offset),
            node: self.build(child.value)
          )
        }
      )
    )
  }

  /// How the diff names a property or a tuple's element in a path: its name without the
  /// underscore of a property wrapper's storage, or its offset.
  private static func key(_ label: String?, _ offset: Int) -> String {
    guard let label else { return "\(offset)" }
    return label.hasPrefix("_") ? String(label.dropFirst()) : label
  }

  /// CustomDump leaves out the properties observation macros add (`_$observationRegistrar`),
  /// except from a type that reflects itself.
  private static func propertyFilter(for value: Any) -> (Mirror.Child) -> Bool {
    value is any CustomDumpReflectable
      ? { _ in true } : { $0.label.map { !$0.hasPrefix("_$") } ?? true }
  }

  private static func string(_ value: Any) -> String? {
    switch value {
    case let string as String: string
    case let substring as Substring: String(substring)
    default: nil
    }
  }

  private static func describe(_ id: AnyHashable?) -> String {
    id.map { ActionRoute.ElementID.describe($0.base) } ?? "nil"
  }

  /// The number of `#`s a raw string literal of `string` needs, as CustomDump counts them: the
  /// longest run of `#`s after a quote (after three, in a multi-line literal), plus one.
  static func hashCount(_ string: String, multiline: Bool) -> Int {
    let bytes = Array(string.utf8)
    let quotes = multiline ? 3 : 1
    var count = 0
    var index = 0
    while index < bytes.count {
      guard bytes.count - index >= quotes,
        bytes[index..<(index + quotes)].allSatisfy({ $0 == UInt8(ascii: "\"") })
      else {
        index += 1
        continue
      }
      var end = index + quotes
      while end < bytes.count, bytes[end] == UInt8(ascii: "#") { end += 1 }
      count = max(count, end - index - (multiline ? 2 : 0))
      index = end
    }
    return count
  }

  private static let typeNames = Locked<[ObjectIdentifier: String]>([:])

  /// A type's name as CustomDump prints it: `AppFeature.State`, `[Todo]`.
  static func typeName(_ type: Any.Type) -> String {
    // NB: CustomDump prints a metatype as its name and `.self`.
    self.typeNames.value(for: ObjectIdentifier(type)) {
      String(String(customDumping: type).dropLast(".self".count))
    }
  }
}
