import Foundation
import IdentifiedCollections
#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif

/// Finds how a state's JSON changed from one value to the next, without encoding the whole
/// state: the changes that, applied to the JSON of `old`, give the JSON of `new` (see
/// ``StateJSONChange``).
///
/// It compares what the two values hand their encoders. Each value is asked to encode itself
/// to an encoder that keeps what it is handed — a keyed container's members, an unkeyed
/// container's elements, a single value — without encoding those in turn. Members that are
/// `==` on both sides are skipped (an untouched array of a million rows is one comparison);
/// the others are compared the same way, a level down. What differs in a way this cannot
/// follow (a value of another type, a `superEncoder`, a number, a string) is encoded whole, by
/// `JSONEncoder`, at its place. So the changes are exact whatever `encode(to:)` does, and cost
/// what changed: the members of each value on the path to a change, and the changed value.
///
/// NB: It reads `==` as "encodes the same", as the state diff reads it as "renders the same":
/// a change that `==` does not see (`0.0` to `-0.0`, a property a hand-written `==` ignores) is
/// missed by both.
struct JSONDiff {
  private(set) var changes: [StateJSONChange] = []
  /// For each change that holds a value, that value: what a redactor looks into.
  private(set) var values: [Any?] = []
  private let types: JSONDiffTypes

  private init(types: JSONDiffTypes) {
    self.types = types
  }

  /// The changes of the JSON from `old` to `new`, and the values they set; `nil` when a value
  /// fails to encode, or either is not `Encodable`. `types` keeps what it learns of each type
  /// for the next call: one thread's at a time.
  static func changes(
    from old: Any, to new: Any, types: JSONDiffTypes = JSONDiffTypes()
  ) -> (changes: [StateJSONChange], values: [Any?])? {
    guard let old = old as? any Encodable, let new = new as? any Encodable else { return nil }
    var diff = JSONDiff(types: types)
    do {
      try diff.diff(old, new, path: [], depth: 0)
    } catch {
      return nil
    }
    return (diff.changes, diff.values)
  }

  /// How deep the diff follows values before it encodes what differs whole.
  private static let maxDepth = 64

  fileprivate mutating func diff(
    _ old: any Encodable, _ new: any Encodable, path: [StateJSONKey], depth: Int
  ) throws {
    let type = Swift.type(of: new)
    let info = self.types.info(type)
    guard Swift.type(of: old) == type else { return try self.set(path, new, info: info) }
    if info.equals?(old, new) == true { return }
    guard depth < Self.maxDepth, !info.isLeaf else { return try self.set(path, new, info: info) }
    if let differ = info.elementsDiffer {
      return try differ(old, new, path, depth, &self)
    }
    let mark = self.changes.count
    do {
      let oldShape = try EncodedShape.of(old)
      let newShape = try EncodedShape.of(new)
      try self.diff(oldShape, newShape, path: path, depth: depth)
    } catch is JSONDiffFallback {
      // What the two values hand their encoders cannot be followed: the value is encoded whole.
      self.changes.removeSubrange(mark...)
      self.values.removeSubrange(mark...)
      try self.set(path, new, info: info)
    }
  }

  private mutating func diff(
    _ old: EncodedShape, _ new: EncodedShape, path: [StateJSONKey], depth: Int
  ) throws {
    switch (old, new) {
    case let (.value(old), .value(new)):
      try self.diff(old, new, path: path, depth: depth + 1)
    case (.null, .null):
      return
    case let (.keyed(old), .keyed(new)) where old.keys == new.keys:
      // NB: Two values of one type mostly hand over the same members in the same order.
      for index in new.keys.indices {
        try self.diff(
          old.values[index], new.values[index], path: path + [.key(new.keys[index])],
          depth: depth + 1)
      }
    case let (.keyed(old), .keyed(new)):
      var oldMembers: [String: EncodedShape] = [:]
      for (key, value) in zip(old.keys, old.values) { oldMembers[key] = value }
      var newKeys = Set<String>()
      for (key, value) in zip(new.keys, new.values) {
        newKeys.insert(key)
        if let oldValue = oldMembers[key] {
          try self.diff(oldValue, value, path: path + [.key(key)], depth: depth + 1)
        } else {
          try self.set(path + [.key(key)], value)
        }
      }
      for key in old.keys where !newKeys.contains(key) {
        self.remove(path + [.key(key)])
      }
    case let (.unkeyed(old), .unkeyed(new)):
      let types = self.types
      try self.diffElements(
        oldCount: old.values.count, newCount: new.values.count,
        areEqual: { Self.areEqual(old.values[$0], new.values[$1], types: types) },
        diff: { diff, oldIndex, newIndex, path in
          try diff.diff(old.values[oldIndex], new.values[newIndex], path: path, depth: depth + 1)
        },
        encode: { (diff, index) in try diff.json(of: new.values[index]) },
        path: path
      )
    case (.value, _), (.null, _), (.keyed, _), (.unkeyed, _):
      try self.set(path, new)
    }
  }

  /// The changes of a list of elements: those kept at both ends compared in place, and those
  /// between them compared in pairs, the rest removed or inserted.
  mutating func diffElements(
    oldCount: Int, newCount: Int, areEqual: (Int, Int) -> Bool,
    diff: (inout JSONDiff, Int, Int, [StateJSONKey]) throws -> Void,
    encode: (JSONDiff, Int) throws -> (json: String, value: Any?), path: [StateJSONKey]
  ) throws {
    var prefix = 0
    while prefix < oldCount, prefix < newCount, areEqual(prefix, prefix) { prefix += 1 }
    var suffix = 0
    while suffix < min(oldCount, newCount) - prefix,
      areEqual(oldCount - 1 - suffix, newCount - 1 - suffix)
    {
      suffix += 1
    }
    let oldMiddle = oldCount - prefix - suffix
    let newMiddle = newCount - prefix - suffix
    for offset in 0..<min(oldMiddle, newMiddle) {
      try diff(&self, prefix + offset, prefix + offset, path + [.index(prefix + offset)])
    }
    // NB: Removed from the last, so that each index is still the one it names.
    for offset in (min(oldMiddle, newMiddle)..<oldMiddle).reversed() {
      self.remove(path + [.index(prefix + offset)])
    }
    for offset in min(oldMiddle, newMiddle)..<newMiddle {
      let (json, value) = try encode(self, prefix + offset)
      self.append(.insert(path + [.index(prefix + offset)], json), value: value)
    }
  }

  /// The JSON of what a value handed its encoder, and the value; a container handed over
  /// without a value of its own cannot be encoded apart.
  private func json(of shape: EncodedShape) throws -> (json: String, value: Any?) {
    switch shape {
    case let .value(value): try self.json(ofValue: value)
    case .null: ("null", nil)
    case .keyed, .unkeyed: throw JSONDiffFallback()
    }
  }

  /// The JSON of `value`, and the value.
  func json(ofValue value: Any) throws -> (json: String, value: Any?) {
    (try self.types.info(Swift.type(of: value)).json(value), value)
  }

  private mutating func set(_ path: [StateJSONKey], _ value: Any, info: JSONDiffTypes.Info? = nil)
    throws
  {
    let info = info ?? self.types.info(Swift.type(of: value))
    try self.append(.set(path, info.json(value)), value: value)
  }

  private mutating func set(_ path: [StateJSONKey], _ shape: EncodedShape) throws {
    let (json, value) = try self.json(of: shape)
    self.append(.set(path, json), value: value)
  }

  private mutating func remove(_ path: [StateJSONKey]) {
    self.append(.remove(path), value: nil)
  }

  /// Adds `change`, and the value it sets or inserts, for the redactor.
  private mutating func append(_ change: StateJSONChange, value: Any?) {
    self.changes.append(change)
    self.values.append(value)
  }

  /// `string` as `JSONEncoder` writes it, with slashes unescaped.
  static func quoted(_ string: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(string.utf8.count + 2)
    JSONString.quote(string, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Whether two values encode the same, as far as `==` tells; `false` when it cannot.
  private static func areEqual(_ old: EncodedShape, _ new: EncodedShape, types: JSONDiffTypes)
    -> Bool
  {
    guard case let .value(old) = old, case let .value(new) = new else { return false }
    let type = Swift.type(of: new)
    guard Swift.type(of: old) == type else { return false }
    return types.info(type).equals?(old, new) == true
  }

  /// Whether values of `type` are numbers, strings or flags: they hold no other value.
  static func isScalar(_ type: Any.Type) -> Bool {
    JSONDiffTypes.scalarTypes.contains(ObjectIdentifier(type))
  }
}

/// What ``JSONDiff`` needs to know of each type it meets, found once: a writer keeps one for
/// its session.
///
/// NB: Each question — is it `Equatable`, a leaf, an array, redacted — was a conformance lookup
/// or a locked cache's, asked of every member of every value compared; they cost more than the
/// comparisons.
final class JSONDiffTypes: @unchecked Sendable {
  // NB: `@unchecked`: used by one thread at a time (the writer's).
  private var infos: [ObjectIdentifier: Info] = [:]
  private let encoder: JSONEncoder

  init() {
    self.encoder = JSONEncoder()
    self.encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  }

  struct Info {
    /// `==` of the type, given a value of it on each side; `nil` when not `Equatable`.
    let equals: ((Any, Any) -> Bool)?
    /// Whether a changed value is encoded whole, not compared member by member.
    let isLeaf: Bool
    /// The diff of two values of an array type, element by element (see ``JSONArrayEncoded``).
    let elementsDiffer: ((Any, Any, [StateJSONKey], Int, inout JSONDiff) throws -> Void)?
    /// A value's JSON.
    let json: (Any) throws -> String
  }

  func info(_ type: Any.Type) -> Info {
    let key = ObjectIdentifier(type)
    if let info = self.infos[key] { return info }
    let kind = NodeKind.of(type)
    let encoder = self.encoder
    let json: (Any) throws -> String
    // NB: The common leaves are written as `JSONEncoder` writes them, without it (a test
    // checks they agree): it costs more than the rest of the diff.
    switch key {
    case ObjectIdentifier(Int.self): json = { String($0 as! Int) }
    case ObjectIdentifier(Bool.self): json = { ($0 as! Bool) ? "true" : "false" }
    case ObjectIdentifier(String.self): json = { JSONDiff.quoted($0 as! String) }
    default:
      json = { value in
        guard let value = value as? any Encodable else { throw JSONDiffFallback() }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
      }
    }
    var elementsDiffer: ((Any, Any, [StateJSONKey], Int, inout JSONDiff) throws -> Void)?
    if let array = type as? any JSONArrayEncoded.Type {
      elementsDiffer = Self.elementsDiffer(array)
    }
    let info = Info(
      equals: kind.equals,
      // NB: A redacted value is a leaf, so that the redactor is handed it, and not what it
      // encodes.
      isLeaf: Self.leafTypes.contains(key) || kind.isRedacted,
      elementsDiffer: elementsDiffer,
      json: json
    )
    self.infos[key] = info
    return info
  }

  private static func elementsDiffer<Array: JSONArrayEncoded>(
    _: Array.Type
  ) -> (Any, Any, [StateJSONKey], Int, inout JSONDiff) throws -> Void {
    { old, new, path, depth, diff in
      try (new as! Array).jsonChanges(from: old as! Array, path: path, depth: depth, into: &diff)
    }
  }

  static let scalarTypes: Set<ObjectIdentifier> = [
    ObjectIdentifier(Bool.self), ObjectIdentifier(String.self), ObjectIdentifier(Double.self),
    ObjectIdentifier(Float.self), ObjectIdentifier(Int.self), ObjectIdentifier(Int8.self),
    ObjectIdentifier(Int16.self), ObjectIdentifier(Int32.self), ObjectIdentifier(Int64.self),
    ObjectIdentifier(UInt.self), ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt16.self),
    ObjectIdentifier(UInt32.self), ObjectIdentifier(UInt64.self),
  ]

  /// Numbers, strings and flags, and what `JSONEncoder` writes its own way, not as their
  /// `encode(to:)` says.
  private static let leafTypes: Set<ObjectIdentifier> = scalarTypes.union([
    ObjectIdentifier(Date.self), ObjectIdentifier(Data.self), ObjectIdentifier(URL.self),
    ObjectIdentifier(Decimal.self),
  ])
}

/// What follows cannot be compared member by member: the value is encoded whole.
private struct JSONDiffFallback: Error {}

/// A collection that `Codable` encodes as a JSON array of its elements, in order: its changes
/// are found element by element, without asking it to encode itself (which would box each of
/// its elements).
protocol JSONArrayEncoded {
  associatedtype JSONElement: Encodable

  /// Calls `body` with the elements, in the order they encode.
  func withJSONElements<R>(_ body: (UnsafeBufferPointer<JSONElement>) throws -> R) rethrows -> R
}

extension JSONArrayEncoded {
  /// Adds the changes from `old` to `self`.
  func jsonChanges(from old: Self, path: [StateJSONKey], depth: Int, into diff: inout JSONDiff)
    throws
  {
    let kind = NodeKind.of(JSONElement.self)
    let size = MemoryLayout<JSONElement>.size
    try old.withJSONElements { old in
      try self.withJSONElements { new in
        // NB: Elements whose bytes are the same are the same; the others are asked `==`.
        func areEqual(_ oldIndex: Int, _ newIndex: Int) -> Bool {
          let oldPlace = UnsafeRawPointer(old.baseAddress! + oldIndex)
          let newPlace = UnsafeRawPointer(new.baseAddress! + newIndex)
          if size == 0 || memcmp(oldPlace, newPlace, size) == 0 { return true }
          return kind.equalsInPlace?(oldPlace, newPlace) == true
        }
        try diff.diffElements(
          oldCount: old.count, newCount: new.count, areEqual: areEqual,
          diff: { diff, oldIndex, newIndex, path in
            try diff.diff(old[oldIndex], new[newIndex], path: path, depth: depth + 1)
          },
          encode: { diff, index in try diff.json(ofValue: new[index]) },
          path: path
        )
      }
    }
  }
}

extension Array: JSONArrayEncoded where Element: Encodable {
  func withJSONElements<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
    try self.withUnsafeBufferPointer(body)
  }
}

extension ContiguousArray: JSONArrayEncoded where Element: Encodable {
  func withJSONElements<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
    try self.withUnsafeBufferPointer(body)
  }
}

/// An identified array encodes as its elements (swift-identified-collections).
extension IdentifiedArray: JSONArrayEncoded where Element: Encodable {
  func withJSONElements<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
    try self.elements.withUnsafeBufferPointer(body)
  }
}

/// A navigation stack encodes as its elements, bottom first.
extension StackState: JSONArrayEncoded where Element: Codable {
  func withJSONElements<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
    try Array(self).withUnsafeBufferPointer(body)
  }
}

/// What a value hands its encoder, one level deep.
private indirect enum EncodedShape {
  /// A value handed to a container, not looked into.
  case value(any Encodable)
  case null
  case keyed(KeyedMembers)
  case unkeyed(UnkeyedElements)

  /// What `value`'s `encode(to:)` hands its encoder.
  ///
  /// - Throws: ``JSONDiffFallback`` when it does what this does not follow: a super encoder,
  ///   two kinds of container, a member encoded twice, no value at all.
  static func of(_ value: any Encodable) throws -> EncodedShape {
    let recording = ShapeRecording()
    try value.encode(to: ShapeEncoder(recording: recording, codingPath: []))
    guard !recording.cannotFollow, let shape = recording.shape else { throw JSONDiffFallback() }
    return shape
  }
}

private final class KeyedMembers {
  var keys: [String] = []
  var values: [EncodedShape] = []
  var recording: ShapeRecording

  init(recording: ShapeRecording) {
    self.recording = recording
  }

  /// The keys, once there are many: a dictionary's.
  private var keySet: Set<String>?

  func add(_ key: String, _ value: EncodedShape) {
    // NB: A member handed over twice is not followed. A few members are looked through; a
    // dictionary's many, in a set.
    if self.keySet == nil, self.keys.count >= 32 { self.keySet = Set(self.keys) }
    let isRepeated =
      self.keySet != nil ? !self.keySet!.insert(key).inserted : self.keys.contains(key)
    if isRepeated { self.recording.cannotFollow = true }
    self.keys.append(key)
    self.values.append(value)
  }
}

private final class UnkeyedElements {
  var values: [EncodedShape] = []
}

/// What one value handed its encoder so far.
private final class ShapeRecording {
  var shape: EncodedShape?
  var cannotFollow = false
}

private struct ShapeEncoder: Encoder {
  let recording: ShapeRecording
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let members: KeyedMembers
    switch self.recording.shape {
    case let .keyed(existing)?:
      members = existing
    case nil:
      members = KeyedMembers(recording: self.recording)
      self.recording.shape = .keyed(members)
    default:
      self.recording.cannotFollow = true
      members = KeyedMembers(recording: self.recording)
    }
    return KeyedEncodingContainer(
      KeyedShapeContainer<Key>(members: members, codingPath: self.codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let elements: UnkeyedElements
    switch self.recording.shape {
    case let .unkeyed(existing)?:
      elements = existing
    case nil:
      elements = UnkeyedElements()
      self.recording.shape = .unkeyed(elements)
    default:
      self.recording.cannotFollow = true
      elements = UnkeyedElements()
    }
    return UnkeyedShapeContainer(
      elements: elements, recording: self.recording, codingPath: self.codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleShapeContainer(recording: self.recording, codingPath: self.codingPath)
  }
}

private struct KeyedShapeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let members: KeyedMembers
  var codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws { self.members.add(key.stringValue, .null) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    self.members.add(key.stringValue, .value(value))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = KeyedMembers(recording: self.members.recording)
    self.members.add(key.stringValue, .keyed(nested))
    return KeyedEncodingContainer(
      KeyedShapeContainer<NestedKey>(members: nested, codingPath: self.codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = UnkeyedElements()
    self.members.add(key.stringValue, .unkeyed(nested))
    return UnkeyedShapeContainer(
      elements: nested, recording: self.members.recording, codingPath: self.codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    self.members.recording.cannotFollow = true
    return ShapeEncoder(recording: ShapeRecording(), codingPath: self.codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    self.superEncoder()
  }
}

private struct UnkeyedShapeContainer: UnkeyedEncodingContainer {
  let elements: UnkeyedElements
  let recording: ShapeRecording
  var codingPath: [any CodingKey]
  var count: Int { self.elements.values.count }

  mutating func encodeNil() throws { self.elements.values.append(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    self.elements.values.append(.value(value))
  }
  mutating func encode(_ value: Bool) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: String) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: Double) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: Float) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: Int) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: Int8) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: Int16) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: Int32) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: Int64) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: UInt) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: UInt8) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: UInt16) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: UInt32) throws { self.elements.values.append(.value(value)) }
  mutating func encode(_ value: UInt64) throws { self.elements.values.append(.value(value)) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = KeyedMembers(recording: self.recording)
    self.elements.values.append(.keyed(nested))
    return KeyedEncodingContainer(
      KeyedShapeContainer<NestedKey>(members: nested, codingPath: self.codingPath))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = UnkeyedElements()
    self.elements.values.append(.unkeyed(nested))
    return UnkeyedShapeContainer(
      elements: nested, recording: self.recording, codingPath: self.codingPath)
  }

  mutating func superEncoder() -> any Encoder {
    self.recording.cannotFollow = true
    return ShapeEncoder(recording: ShapeRecording(), codingPath: self.codingPath)
  }
}

private struct SingleShapeContainer: SingleValueEncodingContainer {
  let recording: ShapeRecording
  var codingPath: [any CodingKey]

  private func record(_ shape: EncodedShape) {
    if self.recording.shape != nil { self.recording.cannotFollow = true }
    self.recording.shape = shape
  }

  mutating func encodeNil() throws { self.record(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws { self.record(.value(value)) }
  mutating func encode(_ value: Bool) throws { self.record(.value(value)) }
  mutating func encode(_ value: String) throws { self.record(.value(value)) }
  mutating func encode(_ value: Double) throws { self.record(.value(value)) }
  mutating func encode(_ value: Float) throws { self.record(.value(value)) }
  mutating func encode(_ value: Int) throws { self.record(.value(value)) }
  mutating func encode(_ value: Int8) throws { self.record(.value(value)) }
  mutating func encode(_ value: Int16) throws { self.record(.value(value)) }
  mutating func encode(_ value: Int32) throws { self.record(.value(value)) }
  mutating func encode(_ value: Int64) throws { self.record(.value(value)) }
  mutating func encode(_ value: UInt) throws { self.record(.value(value)) }
  mutating func encode(_ value: UInt8) throws { self.record(.value(value)) }
  mutating func encode(_ value: UInt16) throws { self.record(.value(value)) }
  mutating func encode(_ value: UInt32) throws { self.record(.value(value)) }
  mutating func encode(_ value: UInt64) throws { self.record(.value(value)) }
}
