import TCATraceFile

/// The body of a `TestStore` assertion for one action: the assignments that turn the state
/// before it into the state after it, written from the changes the trace recorded.
///
/// ```swift
/// $0.todos.todos[id: 1]?.title = "Buy oat milk"
/// $0.path[id: 0] = .settings(SettingsFeature.State(displayName: "Blob", notificationsEnabled: true))
/// ```
///
/// A change is assigned where Swift can reach it: through optionals with `?`, into identified
/// collections and stacks with `[id:]`; a change inside the case of a reducer's enum state is
/// made through the case, as TCA's tests make it (`$0.modify(\.login) { $0.email = "a@b.c" }`),
/// and one inside another enum case's value assigns the whole case. An element added in the middle of an identified collection is inserted at its index.
/// A change to or inside a `@Shared` value is made with `withLock` on its projection, as
/// swift-sharing has it (`$0.$count.withLock { $0 = 1 }`), where its setter is deprecated.
/// A change whose value cannot be written (``SwiftValue/Unwritable``) is left out and named in
/// ``unasserted``.
struct StateAssertion {
  /// The assignments, one per line (a line may hold a value laid out over several).
  var lines: [String] = []
  /// The paths of the changes not asserted: their values have no Swift source.
  var unasserted: [String] = []

  /// - Parameters:
  ///   - changes: The changes the action caused, as recorded.
  ///   - before: The state before the action.
  ///   - after: The state after it.
  ///   - indent: The indentation of the lines.
  init(changes: [StateChange], before: StateNode, after: StateNode, indent: Int) {
    // NB: In the order the trace's changes rebuild a state (`StateNode.applying(_:)`):
    // removals, then new orders, then the rest; an element added at an index then lands there.
    let ordered =
      changes.filter { $0.kind == .removed }
      + changes.filter { $0.kind == .changed && $0.rebuild?.order != nil }
      + changes.filter { $0.kind != .removed && ($0.kind != .changed || $0.rebuild?.order == nil) }
    var targets: [Target] = []
    for change in ordered {
      let target = Target(change, before: before, after: after)
      if !targets.contains(where: { $0.path == target.path }) { targets.append(target) }
    }
    // NB: A value assigned whole holds the changes below it.
    let paths = targets.map(\.path)
    targets.removeAll { target in
      paths.contains { path in path != target.path && target.isBelow(path) }
    }
    // NB: How many elements each identified collection that gains some holds before they are
    // added: the count after, less the elements added.
    var counts: [String: Int] = [:]
    for target in targets where target.kind == .added {
      counts[target.parentPath, default: target.count(at: target.parentPath, in: after)] -= 1
    }
    for target in targets {
      if target.isUnreachable {
        self.unasserted.append(target.path)
        continue
      }
      let assignment: String
      do throws(SwiftValue.Unwritable) {
        assignment = try target.assignment(after: after, indent: indent, counts: &counts)
      } catch {
        self.unasserted.append(target.path)
        continue
      }
      self.lines.append(assignment)
    }
  }
}

/// Where a change is assigned: its own path, or the nearest value above it Swift can assign.
private struct Target {
  var keys: [String]
  var steps: [StatePath.Step]
  var kind: StateChange.Kind
  var path: String
  /// When the target is a `@Shared` value, or inside one, the number of keys to that value.
  var sharedKeys: Int?
  /// The indices of the steps that name a case of the stack element before them.
  var cases: Set<Int> = []
  /// The index of the step that names the case of a reducer's enum state the change is made
  /// through, with swift-case-paths' `modify`.
  var modifiedCase: Int?
  /// The state's path names nothing in the states before and after it: a damaged trace.
  var isUnreachable = false

  init(_ change: StateChange, before: StateNode, after: StateNode) {
    let keys = StatePath.keys(change.path)
    let tree = change.kind == .removed ? before : after
    guard keys.allSatisfy(StatePath.isSwiftKey), let steps = StatePath.steps(keys, in: tree) else {
      self.keys = keys
      self.steps = []
      self.kind = change.kind
      self.path = change.path
      self.isUnreachable = true
      return
    }
    var count = keys.count
    var kind = change.kind
    if change.rebuild?.order != nil { kind = .changed }
    for (index, step) in steps.enumerated() {
      var stop = false
      switch step.parent {
      case .enumCase where index > 0 && steps[index - 1].isStackElement:
        // NB: A case of a stack's element is reached as TCA's tests reach it:
        // `$0.path[id: 0, case: \.settings]?.name`.
        self.cases.insert(index)
      case let .enumCase(type, name)
      where self.modifiedCase == nil && step.key == name && index < keys.count - 1
        && type.hasSuffix(".State"):
        // NB: A reducer's enum state (`@Reducer enum`'s, or one a `@Reducer` struct declares)
        // is `@CasePathable`: its case is changed in place, as TCA's tests change it, where
        // assigning the whole case needs an initializer the case's state may not have.
        self.modifiedCase = index
      case .enumCase, .set, .tuple:
        // NB: Swift reaches into a case's value, a set's element or a tuple's part only by
        // assigning the whole.
        stop = true
      case .collection where !step.key.hasPrefix("[id:"):
        // NB: An element of an array is added or removed by assigning the array.
        stop = kind != .changed && index == keys.count - 1
      default:
        break
      }
      if stop {
        count = index
        kind = .changed
        break
      }
    }
    self.keys = Array(keys.prefix(count))
    self.steps = Array(steps.prefix(count))
    self.kind = kind
    self.path = StatePath.path(self.keys)
    // NB: Only a property's projection has `withLock`: `$0.$count`, not an element's.
    if let sharedPath = change.sharedPath {
      let sharedKeys = StatePath.keys(sharedPath)
      if !sharedKeys.isEmpty, sharedKeys.count <= count,
        Array(self.keys.prefix(sharedKeys.count)) == sharedKeys,
        SwiftLiteral.isMemberName(sharedKeys[sharedKeys.count - 1]),
        !self.cases.contains(sharedKeys.count - 1)
      {
        self.sharedKeys = sharedKeys.count
      }
    }
  }

  func isBelow(_ ancestor: String) -> Bool {
    ancestor.isEmpty || self.path.hasPrefix(ancestor + ".") || self.path.hasPrefix(ancestor + "[")
  }

  /// `$0.a?.b[id: 1]`: the target, with `?` after each optional on the way to it.
  var lvalue: String { self.lvalue(through: self.steps.count) }

  /// The lvalue of the first `count` steps, from step `start` (`$0` is the value before it).
  func lvalue(from start: Int = 0, through count: Int) -> String {
    var out = "$0"
    for (index, step) in self.steps.prefix(count).enumerated() where index >= start {
      // NB: `init` checked every key: each is one.
      let key = StatePath.swiftKey(step.key) ?? "<#key#>"
      if self.cases.contains(index) {
        out = String(out.dropLast()) + ", case: \\.\(key)]"
      } else {
        out += key.hasPrefix("[") ? key : "." + key
      }
      let isLast = index == count - 1
      if !isLast, !self.cases.contains(index + 1), step.isOptional || self.cases.contains(index) {
        out += "?"
      }
    }
    return out
  }

  func assignment(
    after: StateNode, indent: Int, counts: inout [String: Int]
  ) throws(SwiftValue.Unwritable) -> String {
    if let modifiedCase = self.modifiedCase, self.sharedKeys == nil {
      // NB: `$0.destination?.modify(\.book) { $0.title = "…" }`; inside the closure, `$0` is
      // the case's value.
      let step = self.steps[modifiedCase]
      var outer = self.lvalue(through: modifiedCase)
      if modifiedCase > 0, self.steps[modifiedCase - 1].isOptional { outer += "?" }
      let call = outer + ".modify(\\." + step.key + ")"
      let inner = self.lvalue(from: modifiedCase + 1, through: self.steps.count)
      return try self.closure(call, assigning: inner, after: after, indent: indent, counts: &counts)
    }
    guard let sharedKeys else {
      return try self.assignment(
        to: self.keys.isEmpty ? "$0" : self.lvalue, after: after, indent: indent, counts: &counts)
    }
    // NB: `$0.shelf.$count.withLock { $0 = 1 }`; inside the closure, `$0` is the shared value.
    let shared = self.lvalue(through: sharedKeys)
    let projection =
      shared.dropLast(self.keys[sharedKeys - 1].count) + "$" + self.keys[sharedKeys - 1]
    let inner = "$0" + self.lvalue.dropFirst(shared.count)
    return try self.closure(
      projection + ".withLock", assigning: inner, after: after, indent: indent, counts: &counts)
  }

  /// `call { inner = value }`: on one line, or the assignment on a line of its own when its
  /// value takes several, or the line would be wider than the generator writes.
  private func closure(
    _ call: String, assigning inner: String, after: StateNode, indent: Int,
    counts: inout [String: Int]
  ) throws(SwiftValue.Unwritable) -> String {
    let countsBefore = counts
    let oneLine = try self.assignment(to: inner, after: after, indent: indent, counts: &counts)
    if !oneLine.contains("\n"), indent + call.count + oneLine.count + 5 <= SwiftFragment.width {
      return call + " { " + oneLine + " }"
    }
    counts = countsBefore
    let body = try self.assignment(to: inner, after: after, indent: indent + 2, counts: &counts)
    let pad = String(repeating: " ", count: indent)
    return call + " {\n" + pad + "  " + body + "\n" + pad + "}"
  }

  /// The assignment of the target's value to `lvalue`, laid out from `indent`.
  private func assignment(
    to lvalue: String, after: StateNode, indent: Int, counts: inout [String: Int]
  ) throws(SwiftValue.Unwritable) -> String {
    guard let value = after.node(at: self.path) else { return lvalue + " = nil" }
    // NB: An element added to an identified collection goes at the end with `[id:]`; one
    // added elsewhere is inserted where the trace saw it.
    if self.kind == .added, let last = self.steps.last, case .collection = last.parent,
      let parentNode = after.node(at: StatePath.path(self.keys.dropLast())),
      case let .container(parent) = parentNode.unwrapped,
      let index = parent.children.firstIndex(where: { $0.key == last.key })
    {
      let count = counts[self.parentPath] ?? 0
      counts[self.parentPath] = count + 1
      if index != count {
        // NB: `$0.list?[id: 3]` inserts with `$0.list?.insert(…)`.
        let parentLvalue = String(lvalue.dropLast(StatePath.swiftKey(last.key)?.count ?? 0))
        let insertion = SwiftFragment.group(
          open: parentLvalue + ".insert(",
          items: [try SwiftValue.fragment(value), .text("at: \(index)")],
          close: ")"
        )
        return insertion.laidOut(indent: indent, column: indent)
      }
    }
    let source = try SwiftValue.source(value, indent: indent, column: indent + lvalue.count + 3)
    return lvalue + " = " + source
  }

  var parentPath: String { StatePath.path(self.keys.dropLast()) }

  /// The number of children at `path` in `state`.
  func count(at path: String, in state: StateNode) -> Int {
    guard case let .container(container)? = state.node(at: path)?.unwrapped else { return 0 }
    return container.children.count
  }
}

/// Paths of a state, as the trace's changes name them: `todos.todos[id: 1].title`.
enum StatePath {
  /// One key of a path, with the node it names and what holds it.
  struct Step {
    var key: String
    var node: StateNode
    var parent: StateContainer.Kind

    /// Whether Swift reaches past it with `?`: an optional, an element by id or by key.
    /// Whether it is an element of a navigation stack, by id.
    var isStackElement: Bool {
      self.key.hasPrefix("[id:") && self.parent == .dictionary(sorted: false)
    }

    var isOptional: Bool {
      if case .some = self.node { return true }
      if self.key.hasPrefix("[id:") { return true }
      if case .dictionary = self.parent { return true }
      return false
    }
  }

  /// The keys of `path`: `["todos", "todos", "[id: 1]", "title"]`.
  static func keys(_ path: String) -> [String] {
    var keys: [String] = []
    var current = ""
    var depth = 0
    var inString = false
    var escaped = false
    for character in path {
      if inString {
        current.append(character)
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
        continue
      }
      switch character {
      case "." where depth == 0:
        if !current.isEmpty { keys.append(current) }
        current = ""
      case "[":
        if depth == 0, !current.isEmpty {
          keys.append(current)
          current = ""
        }
        depth += 1
        current.append(character)
      case "]":
        depth -= 1
        current.append(character)
        if depth == 0 {
          keys.append(current)
          current = ""
        }
      case "\"":
        inString = true
        current.append(character)
      default:
        current.append(character)
      }
    }
    if !current.isEmpty { keys.append(current) }
    return keys
  }

  /// Whether Swift code can name the value at `key`: a property's name, an element by its id
  /// or index, a value by its key, all literals.
  static func isSwiftKey(_ key: String) -> Bool {
    self.swiftKey(key) != nil
  }

  /// `key` written anew for Swift code (``SwiftLiteral``): `title`, `[id: 1]`, `["a"]`; `nil`
  /// when Swift cannot name the value there.
  static func swiftKey(_ key: String) -> String? {
    let scalars = key.unicodeScalars
    guard scalars.first == "[", scalars.last == "]" else {
      return SwiftLiteral.isMemberName(key) ? key : nil
    }
    var inside = String(String.UnicodeScalarView(scalars.dropFirst().dropLast()))
    var prefix = "["
    if inside.hasPrefix("id: ") {
      inside.removeFirst("id: ".count)
      prefix = "[id: "
    }
    return SwiftLiteral.rewritten(inside).map { prefix + $0 + "]" }
  }

  /// `keys` joined back into a path.
  static func path(_ keys: some Sequence<String>) -> String {
    var out = ""
    for key in keys {
      out += out.isEmpty || key.hasPrefix("[") ? key : "." + key
    }
    return out
  }

  /// The steps along `keys` from `root`; `nil` when they name nothing in it.
  static func steps(_ keys: [String], in root: StateNode) -> [Step]? {
    var steps: [Step] = []
    var node = root
    for key in keys {
      guard case let .container(container) = node.unwrapped,
        let child = container.children.first(where: { $0.key == key })
      else { return nil }
      steps.append(Step(key: key, node: child.node, parent: container.kind))
      node = child.node
    }
    return steps
  }
}

extension StateNode {
  /// The value an optional holds; the node itself otherwise.
  var unwrapped: StateNode {
    if case let .some(wrapped) = self { return wrapped.unwrapped }
    return self
  }
}

extension String {
  func occurrences(of part: String) -> Int {
    self.components(separatedBy: part).count - 1
  }
}
