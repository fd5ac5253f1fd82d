#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif
import Foundation
import RuntimeSupport

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
  private let lock = NSLock()
  private let root: Node

  #if ComposableArchitecture
    /// Whether no case of the actions, nor of their associated values', may hold a child
    /// feature's action: every action's route is then the root's, and is not looked up.
    let routeIsRoot: Bool

    private init(root: Node, type: Any.Type) {
      self.root = root
      self.routeIsRoot = !RouteDerivation.mayStep(from: type)
    }
  #else
    private init(root: Node, type _: Any.Type) {
      self.root = root
    }
  #endif

  private static let classifiers = Locked<[ObjectIdentifier: ActionClassifier?]>([:])

  /// The classifier of `type`'s values; `nil` when `type` is not an enum, whose actions are
  /// classified by reflection.
  static func of(_ type: Any.Type) -> ActionClassifier? {
    self.classifiers.value(for: ObjectIdentifier(type)) {
      EnumReflection.layout(of: type).map { ActionClassifier(root: Node($0), type: type) }
    }
  }

  /// The classification of the action at `action`, a value of this classifier's type, which
  /// `value` boxes.
  func classify(at action: UnsafeRawPointer, value: () -> Any) -> ActionClassification {
    self.kept(at: action)?.take() ?? self.classifyByReflection(at: action, value: value)
  }

  /// The classification of the action at `action`, as ``classify(at:value:)`` finds it, as the
  /// store's thread keeps it until the action is analysed: the classification kept for the
  /// action's chain of cases, shared, with the payload rendered apart, when it is kept.
  func prepare(at action: UnsafeRawPointer, value: () -> Any) -> PreparedClassification {
    self.kept(at: action)
      ?? PreparedClassification(self.classifyByReflection(at: action, value: value))
  }

  /// The classification kept for the chain of cases of the action at `action`, with its
  /// payload rendered; `nil` when none is kept.
  private func kept(at action: UnsafeRawPointer) -> PreparedClassification? {
    withUnsafeTemporaryAllocation(
      byteCount: Self.scratchBytes, alignment: Self.slotAlignment
    ) { scratch -> PreparedClassification? in
      guard let (leaf, payloadPlace) = self.lookUp(action, scratch: scratch) else { return nil }
      guard let payloadPlace, let payload = leaf.payload else {
        return PreparedClassification(kept: leaf.kept, payload: nil)
      }
      // NB: Rendered out of the lock: rendering may run the payload's own descriptions.
      return PreparedClassification(
        kept: leaf.kept,
        payload: leaf.renderPayload?(payloadPlace)
          ?? ActionClassification.render(payload.load(payloadPlace)))
    }
  }

  /// The classification of the action at `action`, found by reflection of `value`, kept for
  /// its chain of cases when the chain may be.
  private func classifyByReflection(
    at action: UnsafeRawPointer, value: () -> Any
  ) -> ActionClassification {
    var trace = ClassificationTrace()
    let classification = ActionClassification.classify(value(), trace: &trace)
    self.keep(classification, trace: trace, for: action)
    return classification
  }

  #if ComposableArchitecture
    // MARK: - Routes kept with their chains

    /// The route kept with the chain of cases of the action at `action`, derived in a state of
    /// type `stateType`; `nil` when none is kept.
    func keptRoute(
      at action: UnsafeRawPointer, stateType: ObjectIdentifier
    ) -> RouteDerivation.Derived? {
      guard let leaf = self.leaf(at: action) else { return nil }
      self.lock.lock()
      defer { self.lock.unlock() }
      guard let kept = leaf.route, kept.stateType == stateType else { return nil }
      return kept.route
    }

    /// Keeps `route`, which ``RouteDerivation`` derived in a state of type `stateType` from the
    /// action at `action` and the types alone, reading `levels` of its cases, with the action's
    /// chain: when its classification is kept, and read at least as many cases, every action
    /// of the chain has that route.
    func keep(
      _ route: RouteDerivation.Derived, levels: Int, stateType: ObjectIdentifier,
      at action: UnsafeRawPointer
    ) {
      guard let leaf = self.leaf(at: action), levels <= leaf.levels else { return }
      self.lock.lock()
      defer { self.lock.unlock() }
      if leaf.route == nil { leaf.route = (stateType, route) }
    }

    /// The leaf kept for the chain of cases of the action at `action`, if any.
    private func leaf(at action: UnsafeRawPointer) -> Leaf? {
      withUnsafeTemporaryAllocation(byteCount: Self.scratchBytes, alignment: Self.slotAlignment) {
        self.lookUp(action, scratch: $0)?.0
      }
    }
  #endif

  // MARK: - The tree

  /// One level of the tree: an enum type's cases, and what is known of the chains through each.
  private final class Node {
    let layout: EnumReflection.Layout
    /// What a lookup reads of this level.
    let level: UnsafeMutablePointer<Level>

    init(_ layout: EnumReflection.Layout) {
      self.layout = layout
      let entries = UnsafeMutableBufferPointer<Entry?>.allocate(capacity: layout.cases.count)
      entries.initialize(repeating: nil)
      let steps = UnsafeMutableBufferPointer<Level.Step>.allocate(capacity: layout.cases.count)
      _ = steps.initialize(
        from: layout.cases.lazy.map {
          Level.Step(hasPayload: $0.payload != nil, isIndirect: $0.payload?.isIndirect ?? false)
        }
      )
      self.level = .allocate(capacity: 1)
      self.level.initialize(
        to: Level(
          entries: entries, steps: steps, metadata: layout.metadata,
          getEnumTag: layout.witnesses.getEnumTag,
          projectEnumData: layout.witnesses.destructiveProjectEnumData, size: layout.size,
          alignment: layout.witnesses.alignment
        )
      )
      self.level.pointee.node = Unmanaged.passUnretained(self)
    }

    deinit {
      self.level.pointee.entries.deallocate()
      self.level.pointee.steps.deallocate()
      self.level.deallocate()
    }
  }

  /// A level of the tree as a lookup reads it: plain values and buffers only.
  ///
  /// NB: Reading the layout's cases, whose names and loaders are reference-counted, or even
  /// calling a node's methods, retained and released objects at each level of each action.
  private struct Level {
    /// By tag: what is known of the chains through this level's case.
    let entries: UnsafeMutableBufferPointer<Entry?>
    /// By tag: how the case keeps its payload.
    let steps: UnsafeMutableBufferPointer<Step>
    let metadata: UnsafeRawPointer
    let getEnumTag: EnumWitnesses.GetEnumTag
    let projectEnumData: EnumWitnesses.ProjectEnumData
    let size: Int
    let alignment: Int
    /// The node this level is of, which owns it.
    var node: Unmanaged<Node>?

    /// How a case keeps its payload.
    struct Step {
      let hasPayload: Bool
      let isIndirect: Bool
    }

    /// The tag of the value at `value`.
    func tag(of value: UnsafeRawPointer) -> Int {
      Int(self.getEnumTag(value, self.metadata))
    }
  }

  /// NB: The tree's nodes and leaves are kept alive by `objects`; entries refer to them
  /// unretained, so that reading the tree retains and releases nothing.
  private enum Entry {
    /// Classifying took apart the next level too: the payload's case.
    case next(UnsafeMutablePointer<Level>)
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
    /// The classification, without a payload, and its texts for the flight journal.
    let kept: KeptClassification
    /// The level whose payload is rendered, and how it is read.
    let payloadLevel: Int?
    let payload: EnumReflection.Layout.Payload?
    /// How the payload is rendered where it lies, when it is a binding action (see
    /// `bindingActionRenderer(for:)`); `nil` when it is boxed and rendered as any value.
    let renderPayload: ((UnsafeRawPointer) -> String?)?
    /// How many levels the chain has: the cases read to find this leaf.
    let levels: Int
    #if ComposableArchitecture
      /// The route of the chain's actions, for the state type it was derived in, when it
      /// depends on nothing but the chain and the types; only read and set under `lock`.
      var route: (stateType: ObjectIdentifier, route: RouteDerivation.Derived)?
    #endif

    init(
      _ classification: ActionClassification, levels: Int,
      payload: (level: Int, payload: EnumReflection.Layout.Payload)?
    ) {
      var classification = classification
      classification.payload = nil
      self.kept = KeptClassification(classification, journalTexts: FlightTexts(classification))
      self.levels = levels
      self.payloadLevel = payload?.level
      self.payload = payload?.payload
      self.renderPayload = payload.flatMap { bindingActionRenderer(for: $0.payload.type) }
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
      self.lock.lock()
      defer { self.lock.unlock() }
      var node = UnsafePointer(self.root.level)
      var value = action
      var level = 0
      var used = 0
      while true {
        let tag = node.pointee.tag(of: value)
        guard tag < node.pointee.entries.count, let entry = node.pointee.entries[tag] else {
          return nil
        }
        switch entry {
        case .uncacheable:
          return nil

        case let .classified(leaf):
          let leaf = leaf.takeUnretainedValue()
          guard let payloadLevel = leaf.payloadLevel else { return (leaf, nil) }
          if payloadLevel < level { return (leaf, payloads[payloadLevel]) }
          guard let place = Self.project(value, node, tag, into: scratch, used: &used)
          else { return nil }
          return (leaf, place)

        case let .next(child):
          guard
            level + 1 < Self.maxLevels,
            let place = Self.project(value, node, tag, into: scratch, used: &used)
          else { return nil }
          payloads[level] = place
          node = UnsafePointer(child)
          (value, level) = (place, level + 1)
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
      self.lock.lock()
      defer { self.lock.unlock() }
      var node = self.root
      var value = action
      var used = 0
      var payloadToRender: (level: Int, payload: EnumReflection.Layout.Payload)?
      for depth in 0..<Self.maxLevels {
        let level = node.level
        let tag = level.pointee.tag(of: value)
        guard tag < level.pointee.entries.count else { return }
        let payload = node.layout.cases[tag].payload
        if depth == trace.payloadLevel { payloadToRender = payload.map { (depth, $0) } }
        // NB: A payload typed as an existential holds values of any type: whether the next
        // level exists depends on the value, not on this case.
        let dependsOnValue = payload.map { Self.isExistential($0.type) } ?? false
        if isCacheable, !dependsOnValue, depth == trace.levels - 1 {
          if level.pointee.entries[tag] == nil {
            let leaf = Leaf(classification, levels: trace.levels, payload: payloadToRender)
            self.objects.append(leaf)
            level.pointee.entries[tag] = .classified(Unmanaged.passUnretained(leaf))
          }
          return
        }
        // Not the last level, or not cacheable: go down while the payload is an enum, and
        // mark the deepest case reached when the chain cannot be kept.
        guard
          !dependsOnValue, depth < trace.levels - 1 || !isCacheable,
          let nextLayout = payload.flatMap({ EnumReflection.layout(of: $0.type) }),
          let place = Self.project(value, level, tag, into: scratch, used: &used)
        else {
          if !isCacheable || dependsOnValue { level.pointee.entries[tag] = .uncacheable }
          return
        }
        let child: Node
        switch level.pointee.entries[tag] {
        case let .next(existing)?:
          child = existing.pointee.node!.takeUnretainedValue()
        case nil:
          child = Node(nextLayout)
          self.objects.append(child)
          level.pointee.entries[tag] = .next(child.level)
        case .classified?, .uncacheable?:
          return
        }
        (node, value) = (child, place)
      }
    }
  }

  /// Projects a raw copy of the enum value at `value`, whose case is `tag`, in `scratch`;
  /// returns where its payload lies, or `nil` when the scratch is full or too little aligned.
  private static func project(
    _ value: UnsafeRawPointer, _ level: UnsafePointer<Level>, _ tag: Int,
    into scratch: UnsafeMutableRawBufferPointer, used: inout Int
  ) -> UnsafeRawPointer? {
    let step = level.pointee.steps[tag]
    guard step.hasPayload else { return nil }
    let size = max(level.pointee.size, 1)
    guard used + size <= scratch.count, level.pointee.alignment <= Self.slotAlignment else {
      return nil
    }
    // NB: A bitwise copy: it owns nothing, so it is neither retained nor destroyed.
    let slot = scratch.baseAddress! + used
    slot.copyMemory(from: value, byteCount: level.pointee.size)
    used += (size + Self.slotAlignment - 1) / Self.slotAlignment * Self.slotAlignment
    // NB: What `EnumReflection.Layout.projectPayload` does, from the level's plain values.
    level.pointee.projectEnumData(slot, level.pointee.metadata)
    return EnumWitnesses.payload(inProjected: slot, isIndirect: step.isIndirect)
  }

  /// Whether values of `type` are existential boxes (`Any`, `any Error`).
  private static func isExistential(_ type: Any.Type) -> Bool {
    let kind = MetadataKind.of(type)
    return kind == MetadataKind.existential || kind == MetadataKind.extendedExistential
  }
}

/// The classification the classifier keeps for a chain of cases, without a payload, and the
/// texts the flight journal writes of it, laid out once: shared by every action of the chain.
/// An action classified by reflection has one of its own, without texts.
final class KeptClassification: Sendable {
  let classification: ActionClassification
  let journalTexts: FlightTexts?

  init(_ classification: ActionClassification, journalTexts: FlightTexts?) {
    self.classification = classification
    self.journalTexts = journalTexts
  }
}

/// An action's classification as the store's thread keeps it from before its reducer runs
/// until the action is analysed, on either thread: the classification kept for its chain of
/// cases, shared (a retain, where a copy retains each of its texts), with the payload rendered
/// apart.
///
/// NB: Two words and a string: the prepared action it is part of is moved several times on
/// the store's thread, and a classification held inline made each move a copy of its bytes.
struct PreparedClassification {
  private let kept: KeptClassification
  /// The innermost case's associated value, rendered; `nil` when it has none.
  let payload: String?

  init(kept: KeptClassification, payload: String?) {
    self.kept = kept
    self.payload = payload
  }

  /// An action's classification of its own, found by reflection.
  init(_ classification: ActionClassification) {
    self.kept = KeptClassification(classification, journalTexts: nil)
    self.payload = classification.payload
  }

  /// The texts the flight journal writes of a kept classification; `nil` for one of its own.
  var journalTexts: FlightTexts? { self.kept.journalTexts }

  /// The classification, where it lies, for what it says besides its payload: a kept one has
  /// none, one of its own has it (read ``payload``).
  var withoutPayload: ActionClassification {
    _read { yield self.kept.classification }
  }

  /// The classification, payload and all: made where the action is analysed.
  func take() -> ActionClassification {
    var classification = self.kept.classification
    classification.payload = self.payload
    return classification
  }
}
