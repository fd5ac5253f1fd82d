import Composable

/// Classifies the actions of one enum type, keeping each classification per chain of cases:
/// an action whose cases were seen before is classified by reading its tags, without taking it
/// apart by reflection.
///
/// A classification depends on the cases of the levels it took apart (level 0 is the action's
/// case, level `i + 1` the case of level `i`'s payload) and on the one payload it renders; see
/// ``ClassificationTrace``. The classifier keeps a tree of those chains: a node per level
/// reached, an entry per case. An action is looked up by reading its tags down the tree, and
/// only its payload is rendered anew. Results that depend on more than cases (an element's id,
/// a payload whose type is an existential) are not kept: those actions are classified by
/// reflection each time.
final class ActionClassifier: @unchecked Sendable {
  // NB: `@unchecked`: the tree is only read and grown under `lock`.
  private let lock = Locked(())
  private let root: Node

  private init(root: Node) {
    self.root = root
  }

  private static let classifiers = Locked<[ObjectIdentifier: ActionClassifier?]>([:])

  /// The classifier of `type`'s values; `nil` when `type` is not an enum, whose actions are
  /// classified by reflection.
  static func of(_ type: Any.Type) -> ActionClassifier? {
    let key = ObjectIdentifier(type)
    if let known = self.classifiers.withLock({ $0[key] }) { return known }
    let classifier = EnumReflection.layout(of: type).map { ActionClassifier(root: Node($0)) }
    self.classifiers.withLock { $0[key] = .some(classifier) }
    return classifier
  }

  /// The classification of the action at `action`, a value of this classifier's type, which
  /// `value` boxes.
  func classify(at action: UnsafeRawPointer, value: () -> Any) -> ActionClassification {
    let kept = withUnsafeTemporaryAllocation(
      byteCount: Self.scratchBytes, alignment: Self.slotAlignment
    ) { scratch -> ActionClassification? in
      guard let (leaf, payloadPlace) = self.lookUp(action, scratch: scratch) else { return nil }
      guard let payloadPlace, let payload = leaf.payload else { return leaf.classification }
      // NB: Rendered out of the lock: rendering may run the payload's own descriptions.
      var classification = leaf.classification
      classification.payload = ActionClassification.render(payload.load(payloadPlace))
      return classification
    }
    if let kept { return kept }
    var trace = ClassificationTrace()
    let classification = ActionClassification.classify(value(), trace: &trace)
    self.keep(classification, trace: trace, for: action)
    return classification
  }

  // MARK: - The tree

  private final class Node {
    let layout: EnumReflection.Layout
    /// By tag: what is known of the chains through this level's case.
    @exclusivity(unchecked) var entries: [Entry?]

    init(_ layout: EnumReflection.Layout) {
      self.layout = layout
      self.entries = Array(repeating: nil, count: layout.cases.count)
    }
  }

  /// NB: The tree's nodes and leaves are kept alive by `objects`; entries refer to them
  /// unretained, so that reading the tree retains and releases nothing.
  private enum Entry {
    /// Classifying took apart the next level too: the payload's case.
    case next(Unmanaged<Node>)
    /// The chain ends here.
    case classified(Unmanaged<Leaf>)
    /// Chains through this case are classified by reflection.
    case uncacheable
  }

  /// Every node and leaf of the tree; only grown, under `lock`.
  @exclusivity(unchecked) private var objects: [AnyObject] = []

  /// The classification of a chain of cases, but for its payload, and the level whose payload
  /// it renders.
  private final class Leaf {
    let classification: ActionClassification
    /// The level whose payload is rendered, and how it is read.
    let payloadLevel: Int?
    let payload: EnumReflection.Layout.Payload?

    init(_ classification: ActionClassification, payload: (level: Int, payload: EnumReflection.Layout.Payload)?) {
      var classification = classification
      classification.payload = nil
      self.classification = classification
      self.payloadLevel = payload?.level
      self.payload = payload?.payload
    }
  }

  /// How many levels the tree follows, and the room for the raw copies it reads tags from.
  private static let maxLevels = 16
  private static let scratchBytes = 1024
  private static let slotAlignment = 16

  /// The leaf kept for `action`'s chain of cases, and where the payload it renders lies.
  private func lookUp(
    _ action: UnsafeRawPointer, scratch: UnsafeMutableRawBufferPointer
  ) -> (Leaf, UnsafeRawPointer?)? {
    withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: Self.maxLevels) {
      payloads in
      self.lock.withLock { _ -> (Leaf, UnsafeRawPointer?)? in
        unowned(unsafe) var node = self.root
        var value = action
        var level = 0
        var used = 0
        while true {
          let tag = node.layout.tag(of: value)
          guard tag < node.entries.count, let entry = node.entries[tag] else { return nil }
          switch entry {
          case .uncacheable:
            return nil

          case let .classified(leaf):
            let leaf = leaf.takeUnretainedValue()
            guard let payloadLevel = leaf.payloadLevel else { return (leaf, nil) }
            if payloadLevel < level { return (leaf, payloads[payloadLevel]) }
            guard let place = Self.project(value, node.layout, tag, into: scratch, used: &used)
            else { return nil }
            return (leaf, place)

          case let .next(child):
            guard
              level + 1 < Self.maxLevels,
              let place = Self.project(value, node.layout, tag, into: scratch, used: &used)
            else { return nil }
            payloads[level] = place
            node = child.takeUnretainedValue()
            (value, level) = (place, level + 1)
          }
        }
      }
    }
  }

  /// Keeps `classification` of the action at `action` for the actions with the same chain of
  /// cases, or marks the chain as classified by reflection.
  private func keep(
    _ classification: ActionClassification, trace: ClassificationTrace, for action: UnsafeRawPointer
  ) {
    let isCacheable = trace.isCacheable && (1...Self.maxLevels).contains(trace.levels)
    withUnsafeTemporaryAllocation(byteCount: Self.scratchBytes, alignment: Self.slotAlignment) {
      scratch in
      self.lock.withLock { _ in
        var node = self.root
        var value = action
        var used = 0
        var payloadToRender: (level: Int, payload: EnumReflection.Layout.Payload)?
        for level in 0..<Self.maxLevels {
          let tag = node.layout.tag(of: value)
          guard tag < node.entries.count else { return }
          let payload = node.layout.cases[tag].payload
          if level == trace.payloadLevel { payloadToRender = payload.map { (level, $0) } }
          // NB: A payload typed as an existential holds values of any type: whether the next
          // level exists depends on the value, not on this case.
          let dependsOnValue = payload.map { Self.isExistential($0.type) } ?? false
          if isCacheable, !dependsOnValue, level == trace.levels - 1 {
            if node.entries[tag] == nil {
              let leaf = Leaf(classification, payload: payloadToRender)
              self.objects.append(leaf)
              node.entries[tag] = .classified(Unmanaged.passUnretained(leaf))
            }
            return
          }
          // Not the last level, or not cacheable: go down while the payload is an enum, and
          // mark the deepest case reached when the chain cannot be kept.
          guard
            !dependsOnValue, level < trace.levels - 1 || !isCacheable,
            let nextLayout = payload.flatMap({ EnumReflection.layout(of: $0.type) }),
            let place = Self.project(value, node.layout, tag, into: scratch, used: &used)
          else {
            if !isCacheable || dependsOnValue { node.entries[tag] = .uncacheable }
            return
          }
          let child: Node
          switch node.entries[tag] {
          case let .next(existing)?:
            child = existing.takeUnretainedValue()
          case nil:
            child = Node(nextLayout)
            self.objects.append(child)
            node.entries[tag] = .next(Unmanaged.passUnretained(child))
          case .classified?, .uncacheable?:
            return
          }
          (node, value) = (child, place)
        }
      }
    }
  }

  /// Projects a raw copy of the enum value at `value`, whose case is `tag`, in `scratch`;
  /// returns where its payload lies, or `nil` when the scratch is full or too little aligned.
  private static func project(
    _ value: UnsafeRawPointer, _ layout: EnumReflection.Layout, _ tag: Int,
    into scratch: UnsafeMutableRawBufferPointer, used: inout Int
  ) -> UnsafeRawPointer? {
    guard let payload = layout.cases[tag].payload else { return nil }
    let size = max(layout.size, 1)
    guard used + size <= scratch.count, layout.witnesses.alignment <= Self.slotAlignment else {
      return nil
    }
    // NB: A bitwise copy: it owns nothing, so it is neither retained nor destroyed.
    let slot = scratch.baseAddress! + used
    slot.copyMemory(from: value, byteCount: layout.size)
    used += (size + Self.slotAlignment - 1) / Self.slotAlignment * Self.slotAlignment
    return layout.projectPayload(slot, of: payload)
  }

  /// Whether values of `type` are existential boxes (`Any`, `any Error`): kinds 0x303, 0x307.
  private static func isExistential(_ type: Any.Type) -> Bool {
    let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
    return kind == 0x303 || kind == 0x307
  }
}
