import ActionObservation
import CustomDump
import RuntimeSupport
import TCATraceFile

/// Finds what changed between two values of a state, leaf by leaf.
///
/// NB: Equal subtrees are skipped before they are looked into: an `Equatable` subtree is
/// compared with `==` first, and the standard collections compare their storage's identity
/// before their elements, so an untouched array of a million rows costs one comparison. The
/// cost of a diff follows what changed, not the size of the state.
enum StateDiff {
  /// What a diff found: the changes, and where the state holds a `Shared` value that changed.
  struct Changes {
    var list: [StateChange] = []
    /// The paths of the shared values that changed: every feature that holds one shows its
    /// change, whichever feature made it.
    var sharedPaths: [String] = []

    var count: Int { self.list.count }

    // NB: Consumed, so that the change is moved into the list, not copied (a retain of each of
    // its strings, and their release).
    mutating func append(_ change: consuming StateChange) {
      self.list.append(change)
    }
  }

  /// The changes from `old` to `new`, in the order of the state's properties.
  static func changes(from old: Any, to new: Any) -> [StateChange] {
    var changes = Changes()
    self.diff(old, new, path: "", depth: 0, knownUnequal: false, into: &changes)
    return changes.list
  }

  /// The changes from the value at `old` to the value at `new`, for a caller that knows their
  /// type's kind: the recorder, with the store's state.
  static func changes(
    from old: UnsafeRawPointer, to new: UnsafeRawPointer, kind: NodeKind
  ) -> Changes {
    var changes = Changes()
    self.diff(kind, old, new, path: "", depth: 0, knownUnequal: false, into: &changes)
    return changes
  }

  /// How deep a diff looks before it reports a whole subtree as changed.
  static let maxDepth = 48

  private static func diff(
    _ old: Any, _ new: Any, path: String, depth: Int, knownUnequal: Bool = false,
    into changes: inout Changes
  ) {
    let kind = NodeKind.of(old)
    // The fast path for identified collections of `Equatable` elements: they find their own
    // differences (none when they are equal), without asking `==` of the whole first, and
    // before the casts other values need; in place, as in a struct's fields.
    if kind.identifiedDifferences != nil, depth < self.maxDepth, type(of: old) == type(of: new) {
      NodeKind.withPlaces(old, new) { old, new in
        self.diffIdentified(kind, old, new, path: path, depth: depth, into: &changes)
      }
      return
    }
    if !knownUnequal, !kind.mayChangeUnseen, kind.isEqual(old, new) == true { return }
    // NB: A number, a string or a flag is a leaf; asking its mirror would only say so, slowly.
    if kind.isScalar { return self.leaf(old, new, path: path, into: &changes) }
    if kind.isOptional, let oldOptional = old as? any OptionalProtocol,
      let newOptional = new as? any OptionalProtocol
    {
      switch (oldOptional.wrapped, newOptional.wrapped) {
      case (nil, nil):
        return
      case let (nil, new?):
        changes.append(self.added(path: path, new))
      case let (old?, nil):
        changes.append(StateChange(path: path, kind: .removed, old: render(old), new: nil))
      case let (old?, new?):
        self.diff(old, new, path: path, depth: depth, into: &changes)
      }
      return
    }

    // A value of a redacted type is one leaf: whether it changed is recorded, never its text.
    let sameType = type(of: old) == type(of: new)
    if kind.isRedacted || (!sameType && NodeKind.of(new).isRedacted) {
      if kind.isEqual(old, new) == false || Self.dumped(old) != Self.dumped(new) {
        changes.append(
          StateChange(
            path: path, kind: .changed, old: TraceRedaction.marker, new: TraceRedaction.marker)
        )
      }
      return
    }

    guard depth < self.maxDepth, sameType else {
      return self.leaf(old, new, path: path, into: &changes)
    }

    // A shared value is its value before the action and its value now: the two sides hold the
    // same reference.
    if kind.isShared, let shared = new as? any _SharedStateValue {
      let values = shared.sharedValues
      let before = changes.count
      self.diff(values.before, values.after, path: path, depth: depth, into: &changes)
      if changes.count > before {
        changes.sharedPaths.append(path)
        // NB: The innermost shared value holding a change is the one a test changes.
        for index in before..<changes.count where changes.list[index].sharedPath == nil {
          changes.list[index].sharedPath = path
        }
      }
      return
    }

    // A presentation state is what it presents.
    if kind.isTransparent, let old = old as? any _TransparentStateWrapper,
      let new = new as? any _TransparentStateWrapper
    {
      return self.diff(old.wrappedState, new.wrappedState, path: path, depth: depth, into: &changes)
    }

    // The fast path for plain structs: in place, field by field, no `Mirror`.
    if kind.fields != nil {
      // NB: `==` was asked above and said "unequal", unless it could not be trusted.
      let knownUnequal = knownUnequal || (kind.equals != nil && !kind.mayChangeUnseen)
      NodeKind.withPlaces(old, new) { old, new in
        self.diff(
          kind, old, new, path: path, depth: depth, knownUnequal: knownUnequal, into: &changes)
      }
      return
    }

    // A value CustomDump prints its own way is diffed as it prints, as `StateTree` builds it:
    // a change's path names a node of the rebuilt state (an alert's `title`, not its stored
    // `title.storage`).
    if kind.printsItsOwnWay {
      if old is any CustomDumpStringConvertible {
        return self.leaf(old, new, path: path, into: &changes)
      }
      if let old = old as? any CustomDumpRepresentable,
        let new = new as? any CustomDumpRepresentable
      {
        return self.diff(
          old.customDumpValue, new.customDumpValue, path: path, depth: depth + 1, into: &changes)
      }
    }
    let oldMirror =
      (old as? any CustomDumpReflectable)?.customDumpMirror ?? Mirror(reflecting: old)
    let newMirror =
      (new as? any CustomDumpReflectable)?.customDumpMirror ?? Mirror(reflecting: new)
    switch oldMirror.displayStyle {
    case .struct?, .class?, .tuple?:
      let oldChildren = Array(oldMirror.children)
      let newChildren = Array(newMirror.children)
      guard !oldChildren.isEmpty, oldChildren.count == newChildren.count else {
        return self.leaf(old, new, path: path, into: &changes)
      }
      let before = changes.count
      for (index, (oldChild, newChild)) in zip(oldChildren, newChildren).enumerated() {
        let name =
          oldChild.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } ?? "\(index)"
        self.diff(
          oldChild.value, newChild.value, path: join(path, name), depth: depth + 1, into: &changes)
      }
      // A value whose properties all compare equal but that is not `Equatable`-equal (a class
      // with identity, say) changed in a way its properties do not show.
      if changes.count == before, kind.isEqual(old, new) == false {
        self.leaf(old, new, path: path, into: &changes)
      }

    case .enum?:
      guard
        let (oldCase, oldPayload) = EnumReflection.decompose(old),
        let (newCase, newPayload) = EnumReflection.decompose(new),
        oldCase == newCase,
        let oldPayload, let newPayload
      else {
        return self.leaf(old, new, path: path, into: &changes)
      }
      self.diff(oldPayload, newPayload, path: join(path, oldCase), depth: depth + 1, into: &changes)

    case .collection?:
      self.diffCollection(
        Array(oldMirror.children.map(\.value)), Array(newMirror.children.map(\.value)),
        ids: (
          (old as? any ElementsIdentifiedByID)?.elementIDs,
          (new as? any ElementsIdentifiedByID)?.elementIDs
        ),
        path: path, depth: depth, into: &changes
      )

    case .dictionary?:
      self.diffDictionary(oldMirror, newMirror, path: path, depth: depth, into: &changes)

    case .set?:
      self.diffSet(oldMirror, newMirror, path: path, into: &changes)

    default:
      self.leaf(old, new, path: path, into: &changes)
    }
  }

  /// Appends the changes of two identified collections of `kind`'s type in place: their changed
  /// elements where they lie when the ids are the same, in the same order; what their
  /// ``IdentifiedDifference``s say otherwise.
  private static func diffIdentified(
    _ kind: NodeKind, _ old: UnsafeRawPointer, _ new: UnsafeRawPointer, path: String, depth: Int,
    into changes: inout Changes
  ) {
    let visited = kind.visitChangedElements?(old, new) { id, old, new, known, elementKind in
      self.diff(
        elementKind, old, new, path: "\(path)[id: \(id)]", depth: depth + 1,
        knownUnequal: known, into: &changes
      )
    }
    guard visited != true, let differ = kind.identifiedDifferences else { return }
    self.append(differ(old, new), path: path, depth: depth, into: &changes)
  }

  /// Appends what an identified collection's ``IdentifiedDifference``s say changed at `path`.
  private static func append(
    _ differences: [IdentifiedDifference], path: String, depth: Int, into changes: inout Changes
  ) {
    for difference in differences {
      switch difference {
      case let .order(oldIDs, newIDs):
        changes.append(self.orderChange(path: path, old: oldIDs, new: newIDs))
      case let .changed(id, oldElement, newElement, known):
        self.diff(
          oldElement, newElement, path: "\(path)[id: \(describe(id))]", depth: depth + 1,
          knownUnequal: known, into: &changes
        )
      case let .added(id, newElement, index):
        // NB: A stack prints as its ids and elements: the label is the id as printed.
        var change = self.added(path: "\(path)[id: \(describe(id))]", newElement, index: index)
        change.rebuild?.label = StateTree.node(of: id.base).renderedNested()
        changes.append(change)
      case let .removed(id, oldElement):
        changes.append(
          StateChange(
            path: "\(path)[id: \(describe(id))]", kind: .removed, old: render(oldElement), new: nil)
        )
      }
    }
  }

  /// The change of an identified collection's order: its kept elements' ids before and after,
  /// and the order that rebuilds it.
  private static func orderChange(path: String, old: [AnyHashable], new: [AnyHashable])
    -> StateChange
  {
    StateChange(
      path: path, kind: .changed,
      old: "[" + old.map(describe).joined(separator: ", ") + "]",
      new: "[" + new.map(describe).joined(separator: ", ") + "]",
      rebuild: StateChange.Rebuild(order: new.map { "[id: \(describe($0))]" })
    )
  }

  /// The diff of two values of `kind`'s type in place.
  ///
  /// - Parameter knownUnequal: `==` has been asked and said the values differ.
  private static func diff(
    _ kind: NodeKind, _ old: UnsafeRawPointer, _ new: UnsafeRawPointer, path: String, depth: Int,
    knownUnequal: Bool, into changes: inout Changes
  ) {
    if kind.isScalar {
      if !knownUnequal, kind.equalsInPlace?(old, new) == true { return }
      let (oldText, newText) = (kind.render(old), kind.render(new))
      if oldText != newText {
        // NB: A string of several lines prints otherwise under a label: its tree says how.
        let rebuild =
          !self.allBytes(of: newText, satisfy: { $0 != 0x0A })
          ? StateTree.rebuildNode(of: kind.load(new), text: newText) : nil
        changes.append(
          StateChange(
            path: path, kind: .changed, old: oldText, new: newText,
            rebuild: rebuild.map { .init(node: $0) })
        )
      }
      return
    }
    // The fast path for identified collections, without boxing them.
    if kind.identifiedDifferences != nil, depth < self.maxDepth {
      return self.diffIdentified(kind, old, new, path: path, depth: depth, into: &changes)
    }
    guard let fields = kind.fields, depth < self.maxDepth else {
      return self.diff(
        kind.load(old), kind.load(new), path: path, depth: depth, knownUnequal: knownUnequal,
        into: &changes
      )
    }
    // NB: A field whose bytes are the same on both sides did not change, and its type's `==`
    // need not be asked. This skips most fields of most actions, and whole states untouched.
    // NB: The places hold no reference: reading them retains nothing, where reading each
    // field's name and kind retained and released both, for every field of every action.
    let places = kind.fieldPlaces
    let sharedValuesExist = sharedValuesExist.loadRelaxed() != 0
    var unequal = knownUnequal
    if !knownUnequal {
      guard
        places.contains(where: { !$0.hasSameBytes(old, new, sharedValuesExist: sharedValuesExist) })
      else { return }
      if !kind.mayChangeUnseen, let equals = kind.equalsInPlace {
        if equals(old, new) { return }
        unequal = true
      }
    }
    let before = changes.count
    for index in places.indices
    where !places[index].hasSameBytes(old, new, sharedValuesExist: sharedValuesExist) {
      let field = fields[index]
      self.diff(
        field.kind, old + field.offset, new + field.offset, path: join(path, field.name),
        depth: depth + 1, knownUnequal: false, into: &changes
      )
    }
    // Unequal, but no field shows how (a custom `==`): the whole value is one change.
    if changes.count == before, unequal {
      self.leaf(kind.load(old), kind.load(new), path: path, into: &changes)
    }
  }

  /// Appends the changes of two collections' elements: by id where `ids` holds both sides'
  /// (an identified collection's, see ``ElementsIdentifiedByID``), by index elsewhere.
  private static func diffCollection(
    _ old: [Any], _ new: [Any], ids: ([AnyHashable]?, [AnyHashable]?), path: String, depth: Int,
    into changes: inout Changes
  ) {
    guard let oldIDs = ids.0, let newIDs = ids.1, oldIDs.count == old.count,
      newIDs.count == new.count
    else {
      for index in 0..<max(old.count, new.count) {
        let elementPath = "\(path)[\(index)]"
        switch (index < old.count ? old[index] : nil, index < new.count ? new[index] : nil) {
        case let (old?, new?):
          self.diff(old, new, path: elementPath, depth: depth + 1, into: &changes)
        case let (nil, new?):
          changes.append(self.added(path: elementPath, new))
        case let (old?, nil):
          changes.append(StateChange(path: elementPath, kind: .removed, old: render(old), new: nil))
        case (nil, nil):
          break
        }
      }
      return
    }

    // Identified elements: matched by id, in the new order, removals last.
    if oldIDs == newIDs {
      for index in old.indices {
        self.diff(
          old[index], new[index], path: "\(path)[id: \(describe(oldIDs[index]))]",
          depth: depth + 1, into: &changes
        )
      }
      return
    }
    var oldByID: [AnyHashable: Any] = [:]
    for (id, element) in zip(oldIDs, old) { oldByID[id] = element }
    // The elements both sides hold, if they moved, are a change of the collection's order.
    let newIDLookup = Set(newIDs)
    let keptOld = oldIDs.filter { newIDLookup.contains($0) }
    let keptNew = newIDs.filter { oldByID[$0] != nil }
    if keptOld != keptNew {
      changes.append(self.orderChange(path: path, old: keptOld, new: keptNew))
    }
    var newIDSet = Set<AnyHashable>()
    for (index, (id, element)) in zip(newIDs, new).enumerated() {
      newIDSet.insert(id)
      let elementPath = "\(path)[id: \(describe(id))]"
      if let oldElement = oldByID[id] {
        self.diff(oldElement, element, path: elementPath, depth: depth + 1, into: &changes)
      } else {
        changes.append(self.added(path: elementPath, element, index: index))
      }
    }
    for (id, element) in zip(oldIDs, old) where !newIDSet.contains(id) {
      changes.append(
        StateChange(
          path: "\(path)[id: \(describe(id))]", kind: .removed, old: render(element), new: nil
        )
      )
    }
  }

  private static func diffDictionary(
    _ old: Mirror, _ new: Mirror, path: String, depth: Int, into changes: inout Changes
  ) {
    func entries(_ mirror: Mirror) -> [(key: Any, value: Any)] {
      mirror.children.compactMap { child in
        let pair = Array(Mirror(reflecting: child.value).children)
        return pair.count == 2 ? (pair[0].value, pair[1].value) : nil
      }
    }
    func hashable(_ key: Any) -> AnyHashable {
      (key as? AnyHashable) ?? AnyHashable(render(key))
    }
    let oldEntries = entries(old)
    let newEntries = entries(new)
    var oldByKey: [AnyHashable: Any] = [:]
    for entry in oldEntries { oldByKey[hashable(entry.key)] = entry.value }
    var newKeys = Set<AnyHashable>()
    // NB: Dictionaries have no order; entries are reported sorted by their rendered key.
    for entry in newEntries.sorted(by: { render($0.key) < render($1.key) }) {
      let key = hashable(entry.key)
      newKeys.insert(key)
      let entryPath = "\(path)[\(render(entry.key))]"
      if let oldValue = oldByKey[key] {
        self.diff(oldValue, entry.value, path: entryPath, depth: depth + 1, into: &changes)
      } else {
        var change = self.added(path: entryPath, entry.value)
        change.rebuild = StateChange.Rebuild(
          node: change.rebuild?.node ?? .text(change.new ?? ""),
          label: StateTree.node(of: entry.key).renderedNested()
        )
        changes.append(change)
      }
    }
    for entry in oldEntries.sorted(by: { render($0.key) < render($1.key) })
    where !newKeys.contains(hashable(entry.key)) {
      changes.append(
        StateChange(
          path: "\(path)[\(render(entry.key))]", kind: .removed, old: render(entry.value), new: nil
        )
      )
    }
  }

  private static func diffSet(
    _ old: Mirror, _ new: Mirror, path: String, into changes: inout Changes
  ) {
    let oldElements = Dictionary(
      old.children.map { (render($0.value), $0.value) }, uniquingKeysWith: { first, _ in first }
    )
    let newElements = Dictionary(
      new.children.map { (render($0.value), $0.value) }, uniquingKeysWith: { first, _ in first }
    )
    for key in newElements.keys.sorted() where oldElements[key] == nil {
      var change = StateChange(path: "\(path)[\(key)]", kind: .added, old: nil, new: key)
      let node = StateTree.node(of: newElements[key]!)
      change.rebuild = node.renderedNested() == key ? nil : StateChange.Rebuild(node: node)
      changes.append(change)
    }
    for key in oldElements.keys.sorted() where newElements[key] == nil {
      changes.append(StateChange(path: "\(path)[\(key)]", kind: .removed, old: key, new: nil))
    }
  }

  private static func leaf(_ old: Any, _ new: Any, path: String, into changes: inout Changes) {
    let (oldText, newText) = (render(old), render(new))
    guard oldText != newText else { return }
    let rebuild = StateTree.rebuildNode(of: new, text: newText).map {
      StateChange.Rebuild(node: $0)
    }
    changes.append(
      StateChange(path: path, kind: .changed, old: oldText, new: newText, rebuild: rebuild))
  }

  /// The change that adds `new` at `path`: an optional's value, a collection's element (at
  /// `index`, in an identified collection).
  private static func added(path: String, _ new: Any, index: Int? = nil) -> StateChange {
    let text = render(new)
    let node = StateTree.rebuildNode(of: new, text: text)
    let rebuild = node == nil && index == nil ? nil : StateChange.Rebuild(node: node, index: index)
    return StateChange(path: path, kind: .added, old: nil, new: text, rebuild: rebuild)
  }

  /// `value`'s whole structure, with the standard library's `dump`, for comparing values that
  /// are not `Equatable` without rendering them into anything written.
  private static func dumped(_ value: Any) -> String {
    var output = ""
    dump(value, to: &output)
    return output
  }

  private static func join(_ path: String, _ name: String) -> String {
    path.isEmpty ? name : name.isEmpty ? path : "\(path).\(name)"
  }

  /// `value` rendered as CustomDump renders it.
  ///
  /// NB: CustomDump looks for a dozen protocols before it prints even an `Int`; the common
  /// leaves of a state are printed here directly, in CustomDump's format, and everything else
  /// goes to CustomDump. `StateDiffTests` checks the two agree.
  static func render(_ value: Any) -> String {
    // NB: A leaf of one of these types exactly is cast once: each failed cast of the switch
    // below walks the runtime's casting rules (optionals, `AnyHashable`, bridging) first.
    switch ObjectIdentifier(type(of: value)) {
    case ObjectIdentifier(String.self): return self.render(value as! String)
    case ObjectIdentifier(Int.self): return self.render(value as! Int)
    case ObjectIdentifier(Bool.self): return (value as! Bool) ? "true" : "false"
    case ObjectIdentifier(Double.self): return String(value as! Double)
    default: break
    }
    // NB: A struct other than `AnyHashable`, or an enum (`Optional` has a kind of its own), is
    // none of the four types below, whatever it holds: their casts (about 360 instructions
    // each) are not tried.
    let type = type(of: value)
    let kind = MetadataKind.of(type)
    if kind == MetadataKind.enum
      || kind == MetadataKind.struct && ObjectIdentifier(type) != ObjectIdentifier(AnyHashable.self)
    {
      return self.renderOther(value)
    }
    switch value {
    case let value as Int: return self.render(value)
    case let value as Bool: return value ? "true" : "false"
    case let value as Double: return String(value)
    case let value as String: return self.render(value)
    default: return self.renderOther(value)
    }
  }

  /// `value`, of none of the types ``render(_:)`` renders itself, rendered as CustomDump
  /// renders it.
  private static func renderOther(_ value: Any) -> String {
    #if ComposableArchitecture
      // NB: CustomDump prints TCA's `@ObservableState` structs with their storage's names
      // (`_title:`); the state's tree reads them as `Composable` prints them (`title:`).
      return renderedBindingAction(value) ?? StateTree.node(of: value).rendered()
    #else
      return (value as? any RenderedBindingAction)?.rendered ?? String(customDumping: value)
    #endif
  }

  /// `value` in decimal, as `String(value)` writes it (see `DecimalDigits`).
  static func render(_ value: Int) -> String {
    DecimalDigits.string(of: value)
  }

  /// `string` rendered as CustomDump renders it.
  static func render(_ string: String) -> String {
    // NB: Printable ASCII without quotes or backslashes is quoted as it is.
    if self.isQuotedAsItIs(string) {
      return "\"\(string)\""
    }
    return String(customDumping: string)
  }

  /// Whether `string` is printable ASCII without quotes or backslashes.
  private static func isQuotedAsItIs(_ string: String) -> Bool {
    self.allBytes(of: string) { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
  }

  /// Whether every byte of `string`'s UTF-8 satisfies `predicate`, read where the bytes lie
  /// when they are contiguous (a native string's are): its `UTF8View`, walked a byte at a time,
  /// costs about 40 instructions a byte.
  static func allBytes(of string: String, satisfy predicate: (UInt8) -> Bool) -> Bool {
    string.utf8.withContiguousStorageIfAvailable { bytes in
      for byte in bytes where !predicate(byte) { return false }
      return true
    } ?? string.utf8.allSatisfy(predicate)
  }

  private static func describe(_ id: AnyHashable) -> String {
    ActionRoute.ElementID.describe(id.base)
  }
}
