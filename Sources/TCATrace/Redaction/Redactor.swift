import CustomDump
import Foundation

/// Applies a recorder's redactions to an action's row on the store's thread, before the row
/// reaches the writer.
///
/// NB: Redactions by path name where a secret lives, but the same value can show up elsewhere
/// in the row: a whole struct rendered when it is added or removed, the action's payload, its
/// JSON. So the values found at the named paths (and every ``TraceRedacted`` value in an
/// `Encodable` action) are also replaced wherever their rendering appears in the row.
struct Redactor: Sendable {
  let redactions: [TraceRedaction]
  /// The state paths the redactions name.
  private let statePaths: StatePaths

  init(redactions: [TraceRedaction]) {
    self.redactions = redactions
    self.statePaths = StatePaths(redactions)
  }

  /// The named state paths as paths into the state's JSON: each reads `"<redacted>"` there,
  /// whatever its value (an empty one too). A path through an element of a collection, which
  /// JSON reaches by index, has none: its value is found by its JSON, as a typed secret's is.
  private var jsonPaths: [[JSONRedaction.Step]] { self.statePaths.jsonPaths }

  var isEmpty: Bool { self.redactions.isEmpty }

  func apply<State, Action>(to record: inout ActionRecord, event: ActionEvent<State, Action>) {
    self.apply(
      to: &record, stateBefore: event.stateBefore, stateAfter: event.stateAfter,
      action: event.action)
  }

  /// Applies the redactions to the row of `action`, which took the store from `stateBefore` to
  /// `stateAfter`: the values of an event, boxed.
  func apply(to record: inout ActionRecord, stateBefore: Any, stateAfter: Any, action: Any) {
    var secrets: [Any] = []
    let statePaths = self.statePaths.paths(narrowedBy: [stateBefore, stateAfter])

    for redaction in self.redactions {
      switch redaction.kind {
      case let .state(_, keyPath, _):
        for state in [stateBefore, stateAfter] {
          if let value = state[keyPath: keyPath], let unwrapped = Self.unwrap(value) {
            secrets.append(unwrapped)
          }
        }
      case let .action(_, extract):
        var level: Any? = action
        var cases: [String] = []
        while let current = level {
          let parts = EnumReflection.decompose(current)
          if let value = extract(current) {
            secrets.append(value)
            if Self.isFinalPayload(value, of: record.classification, in: current) {
              record.classification.payload = TraceRedaction.marker
            }
            if let json = record.payloadJSON,
              let steps = Self.jsonSteps(to: value, in: current, below: cases)
            {
              record.payloadJSON = JSONRedaction.redacting(steps[...], in: json)
            }
          }
          guard let parts else { break }
          cases.append(parts.name)
          level = parts.payload
        }
      }
    }

    // The named state paths, and everything below them, read <redacted> on both sides.
    // NB: The trees of the whole states, for a value written whole with a named path inside
    // it, are built once per action, and only then.
    var trees: (before: StateNode?, after: StateNode?) = (nil, nil)
    for index in record.changes.indices {
      let path = record.changes[index].path
      if statePaths.contains(where: { LeakRules.contains($0, path) }) {
        if record.changes[index].old != nil { record.changes[index].old = TraceRedaction.marker }
        if record.changes[index].new != nil { record.changes[index].new = TraceRedaction.marker }
        record.changes[index].rebuild?.node = nil
        continue
      }
      let inside = statePaths.filter { LeakRules.contains(path, $0) }
      guard !inside.isEmpty else { continue }
      // A value written whole (a struct, an element, added, removed or replaced) with a named
      // path inside it: its text is written anew from its tree with the path redacted, so that
      // even an empty secret reads <redacted>, which finding its rendering cannot do.
      func redacted(_ node: StateNode) -> StateNode {
        inside.reduce(node) {
          $0.replacing(at: Self.relative($1, to: path), with: TraceRedaction.marker)
        }
      }
      if record.changes[index].old != nil {
        if trees.before == nil { trees.before = StateTree.node(of: stateBefore) }
        if let old = trees.before?.node(at: path) {
          record.changes[index].old = redacted(old).rendered()
        }
      }
      if let node = record.changes[index].rebuild?.node {
        let node = redacted(node)
        record.changes[index].rebuild?.node = node
        record.changes[index].new = node.rendered()
      } else if record.changes[index].new != nil {
        if trees.after == nil { trees.after = StateTree.node(of: stateAfter) }
        if let new = trees.after?.node(at: path) {
          record.changes[index].new = redacted(new).rendered()
        }
      }
    }

    Self.scrub(&record, of: secrets)
  }

  /// Redacts a whole state's tree as ``apply(to:event:)`` redacts an action's row: the named
  /// state paths read `<redacted>`, and so does the value found there wherever else it shows.
  func redact(_ tree: inout StateNode, state: Any) {
    var secrets: [Any] = []
    for path in self.statePaths.paths {
      tree = tree.replacing(at: path, with: TraceRedaction.marker)
    }
    for redaction in self.redactions {
      guard case let .state(_, keyPath, _) = redaction.kind else { continue }
      if let value = state[keyPath: keyPath], let unwrapped = Self.unwrap(value) {
        secrets.append(unwrapped)
      }
    }
    tree = tree.scrubbing(Self.renderings(of: secrets), with: TraceRedaction.marker)
  }

  /// The path in an action's JSON to the associated values of the case that holds `value`,
  /// a value extracted from `level`, an action reached through `cases` from the root action.
  ///
  /// NB: A case key path is opaque: which case of `level`'s it reaches into is found by
  /// walking down `level`'s cases to the first whose associated values render as `value`.
  private static func jsonSteps(to value: Any, in level: Any, below cases: [String])
    -> [JSONRedaction.Step]?
  {
    let rendering = String(customDumping: value)
    var cases = cases
    var current = level
    for _ in 0..<16 {
      guard let (name, payload) = EnumReflection.decompose(current), let payload else { return nil }
      cases.append(name)
      if String(customDumping: payload) == rendering {
        var steps: [JSONRedaction.Step] = []
        for (index, name) in cases.enumerated() {
          steps.append(.member(name))
          steps.append(index + 1 < cases.count ? .caseValues(next: cases[index + 1]) : .eachMember)
        }
        return steps
      }
      current = payload
    }
    return nil
  }

  /// `path`, a path inside `parent`, from `parent`: `password` in `login.password` from `login`.
  private static func relative(_ path: String, to parent: String) -> String {
    let rest = path.dropFirst(parent.count)
    return String(rest.first == "." ? rest.dropFirst() : rest)
  }

  /// The renderings of `secrets` that would give them away, longest first, so that a secret
  /// that contains another is replaced whole. An empty value hides nothing, and replacing its
  /// rendering (`""`, `[]`) would redact every other empty value: it is left out.
  private static func renderings(of secrets: [Any]) -> [String] {
    var texts: Set<String> = []
    for secret in secrets {
      let text = String(customDumping: secret)
      if !Self.emptyRenderings.contains(text), text != TraceRedaction.marker { texts.insert(text) }
    }
    return texts.sorted { $0.count > $1.count }
  }

  /// Replaces every rendering of `secrets` in the row's payload, JSON and change values.
  static func scrub(_ record: inout ActionRecord, of secrets: [Any]) {
    // NB: A `TraceRedacted` value already renders as the marker, but its JSON does not.
    let ordered = Self.renderings(of: secrets)
    let jsonFragments = Self.jsonFragments(of: secrets)
    guard !ordered.isEmpty || !jsonFragments.isEmpty else { return }
    func scrubbed(_ text: String?) -> String? {
      guard var text else { return nil }
      for secret in ordered where text.contains(secret) {
        text = text.replacingOccurrences(of: secret, with: TraceRedaction.marker)
      }
      return text
    }
    record.classification.payload = scrubbed(record.classification.payload)
    for index in record.changes.indices {
      record.changes[index].old = scrubbed(record.changes[index].old)
      record.changes[index].new = scrubbed(record.changes[index].new)
      if let node = record.changes[index].rebuild?.node {
        record.changes[index].rebuild?.node = node.scrubbing(ordered, with: TraceRedaction.marker)
      }
    }
    if let json = record.payloadJSON {
      record.payloadJSON = Self.scrubbing(json, of: jsonFragments)
    }
  }

  /// `json` with the JSON of each of `secrets` replaced by the marker as a JSON string.
  static func scrubbing(_ json: String, of secrets: [Any]) -> String {
    Self.scrubbing(json, of: Self.jsonFragments(of: secrets))
  }

  /// `json` with each of `fragments` (values' JSON) replaced by the marker as a JSON string.
  private static func scrubbing(_ json: String, of fragments: Set<String>) -> String {
    var json = json
    for fragment in fragments.sorted(by: { $0.count > $1.count }) where json.contains(fragment) {
      json = json.replacingOccurrences(of: fragment, with: "\"\(TraceRedaction.marker)\"")
    }
    return json
  }

  /// Redacts a whole state's JSON as ``redact(_:state:)`` redacts its tree: the values at the
  /// named state paths, and every ``TraceRedacted`` value in it, read `"<redacted>"` wherever
  /// their JSON shows.
  func redact(json: String, state: Any) -> String {
    var json = json
    for steps in self.jsonPaths {
      json = JSONRedaction.redacting(steps[...], in: json)
    }
    let fragments = Self.jsonFragments(
      of: Self.redactedValues(in: state) + self.pathSecrets(in: state))
    return fragments.isEmpty ? json : Self.scrubbing(json, of: fragments)
  }

  /// `json`, the value a JSON change sets at `path`, with what lies at a named state path
  /// redacted: all of it when the change is at or below a named path, what lies at the named
  /// path inside it when the change sets a value that holds one.
  private func redact(json: String, at path: [StateJSONKey]) -> String {
    var json = json
    for steps in self.jsonPaths {
      let common = min(path.count, steps.count)
      let onPath = zip(path.prefix(common), steps.prefix(common)).allSatisfy { key, step in
        guard case let .key(name) = key, case let .member(property) = step else { return false }
        return JSONRedaction.isMember(name.utf8, named: property)
      }
      guard onPath else { continue }
      if path.count >= steps.count { return JSONRedaction.marker }
      json = JSONRedaction.redacting(steps.dropFirst(path.count), in: json)
    }
    return json
  }

  /// The values at the named state paths of `state`.
  private func pathSecrets(in state: Any) -> [Any] {
    self.redactions.compactMap { redaction in
      guard case let .state(_, keyPath, _) = redaction.kind, let value = state[keyPath: keyPath]
      else { return nil }
      return Self.unwrap(value)
    }
  }

  /// The JSON of `secrets` that would give them away.
  private static func jsonFragments(of secrets: [Any]) -> Set<String> {
    var fragments: Set<String> = []
    for secret in secrets {
      // NB: An empty value hides nothing, and replacing its JSON (`""`, `[]`) would redact
      // every other empty value.
      if let fragment = TraceJSON.encode(secret), !Self.emptyRenderings.contains(fragment) {
        fragments.insert(fragment)
      }
    }
    return fragments
  }

  /// Redacts the changes of a state's JSON (see ``JSONDiff``) as ``redact(json:state:)``
  /// redacts a whole state's: in each value a change sets or inserts (`values`, the values
  /// they encode), the values at the named state paths before and after the action, and every
  /// ``TraceRedacted`` value inside it, read `"<redacted>"`.
  func redact(
    jsonChanges changes: [StateJSONChange], values: [Any?], before: Any, after: Any
  ) -> [StateJSONChange] {
    let pathSecrets = Self.jsonFragments(
      of: self.pathSecrets(in: before) + self.pathSecrets(in: after))
    return zip(changes, values).map { change, value in
      guard let value else { return change }
      // NB: A number, a string or a flag holds no other value: it is not walked.
      let fragments =
        JSONDiff.isScalar(type(of: value))
        ? pathSecrets : pathSecrets.union(Self.jsonFragments(of: Self.redactedValues(in: value)))
      func redacted(_ json: String, at path: [StateJSONKey]) -> String {
        let json = self.redact(json: json, at: path)
        guard !fragments.isEmpty else { return json }
        // NB: A value that is a secret whole reads as the marker, whatever its JSON.
        return fragments.contains(json) ? JSONRedaction.marker : Self.scrubbing(json, of: fragments)
      }
      switch change {
      case let .set(path, json): return .set(path, redacted(json, at: path))
      case let .insert(path, json): return .insert(path, redacted(json, at: path))
      case .remove: return change
      }
    }
  }

  private static let emptyRenderings: Set<String> = ["", "\"\"", "nil", "[]", "[:]"]

  /// Every ``TraceRedacted`` value inside `value`: an action's payload, walked by reflection.
  static func redactedValues(in value: Any, depth: Int = 0) -> [Any] {
    if value is any TraceRedacted { return [value] }
    guard depth < 32 else { return [] }
    return Mirror(reflecting: value).children.flatMap {
      Self.redactedValues(in: $0.value, depth: depth + 1)
    }
  }

  private static func unwrap(_ value: Any) -> Any? {
    guard let optional = value as? any OptionalProtocol else { return value }
    return optional.wrapped.flatMap(Self.unwrap)
  }

  /// Whether `value`, extracted from `level`, is the innermost case's payload of the action.
  private static func isFinalPayload(
    _ value: Any, of classification: ActionClassification, in level: Any
  ) -> Bool {
    guard let (name, payload) = EnumReflection.decompose(level) else { return false }
    if name == classification.caseName { return true }
    // The extracted case may be one level up: `.view(.passwordChanged(…))` from `view`.
    guard let payload, let (innerName, _) = EnumReflection.decompose(payload) else { return false }
    return innerName == classification.caseName
  }
}
