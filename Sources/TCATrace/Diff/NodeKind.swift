import ActionObservation
import CustomDump
@_spi(Reflection) import Swift
import RuntimeSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the diff needs to know of a type, and how to read its values where they lie, found once
/// per type.
///
/// NB: Each question is a protocol conformance lookup, which costs a fair part of a
/// microsecond; asked of every value the diff visits, they added up. So did `Mirror`, which
/// resolves each field's type from its mangled name on every reflection, and the casts of
/// fields to `any Equatable`. A kind answers the questions once, and for a plain struct keeps
/// where each stored property lies: the diff compares two values field by field in place,
/// skips the fields whose bytes are the same, and asks `==` of the rest with their own types.
final class NodeKind: @unchecked Sendable {
  // NB: `@unchecked`: a kind and its closures are immutable once built.

  /// A stored property of a plain struct.
  struct Field {
    let name: String
    /// Where the property's bytes are in a value of the struct, and how many there are.
    let offset: Int
    let size: Int
    let kind: NodeKind
    /// What an observation macro adds (`_$observationRegistrar`), which the diff does not
    /// compare; see ``FieldPlace/isObservationMachinery``.
    let isObservationMachinery: Bool
  }

  /// Where a stored property's bytes are: a ``Field`` without its name and kind, so that
  /// reading the places of a struct's fields retains nothing.
  struct FieldPlace {
    let offset: Int
    let size: Int
    /// The field's kind's ``NodeKind/mayHoldShared``.
    let mayHoldShared: Bool
    /// Whether the field is the registrar an observation macro adds (`_$observationRegistrar`),
    /// which is not compared: its `==` says "equal" whatever it holds, CustomDump does not show
    /// it, and two copies of one value may differ in its bytes (on TCA it holds an existential,
    /// and a copy of an existential copies only the bytes its value uses).
    let isObservationMachinery: Bool

    /// Whether the property's bytes are the same in the two values. Then it holds the same
    /// value: the same scalars, or the same references to the same storage — but for a
    /// ``Shared`` value, whose one reference holds its value before the action and after it
    /// (`sharedValuesExist` says whether one may). An observation registrar is the same.
    func hasSameBytes(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer, sharedValuesExist: Bool)
      -> Bool
    {
      if self.isObservationMachinery { return true }
      if self.mayHoldShared && sharedValuesExist { return false }
      return self.size == 0 || memcmp(old + self.offset, new + self.offset, self.size) == 0
    }
  }

  /// The type this is the kind of.
  let type: Any.Type
  /// Its values' size in bytes.
  let size: Int
  let isOptional: Bool
  /// A ``Shared`` value, a struct with one among its stored properties, an optional of one, or
  /// a value of another `Equatable` type, which may hold one: its bytes do not tell whether it
  /// changed, its `==` does (see `SharedChangeTracker`).
  let mayHoldShared: Bool
  let isRedacted: Bool
  /// The differences of two identified collections of this type in place (see
  /// ``DiffableIdentifiedCollection``); `nil` for other types.
  let identifiedDifferences: ((UnsafeRawPointer, UnsafeRawPointer) -> [IdentifiedDifference])?
  /// The changed elements of two identified collections of this type in place, visited where
  /// they lie (see ``DiffableIdentifiedCollection/visitChangedElements(in:_:)``); `nil` for
  /// other types.
  let visitChangedElements: VisitChangedElements?
  typealias VisitChangedElements = (
    UnsafeRawPointer, UnsafeRawPointer,
    (
      _ id: String, _ old: UnsafeRawPointer, _ new: UnsafeRawPointer, _ known: Bool,
      _ elementKind: NodeKind
    ) -> Void
  ) -> Bool
  /// A ``Shared`` value: its one reference holds its value before the action and after it.
  let isShared: Bool
  /// A value that reads as the state it wraps (a presentation state).
  let isTransparent: Bool
  /// A standard library number, string or flag: always a leaf.
  let isScalar: Bool
  /// A value that CustomDump prints its own way (`CustomDumpReflectable`,
  /// `CustomDumpRepresentable`, `CustomDumpStringConvertible`): diffed as it prints.
  let printsItsOwnWay: Bool
  /// The stored properties, when the type is a plain struct: not a collection, not a type with
  /// a custom mirror, not redacted.
  let fields: [Field]?
  /// The places of ``fields``, in their order.
  let fieldPlaces: [FieldPlace]
  /// Where a value of this kind holds values, as byte ranges, merged where they touch: all its
  /// bytes, or, for a plain struct, its fields' but an observation registrar's, and so on down
  /// its plain struct fields (see ``hasSameValueBytes(_:_:)``).
  ///
  /// NB: Kept outside an array, allocated once for good as kinds are: reading an array held by
  /// a kind retained and released it, for each row of a collection.
  private let valueByteRanges: UnsafeBufferPointer<Range<Int>>
  /// `==` of the type, taking a value of any type on the right; `nil` when not `Equatable`.
  let equals: ((Any, Any) -> Bool)?
  /// `==` of the type, of two values in place; `nil` when not `Equatable`.
  let equalsInPlace: ((UnsafeRawPointer, UnsafeRawPointer) -> Bool)?
  /// A copy of the value in place.
  let load: (UnsafeRawPointer) -> Any
  /// The value in place rendered as ``StateDiff/render(_:)`` renders it.
  let render: (UnsafeRawPointer) -> String

  private init<T>(_: T.Type) {
    let key = ObjectIdentifier(T.self)
    self.type = T.self
    self.size = MemoryLayout<T>.size
    self.isOptional = T.self is any OptionalProtocol.Type
    self.isRedacted = T.self is any TraceRedacted.Type
    if let diffable = T.self as? any DiffableIdentifiedCollection.Type {
      self.identifiedDifferences = Self.differ(diffable)
      self.visitChangedElements = Self.visitor(diffable)
    } else {
      (self.identifiedDifferences, self.visitChangedElements) = (nil, nil)
    }
    self.isShared = T.self is any _SharedStateValue.Type
    self.isTransparent = T.self is any _TransparentStateWrapper.Type
    self.isScalar = Self.scalarTypes.contains(key)
    if let equatable = T.self as? any Equatable.Type {
      self.equals = Self.comparison(equatable)
      self.equalsInPlace = Self.comparisonInPlace(equatable)
    } else {
      (self.equals, self.equalsInPlace) = (nil, nil)
    }
    self.load = { $0.load(as: T.self) }
    self.render = Self.renderer(T.self)
    // NB: A value CustomDump prints its own way (an alert, a `TextState`) is diffed as it
    // prints, not by its stored properties: the rebuilt state is its printing (`StateTree`).
    self.printsItsOwnWay =
      T.self is any CustomDumpReflectable.Type || T.self is any CustomDumpRepresentable.Type
      || T.self is any CustomDumpStringConvertible.Type
    let isPlainStruct =
      !self.isScalar && !self.isRedacted && self.identifiedDifferences == nil
      && !self.printsItsOwnWay && !(T.self is any CustomReflectable.Type)
      && Self.isStruct(T.self)
    self.fields = isPlainStruct ? Self.fields(of: T.self) : nil
    self.fieldPlaces = (self.fields ?? []).map {
      FieldPlace(
        offset: $0.offset, size: $0.size, mayHoldShared: $0.kind.mayHoldShared,
        isObservationMachinery: $0.isObservationMachinery
      )
    }
    self.valueByteRanges = Self.valueByteRanges(fields: self.fields, size: self.size)
    if self.isShared {
      self.mayHoldShared = true
    } else if let fields = self.fields {
      // NB: An observation registrar holds no shared value: the diff does not compare it.
      self.mayHoldShared = fields.contains { $0.kind.mayHoldShared && !$0.isObservationMachinery }
    } else if let optional = T.self as? any OptionalProtocol.Type {
      self.mayHoldShared = NodeKind.mayHoldShared(optional.wrappedType)
    } else if let collection = T.self as? any ElementTyped.Type {
      // NB: An array of rows that hold no shared value cannot hold one: its `==` is trusted.
      self.mayHoldShared = collection.elementTypes.contains { NodeKind.mayHoldShared($0) }
    } else {
      self.mayHoldShared = !self.isScalar && self.equals != nil
    }
  }

  deinit {
    UnsafeMutableBufferPointer(mutating: self.valueByteRanges).deallocate()
  }

  /// Whether a value of this kind may have changed though `==` says it is equal: it may hold a
  /// ``Shared`` value inside a collection, whose `==` answers "equal" for storage it shares
  /// without comparing its elements (and so without asking the shared value what changed).
  var mayChangeUnseen: Bool {
    self.mayHoldShared && sharedValuesExist.loadRelaxed() != 0
  }

  /// Whether two values of this kind in place hold the same bytes wherever they hold a value:
  /// all of them, or, for a plain struct, those of each field but an observation registrar
  /// (see ``FieldPlace/isObservationMachinery``), and so on down its plain struct fields. Then
  /// they are the same value, unless a shared value hides in them (see ``mayChangeUnseen``,
  /// which the caller asks first: a shared value's bytes stay the same while it changes).
  ///
  /// NB: One comparison for each run of fields between registrars, not one for each field: on
  /// TCA every copy of an `@ObservableState` row differs from the row in its registrar, and a
  /// changed row among many compares each other one here.
  func hasSameValueBytes(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer) -> Bool {
    for range in self.valueByteRanges
    where memcmp(old + range.lowerBound, new + range.lowerBound, range.count) != 0 {
      return false
    }
    return true
  }

  /// `lhs == rhs` when `lhs`'s type is `Equatable`; `nil` when it is not.
  func isEqual(_ lhs: Any, _ rhs: Any) -> Bool? {
    self.equals.map { $0(lhs, rhs) }
  }

  private static let cache = Locked<[ObjectIdentifier: NodeKind]>([:])

  /// The kind of `value`'s type.
  static func of(_ value: Any) -> NodeKind {
    self.of(Swift.type(of: value))
  }

  /// The types whose kinds are being built on this thread: a type that holds a collection of
  /// itself asks for its own kind while building it.
  @TaskLocal private static var building: Set<ObjectIdentifier> = []

  /// Whether a value of `type` may hold a shared value; `true` for a type whose kind is being
  /// built, which holds itself through a collection.
  private static func mayHoldShared(_ type: Any.Type) -> Bool {
    guard !self.building.contains(ObjectIdentifier(type)) else { return true }
    return self.of(type).mayHoldShared
  }

  /// The kind of `type`, built the first time it is asked for.
  static func of(_ type: Any.Type) -> NodeKind {
    let key = ObjectIdentifier(type)
    // NB: Built outside the lock: a struct's kind builds its fields' kinds.
    return self.cache.value(for: key) {
      func build<T>(_: T.Type) -> NodeKind { NodeKind(T.self) }
      var building = self.building
      building.insert(key)
      return self.$building.withValue(building) { _openExistential(type, do: build) }
    }
  }

  /// Calls `body` with the place of a boxed value.
  static func withPlace<Result>(of value: Any, _ body: (UnsafeRawPointer) -> Result) -> Result {
    func open<Value>(_ value: Value) -> Result {
      withUnsafePointer(to: value) { body(UnsafeRawPointer($0)) }
    }
    return _openExistential(value, do: open)
  }

  /// Calls `body` with the places of two boxed values.
  static func withPlaces(
    _ old: Any, _ new: Any, _ body: (UnsafeRawPointer, UnsafeRawPointer) -> Void
  ) {
    func openOld<Old>(_ old: Old) {
      withUnsafePointer(to: old) { oldPlace in
        func openNew<New>(_ new: New) {
          withUnsafePointer(to: new) { body(UnsafeRawPointer(oldPlace), UnsafeRawPointer($0)) }
        }
        _openExistential(new, do: openNew)
      }
    }
    _openExistential(old, do: openOld)
  }

  private static let scalarTypes: Set<ObjectIdentifier> = [
    ObjectIdentifier(Int.self), ObjectIdentifier(Int8.self), ObjectIdentifier(Int16.self),
    ObjectIdentifier(Int32.self), ObjectIdentifier(Int64.self), ObjectIdentifier(UInt.self),
    ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt32.self),
    ObjectIdentifier(UInt64.self), ObjectIdentifier(Double.self), ObjectIdentifier(Float.self),
    ObjectIdentifier(Bool.self), ObjectIdentifier(String.self), ObjectIdentifier(Character.self),
    ObjectIdentifier(Substring.self),
  ]

  /// The byte ranges of ``valueByteRanges``, for a type of `size` bytes with `fields` (`nil`: not
  /// a plain struct).
  private static func valueByteRanges(fields: [Field]?, size: Int) -> UnsafeBufferPointer<
    Range<Int>
  > {
    var ranges: [Range<Int>] = []
    func add(_ range: Range<Int>) {
      guard !range.isEmpty else { return }
      if let last = ranges.last, last.upperBound == range.lowerBound {
        ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
      } else {
        ranges.append(range)
      }
    }
    if let fields {
      for field in fields.sorted(by: { $0.offset < $1.offset }) where !field.isObservationMachinery
      {
        guard field.kind.fields != nil else {
          add(field.offset..<(field.offset + field.size))
          continue
        }
        for range in field.kind.valueByteRanges {
          add((field.offset + range.lowerBound)..<(field.offset + range.upperBound))
        }
      }
    } else {
      add(0..<size)
    }
    let buffer = UnsafeMutableBufferPointer<Range<Int>>.allocate(capacity: ranges.count)
    _ = buffer.initialize(from: ranges)
    return UnsafeBufferPointer(buffer)
  }

  /// Whether `type`'s metadata is a struct's.
  private static func isStruct(_ type: Any.Type) -> Bool {
    MetadataKind.of(type) == MetadataKind.struct
  }

  /// The stored properties of the struct `Root`, with their places and kinds; `nil` when the
  /// standard library's reflection cannot describe all of them.
  private static func fields<Root>(of _: Root.Type) -> [Field]? {
    var places: [(name: String, offset: Int, type: Any.Type, isObservationMachinery: Bool)] = []
    // NB: A presentation state reads as the optional it wraps: `destination.count`, not
    // `destination.wrappedValue.count`.
    let isTransparent = Root.self is any _TransparentStateWrapper.Type
    // NB: As CustomDump leaves them out (see `StateTree`).
    let hidesMachinery = !(Root.self is any CustomDumpReflectable.Type)
    let described = _forEachField(of: Root.self) { name, offset, type, _ in
      var name = String(cString: name)
      let isObservationMachinery = hidesMachinery && name.hasPrefix("_$")
      if name.hasPrefix("_") { name.removeFirst() }
      if isTransparent, name == "wrappedValue" { name = "" }
      places.append((name, offset, type, isObservationMachinery))
      return true
    }
    guard described, !places.isEmpty else { return nil }
    func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    return places.map { place in
      Field(
        name: place.name, offset: place.offset, size: _openExistential(place.type, do: size),
        kind: NodeKind.of(place.type), isObservationMachinery: place.isObservationMachinery
      )
    }
  }

  private static func comparison<T: Equatable>(_: T.Type) -> (Any, Any) -> Bool {
    { lhs, rhs in
      guard let rhs = rhs as? T else { return false }
      return lhs as! T == rhs
    }
  }

  private static func differ<T: DiffableIdentifiedCollection>(
    _: T.Type
  ) -> (UnsafeRawPointer, UnsafeRawPointer) -> [IdentifiedDifference] {
    { old, new in
      old.assumingMemoryBound(to: T.self).pointee
        .identifiedDifferences(to: new.assumingMemoryBound(to: T.self).pointee)
    }
  }

  private static func visitor<T: DiffableIdentifiedCollection>(_: T.Type) -> VisitChangedElements {
    // NB: The elements' kind is found at the first diff, not as this kind is built: an element
    // may hold a collection of its own type. Kept here, it is not looked up at every diff.
    let elementKind = KindCell()
    return { old, new, visit in
      let kind = elementKind.kind(of: T.elementType)
      return old.assumingMemoryBound(to: T.self).pointee.visitChangedElements(
        in: new.assumingMemoryBound(to: T.self).pointee, elementKind: kind
      ) { id, old, new, known in
        visit(id, old, new, known, kind)
      }
    }
  }

  /// A kind found the first time it is asked for and kept, read without a lock after that.
  private final class KindCell: Sendable {
    /// The kind's object, retained, as bits; 0 until it is found.
    private let bits = AtomicWord(0)

    func kind(of type: Any.Type) -> NodeKind {
      let bits = self.bits.loadAcquiring()
      if bits != 0 {
        return Unmanaged<NodeKind>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
          .takeUnretainedValue()
      }
      let kind = NodeKind.of(type)
      let found = UInt(bitPattern: Unmanaged.passRetained(kind).toOpaque())
      // NB: Two threads may find it at once: the same kind (`NodeKind.of(_:)` keeps one per type);
      // the one that comes second gives its reference back.
      if !self.bits.compareExchange(expected: 0, desired: found) {
        Unmanaged<NodeKind>.fromOpaque(UnsafeRawPointer(bitPattern: found)!).release()
      }
      return kind
    }

    deinit {
      let bits = self.bits.loadAcquiring()
      if bits != 0 { Unmanaged<NodeKind>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
    }
  }

  private static func comparisonInPlace<T: Equatable>(
    _: T.Type
  ) -> (UnsafeRawPointer, UnsafeRawPointer) -> Bool {
    // NB: Read through `pointee`, each value was copied for `==`: a retain of every reference
    // in a state, and a release after. Passed `inout`, they are compared where they lie; they
    // are not changed.
    func equal(_ lhs: inout T, _ rhs: inout T) -> Bool { lhs == rhs }
    return { lhs, rhs in
      guard lhs != rhs else { return true }
      return equal(
        &UnsafeMutablePointer(mutating: lhs.assumingMemoryBound(to: T.self)).pointee,
        &UnsafeMutablePointer(mutating: rhs.assumingMemoryBound(to: T.self)).pointee
      )
    }
  }

  /// How values of `T` in place are rendered: the common leaves directly, the rest by
  /// ``StateDiff/render(_:)``.
  private static func renderer<T>(_: T.Type) -> (UnsafeRawPointer) -> String {
    switch ObjectIdentifier(T.self) {
    case ObjectIdentifier(Int.self): { StateDiff.render($0.load(as: Int.self)) }
    case ObjectIdentifier(Bool.self): { $0.load(as: Bool.self) ? "true" : "false" }
    case ObjectIdentifier(Double.self): { String($0.load(as: Double.self)) }
    case ObjectIdentifier(String.self):
      { StateDiff.render($0.assumingMemoryBound(to: String.self).pointee) }
    default: { StateDiff.render($0.load(as: T.self)) }
    }
  }
}

/// A collection whose element types say what its values may hold.
protocol ElementTyped {
  static var elementTypes: [Any.Type] { get }
}

extension Array: ElementTyped {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension ContiguousArray: ElementTyped {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension Set: ElementTyped {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: ElementTyped {
  static var elementTypes: [Any.Type] { [Key.self, Value.self] }
}
