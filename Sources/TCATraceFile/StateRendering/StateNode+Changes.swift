/// A change that does not fit the state it is applied to: it names a value the state does not
/// hold. ``StateNode/applying(_:)`` throws it; ``StateNode/applying(_:unplaced:)`` leaves the
/// change out and goes on.
public struct StateRebuildError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The change's path.
  public var path: String
  /// What does not fit.
  public var reason: String

  public var description: String { "the change at '\(self.path)' \(self.reason)" }
}

extension StateNode {
  /// The node at `path`, a change's path from this node: `login.email`, `todos[id: 3]`; the
  /// node itself for `""`. `nil` when there is none.
  public func node(at path: String) -> StateNode? {
    guard !path.isEmpty else { return self }
    switch self {
    case let .some(wrapped):
      return wrapped.node(at: path)
    case let .container(container):
      return container.child(at: path, below: "").map { index, rest in
        container.children[index].node.node(at: rest)
      } ?? nil
    default:
      return nil
    }
  }

  /// The state after one action's `changes`, applied to this state before it.
  ///
  /// NB: Within an action, the diff lists a collection's new order before its elements, in
  /// their new order, and its removals last. Removals go first here, then new orders, then
  /// the rest in the order recorded: an element added at index `i` then lands where it was.
  public func applying(_ changes: [StateChange]) throws(StateRebuildError) -> StateNode {
    var state = self
    for change in changes where change.kind == .removed {
      try state.apply(change)
    }
    for change in changes where change.kind == .changed && change.rebuild?.order != nil {
      try state.apply(change)
    }
    for change in changes
    where change.kind != .removed && (change.kind != .changed || change.rebuild?.order == nil) {
      try state.apply(change)
    }
    return state
  }

  /// The state after one action's `changes`, as ``applying(_:)`` makes it, but with each change
  /// that does not fit the state left out and handed to `unplaced`: the rest of the state is
  /// rebuilt. A change does not fit when the state has no place for it — the recorder's diff
  /// and the state's printing disagree on a value, as they did on TCA's alerts before issue
  /// #71 — which says nothing of the file.
  public func applying(
    _ changes: [StateChange], unplaced: (StateRebuildError) -> Void
  ) -> StateNode {
    var state = self
    func apply(_ change: StateChange) {
      // NB: Tried on a copy: a change that fails halfway leaves the state as it was.
      var attempt = state
      do throws(StateRebuildError) {
        try attempt.apply(change)
        state = attempt
      } catch {
        unplaced(error)
      }
    }
    for change in changes where change.kind == .removed {
      apply(change)
    }
    for change in changes where change.kind == .changed && change.rebuild?.order != nil {
      apply(change)
    }
    for change in changes
    where change.kind != .removed && (change.kind != .changed || change.rebuild?.order == nil) {
      apply(change)
    }
    return state
  }

  private mutating func apply(_ change: StateChange) throws(StateRebuildError) {
    let newNode = change.rebuild?.node ?? .text(change.new ?? "")
    try self.modify(at: change.path, below: "", change: change) { node throws(StateRebuildError) in
      // NB: Spelled with `Optional` and `StateNode` in full: `.some` names a case of both.
      let isWrapped: Bool
      if case Optional<StateNode>.some(StateNode.some) = node {
        isWrapped = true
      } else {
        isWrapped = false
      }
      let isAbsent = node == Optional<StateNode>.some(StateNode.text("nil"))
      if change.kind == .changed, let order = change.rebuild?.order,
        case let Optional<StateNode>.some(StateNode.container(container)) = node
      {
        node = .container(try container.reordered(order, path: change.path))
      } else if change.kind == .removed {
        node = isWrapped ? StateNode.text("nil") : nil
      } else if isWrapped || (change.kind == .added && isAbsent) {
        node = StateNode.some(newNode)
      } else {
        node = newNode
      }
    }
  }

  /// Calls `body` with the node at `path` (`nil` when there is none: an element to add), and
  /// puts what it leaves there (`nil`: the element is removed).
  private mutating func modify(
    at path: String, below current: String, change: StateChange,
    _ body: (inout StateNode?) throws(StateRebuildError) -> Void
  ) throws(StateRebuildError) {
    if path == current {
      var node: StateNode? = self
      try body(&node)
      guard let node else {
        throw StateRebuildError(path: change.path, reason: "removes the whole state")
      }
      self = node
      return
    }
    switch self {
    case var .some(wrapped):
      try wrapped.modify(at: path, below: current, change: change, body)
      self = .some(wrapped)
    case var .container(container):
      if let (index, _) = container.child(at: path, below: current) {
        let childPath = StateContainer.join(current, container.children[index].key)
        if childPath == path {
          var node: StateNode? = container.children[index].node
          try body(&node)
          if let node {
            container.children[index].node = node
          } else {
            container.children.remove(at: index)
          }
        } else {
          try container.children[index].node.modify(
            at: path, below: childPath, change: change, body)
        }
      } else if let key = StateContainer.lastKey(of: path, below: current) {
        // An element that is not there yet: added to the collection at `current`.
        var node: StateNode?
        try body(&node)
        guard let node else {
          throw StateRebuildError(
            path: change.path, reason: "removes an element the state does not have")
        }
        try container.insert(
          StateChild(label: change.rebuild?.label, key: key, node: node),
          index: change.rebuild?.index, path: change.path)
      } else {
        throw StateRebuildError(path: change.path, reason: "names a value the state does not have")
      }
      self = .container(container)
    default:
      throw StateRebuildError(
        path: change.path, reason: "names a value inside one that has no parts")
    }
  }
}

extension StateContainer {
  /// `parent` and `key` joined as the diff joins them: `login.email`, `todos[id: 3]`.
  static func join(_ parent: String, _ key: String) -> String {
    if parent.isEmpty { return key }
    if key.isEmpty { return parent }
    return key.hasPrefix("[") ? parent + key : parent + "." + key
  }

  /// The child whose path is `path`, or whose subtree holds it, with what is left of `path`
  /// below it: `current` is this container's path.
  func child(at path: String, below current: String) -> (index: Int, rest: String)? {
    for (index, child) in self.children.enumerated() {
      let childPath = Self.join(current, child.key)
      if childPath == path { return (index, "") }
      guard path.hasPrefix(childPath) else { continue }
      let rest = path.dropFirst(childPath.count)
      if rest.first == "[" { return (index, String(rest)) }
      if rest.first == "." { return (index, String(rest.dropFirst())) }
    }
    return nil
  }

  /// The last bracketed component of `path` when it follows `current` directly: the key of an
  /// element to add (`[id: 4]`); `nil` otherwise.
  static func lastKey(of path: String, below current: String) -> String? {
    guard path.hasPrefix(current) else { return nil }
    let key = path.dropFirst(current.count)
    guard key.hasPrefix("["), key.hasSuffix("]") else { return nil }
    return String(key)
  }

  /// Adds `child`: at `index` in an identified collection, in order in a sorted dictionary or a
  /// set, at the end otherwise.
  mutating func insert(_ child: StateChild, index: Int?, path: String) throws(StateRebuildError) {
    switch self.kind {
    case .collection, .dictionary(sorted: false):
      self.children.insert(
        child, at: min(max(index ?? self.children.count, 0), self.children.count))
    case .dictionary(sorted: true):
      let label = child.label ?? ""
      let position = self.children.firstIndex { ($0.label ?? "") > label } ?? self.children.count
      self.children.insert(child, at: position)
    case .set:
      let text = child.node.renderedNested()
      let position =
        self.children.firstIndex { $0.node.renderedNested() > text } ?? self.children.count
      self.children.insert(child, at: position)
    default:
      throw StateRebuildError(
        path: path, reason: "adds an element to a value that is not a collection")
    }
  }

  /// The children in the order `keys` lists them.
  func reordered(_ keys: [String], path: String) throws(StateRebuildError) -> StateContainer {
    var byKey: [String: StateChild] = [:]
    for child in self.children { byKey[child.key] = child }
    var reordered = self
    reordered.children = []
    for key in keys {
      guard let child = byKey.removeValue(forKey: key) else {
        throw StateRebuildError(
          path: path, reason: "orders an element the state does not have, \(key)")
      }
      reordered.children.append(child)
    }
    // NB: What the order does not name stays, after it.
    reordered.children += self.children.filter { byKey[$0.key] != nil }
    return reordered
  }
}

extension StateNode {
  /// How many nodes the tree has: what rebuilding it from its JSON costs, in the units a
  /// change costs.
  package var nodeCount: Int {
    switch self {
    case .text, .multilineString, .enumCase: 1
    case let .some(wrapped): 1 + wrapped.nodeCount
    case let .container(container): container.children.reduce(1) { $0 + $1.node.nodeCount }
    }
  }

  /// The tree with the node at `path` (and all below it) replaced by `text`; unchanged when
  /// it has no node there.
  package func replacing(at path: String, with text: String) -> StateNode {
    var node = self
    let change = StateChange(path: path, kind: .changed, old: nil, new: text)
    do throws(StateRebuildError) {
      try node.apply(change)
    } catch {
      return self
    }
    return node
  }

  /// The tree with every occurrence of each of `secrets` in its texts replaced by `marker`.
  package func scrubbing(_ secrets: [String], with marker: String) -> StateNode {
    guard !secrets.isEmpty else { return self }
    func scrub(_ text: String) -> String {
      var text = text
      for secret in secrets where text.contains(secret) {
        text.replace(secret, with: marker)
      }
      return text
    }
    switch self {
    case let .text(text): return .text(scrub(text))
    case let .multilineString(string, _):
      let scrubbed = scrub(string)
      return scrubbed == string ? self : .text(marker)
    case let .enumCase(type, description):
      return .enumCase(type: type, description: scrub(description))
    case let .some(wrapped): return .some(wrapped.scrubbing(secrets, with: marker))
    case var .container(container):
      for index in container.children.indices {
        container.children[index].node = container.children[index].node.scrubbing(
          secrets, with: marker)
        container.children[index].label = container.children[index].label.map(scrub)
      }
      return .container(container)
    }
  }
}

/// Which changes of consecutive actions, met last first, a later change overwrites: applying the
/// rest gives the state after the last action that applying them all gives.
///
/// A `.changed` value is overwritten by a later change at the same path that replaces it whole,
/// when nothing in between looked inside it (a change below its path) or changed the shape
/// around it (an element or optional added or removed, a new order).
struct OverwrittenChanges {
  /// The paths a later change replaces whole, with nothing between reaching into them.
  private var paths: Set<String> = []
  private var actionReshapes = false
  /// The path last found in `paths` or added to it, while `paths` has not changed since.
  private var lastPath: String?

  /// Whether `change`, the one before those met so far, is overwritten by one of them.
  ///
  /// NB: Within an action, `applying` puts removals and new orders first: met anywhere in the
  /// action, a change of shape ends what later changes overwrite, there and again before the
  /// action (``actionEnded()``).
  mutating func isOverwritten(by change: StateChange) -> Bool {
    guard change.replacesWhole else {
      self.paths.removeAll()
      self.lastPath = nil
      self.actionReshapes = true
      return false
    }
    // NB: A path met again straight after is overwritten without hashing it: the same string,
    // compared by its storage first.
    if change.path == self.lastPath { return true }
    self.lastPath = change.path
    if self.paths.contains(change.path) { return true }
    if !self.paths.isEmpty { self.paths.subtract(Self.ancestors(of: change.path)) }
    self.paths.insert(change.path)
    return false
  }

  /// Whether a change that replaces the value at its path whole, whose path's UTF-8 is
  /// `path`, is overwritten because the change met just before it has the same path: what
  /// ``isOverwritten(by:)`` returns for it then, found without making the change.
  ///
  /// NB: Most changes of a long session are to a few paths, one after another: each of them
  /// was a string made, its kind and what it holds for rebuilding read, to be dropped.
  func repeatsLastPath(_ path: UnsafeRawBufferPointer) -> Bool {
    self.lastPath?.hasUTF8(path) ?? false
  }

  /// Call after the changes of an action, before those of the action before it.
  mutating func actionEnded() {
    if self.actionReshapes {
      self.paths.removeAll()
      self.lastPath = nil
    }
    self.actionReshapes = false
  }

  /// The paths that hold `path`: `""`, and each prefix that ends before a `.` or a `[` (some
  /// of them no path at all, when a key holds one of those: more than the paths that hold it,
  /// never fewer).
  static func ancestors(of path: String) -> [String] {
    guard !path.isEmpty else { return [] }
    var ancestors = [""]
    var index = path.utf8.startIndex
    while index != path.utf8.endIndex {
      let byte = path.utf8[index]
      if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "["), index != path.utf8.startIndex {
        ancestors.append(String(path[..<index]))
      }
      index = path.utf8.index(after: index)
    }
    return ancestors
  }
}

extension StateChange {
  /// Whether this change replaces the value at its path whole, whatever was there.
  fileprivate var replacesWhole: Bool {
    self.kind == .changed && self.rebuild?.order == nil && self.rebuild?.index == nil
      && self.rebuild?.label == nil
  }
}

/// A change the trace recorded for an action that the state before it has no place for: a
/// rebuild leaves it out, says which, and shows the rest of the state. It says nothing of the
/// file, which SQLite and the schema found whole; the recorder that wrote it named a value
/// otherwise than its state prints it.
public struct UnplacedChange: Hashable, Sendable, CustomStringConvertible {
  public var session: Int64
  /// The action's seq.
  public var seq: Int
  /// The change's path.
  public var path: String
  /// Why it has no place: `names a value the state does not have`.
  public var reason: String

  public init(session: Int64, seq: Int, path: String, reason: String) {
    self.session = session
    self.seq = seq
    self.path = path
    self.reason = reason
  }

  public var description: String {
    "the change of action #\(self.seq) at '\(self.path)' \(self.reason)"
  }
}
