import ToolSupport
import TCATraceFile

/// A Swift Testing test that replays a recorded session through a `TestStore`: what
/// `tcatrace test` prints.
///
/// Each action sent from outside the store is a `send` with the state changes it caused as
/// assertions; each action an effect sent is a `receive` of its case key path, with its
/// changes. The store starts from the recorded initial state (decoded from the JSON the trace
/// kept of it, or a Swift expression given). What the trace cannot know is said in the test: the
/// dependencies the effects used, values redacted when recorded (`<#redacted#>` placeholders),
/// and changes whose values it cannot write in Swift (those actions are asserted
/// non-exhaustively, and a comment names what was not asserted).
package struct TestStoreTest {
  package struct Options {
    /// The test function's name.
    package var name: String
    /// Modules imported with `@testable import`.
    package var imports: [String] = []
    /// Code for the `withDependencies` closure; `nil`: a comment that says what is needed.
    package var dependencies: String?
    /// A Swift expression of the initial state; `nil`: decoded from the trace's JSON of it.
    package var initialState: String?
    /// A Swift expression of the reducer; `nil`: the root feature's initializer, `Feature()`.
    package var reducer: String?

    package init(
      name: String, imports: [String] = [], dependencies: String? = nil,
      initialState: String? = nil, reducer: String? = nil
    ) {
      self.name = name
      self.imports = imports
      self.dependencies = dependencies
      self.initialState = initialState
      self.reducer = reducer
    }

    /// The command that writes the test with these options, for its header.
    func command(file: String, session: Int64) -> String {
      var arguments = ["tcatrace", "test", file, "--session", "\(session)", "--name", self.name]
      for module in self.imports { arguments += ["--import", module] }
      if let dependencies { arguments += ["--dependencies", dependencies] }
      if let initialState { arguments += ["--initial-state", initialState] }
      if let reducer { arguments += ["--reducer", reducer] }
      return arguments.map(Self.shellQuoted).joined(separator: " ")
    }

    private static func shellQuoted(_ argument: String) -> String {
      let plain =
        !argument.isEmpty
        && argument.unicodeScalars.allSatisfy {
          $0.isASCII
            && ($0.properties.isAlphabetic || $0.properties.numericType != nil
              || "_-./:@%+=,".unicodeScalars.contains($0))
        }
      return plain ? argument : "'" + argument.replacing("'", with: #"'\''"#) + "'"
    }
  }

  /// The file, from its header comment to its last line.
  package var source = ""
  /// What the user has to know or do before the test runs: placeholders to fill in, changes
  /// not asserted.
  package var notes: [String] = []

  /// - Parameters:
  ///   - file: The trace's file name, for the header.
  ///   - session: The session.
  ///   - actions: Its actions, in order, every one from the first kept.
  ///   - states: Its states: before the first action, then after each.
  ///   - initialJSON: The JSON the trace kept of its initial state (of the state before its
  ///     first action kept, when its first actions were trimmed).
  package init(
    file: String, session: TraceSession, actions: [TracedAction], states: [StateNode],
    initialJSON: String?, options: Options
  ) throws(CLIError) {
    // NB: A session whose first actions were trimmed starts after them: `base`, the seq of the
    // last one, is where its states begin.
    let base = (actions.first?.seq ?? 1) - 1
    // NB: Names from the trace go into the source only when they are names.
    let feature =
      SwiftLiteral.isTypeName(session.rootFeature) ? session.rootFeature : "<#root feature#>"
    let stateType: String
    if case let .container(root) = states[0], case let .structure(type) = root.kind,
      SwiftLiteral.isTypeName(type)
    {
      stateType = type
    } else {
      stateType = feature + ".State"
    }
    // NB: A root feature whose state is an enum of its own (`TicTacToe.State.login(…)`) is
    // taken for a `@Reducer enum`, whose reducer is its static `body`: it has no initializer.
    let (enumType, initialCase): (String?, String?) =
      switch states[0] {
      case let .container(root):
        if case let .enumCase(type, name) = root.kind { (type, name) } else { (nil, nil) }
      case let .enumCase(type, description): (type, description)
      default: (nil, nil)
      }
    let reducer: String
    if let given = options.reducer {
      reducer = given
    } else if enumType == feature + ".State" {
      reducer = feature + ".body"
      self.notes.append(
        "the root state is an enum, so the reducer is written '\(feature).body', as a @Reducer enum's: give --reducer if '\(feature)' is a struct"
      )
    } else {
      reducer = feature + "()"
    }
    let initialState: String
    var decodedInitialState: String?
    if let expression = options.initialState {
      initialState = expression
    } else if let initialJSON, let json = Self.indentedJSON(initialJSON) {
      decodedInitialState =
        "try decoded(\n    \(stateType).self,\n" + Self.rawString(json, indent: 4) + "\n  )"
      initialState = "initialState"
      if initialJSON.contains("\"<redacted>\"") {
        self.notes.append(
          "the initial state holds values redacted when it was recorded: they decode as \"<redacted>\""
        )
      }
    } else {
      // NB: An enum state is made by one of its cases: the first state's, when it is a name.
      let example =
        if enumType != nil, let initialCase, SwiftLiteral.isMemberName(initialCase) {
          "\(stateType).\(initialCase)(…)"
        } else {
          "\(stateType)()"
        }
      throw CLIError(
        message:
          "the trace holds no JSON of session \(session.id)'s \(base == 0 ? "initial state" : "state after action #\(base), where its kept actions begin,") that a test can decode (its type is not Encodable, the trace is older than schema version 3, or the JSON is damaged): give it with --initial-state, as in --initial-state '\(example)'"
      )
    }

    var lines: [String] = [
      "// Generated from session \(session.id) (\(Self.comment(session.name))) of \(Self.comment(file)) by:",
      "//   " + Self.comment(options.command(file: file, session: session.id)),
      "// On Linux, link IssueReportingTestSupport into its test target, or a failed assertion",
      "// will not fail it.",
    ]
    if base > 0 {
      lines += [
        "// The session's actions through #\(base) were trimmed (an export of its last part): the",
        "// store starts from the state after action #\(base).",
      ]
    }
    lines += [
      "",
      // NB: The runtime the session was recorded on: TCA's when its recorder says so.
      session.recorderVersion.hasSuffix("+ComposableArchitecture")
        ? "import ComposableArchitecture" : "import Composable",
      "import Foundation",
      "import Testing",
    ]
    lines += options.imports.map { "@testable import \($0)" }
    lines += [
      "",
      "@MainActor",
      "@Test",
      "func \(options.name)() async throws {",
    ]
    if let decodedInitialState {
      lines.append("  let initialState = \(decodedInitialState)")
    }
    lines += [
      "  let store = TestStore(initialState: \(initialState)) {",
      "    \(reducer)",
    ]
    if let dependencies = options.dependencies {
      lines.append("  } withDependencies: {")
      lines += dependencies.split(separator: "\n", omittingEmptySubsequences: false).map {
        "    " + $0
      }
    } else {
      let causes = Array(
        Set(
          actions.compactMap { action -> Int? in
            if case let .effect(cause) = action.origin, cause > base { return cause }
            return nil
          })
      ).sorted()
      // NB: A closure that ignores its argument must say so: `{ // … }` does not compile.
      lines.append("  } withDependencies: { dependencies in")
      lines.append(
        "    // The trace does not know the dependencies the effects used: set them here, as in")
      lines.append("    // `dependencies.continuousClock = ImmediateClock()`.")
      if !causes.isEmpty {
        let list = causes.map { "#\($0)" }.joined(separator: ", ")
        lines.append("    // Effects of \(list) sent actions.")
        self.notes.append(
          "the effects of \(causes.count) action\(causes.count == 1 ? "" : "s") sent actions: give the test their dependencies with --dependencies"
        )
      }
    }
    lines.append("  }")

    var unasserted: [String] = []
    var jsonActions = 0
    let sharedChanges = SharedChangePlacement(actions)
    for action in actions {
      var assertion = StateAssertion(
        changes: sharedChanges.ownChanges(of: action), before: states[action.seq - 1 - base],
        after: states[action.seq - base], indent: 4
      )
      let moved = sharedChanges.changesAssertedWith(action)
      for (seq, changes) in moved {
        let assertionOfMoved = StateAssertion(
          changes: changes, before: states[seq - 1 - base], after: states[seq - base], indent: 4)
        assertion.lines += assertionOfMoved.lines
        assertion.unasserted += assertionOfMoved.unasserted
      }
      let call: String
      var unwritten: TracedAction?
      // NB: An effect's action whose cause was trimmed has no effect in flight in the test to
      // receive it from: it is sent, as from outside.
      var trimmedCause: Int?
      var isSent = true
      if case let .effect(cause) = action.origin {
        if cause <= base { trimmedCause = cause } else { isSent = false }
      }
      if isSent {
        if let literal = ActionSource.literal(action) {
          call = "store.send(\(literal))"
        } else if let payloadJSON = action.payloadJSON, let json = Self.indentedJSON(payloadJSON) {
          jsonActions += 1
          if json.contains("\"<redacted>\"") {
            self.notes.append(
              "action #\(action.seq) holds values redacted when it was recorded: they decode as \"<redacted>\""
            )
          }
          call =
            "store.send(\n  try decoded(\n    \(feature).Action.self,\n"
            + Self.rawString(json, indent: 4) + "\n  )\n)"
        } else if let literal = ActionSource.literal(action, structs: true) {
          // NB: A struct in the payload, through its memberwise initializer, as state values.
          call = "store.send(\(literal))"
        } else {
          unwritten = action
          call = "store.send(<#action #\(action.seq)#>)"
        }
      } else {
        if let casePath = ActionSource.casePath(action) {
          call = "store.receive(\(casePath))"
        } else {
          unwritten = action
          call = "store.receive(<#action #\(action.seq)#>)"
        }
      }
      lines.append("")
      if let trimmedCause {
        lines.append(
          "  // #\(action.seq) was sent by an effect of #\(trimmedCause), which was trimmed: sent here as it was received."
        )
      }
      if let unwritten {
        lines.append(
          "  // #\(unwritten.seq) \(Self.comment(unwritten.path)): tcatrace cannot write this action in Swift."
        )
      }
      if !moved.isEmpty {
        let list = moved.map { "#\($0.seq)" }.joined(separator: ", ")
        lines.append(
          "  // With the changes of shared values by \(list), which effects sent at once: a TestStore sees them here."
        )
      }
      var body = assertion.lines.map { "    " + $0 }
      var prefix = "  await "
      if !assertion.unasserted.isEmpty {
        unasserted += assertion.unasserted
        let paths = assertion.unasserted.map(Self.comment).joined(separator: ", ")
        lines.append(
          "  // #\(action.seq): not asserted, as tcatrace cannot write it in Swift: \(paths).")
        // NB: `withExhaustivity` rethrows what its operation throws: a decoding.
        lines.append(
          "  \(call.contains("try decoded(") ? "try " : "")await store.withExhaustivity(.off) {")
        // NB: A `send` returns its task, which `withExhaustivity` would return, unused: a warning.
        prefix = call.hasPrefix("store.send(") ? "    _ = await " : "    await "
        body = body.map { "  " + $0.replacing("\n", with: "\n  ") }
      }
      let indent = String(prefix.prefix { $0 == " " })
      let callLines = call.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated().map { $0.offset == 0 ? String($0.element) : indent + $0.element }
        .joined(separator: "\n")
      if body.isEmpty {
        lines.append(prefix + callLines)
      } else {
        lines.append(prefix + callLines + " {")
        lines += body
        lines.append(indent + "}")
      }
      if !assertion.unasserted.isEmpty { lines.append("  }") }
    }
    lines += ["}", "", GeneratedTestHelper.documentation, GeneratedTestHelper.function]
    let source = lines.joined(separator: "\n") + "\n"
    let placeholders = source.occurrences(of: "<#")
    if placeholders > 0 {
      self.notes.append(
        "\(placeholders) value\(placeholders == 1 ? " was" : "s were") redacted when recorded or cannot be written: fill in the placeholder\(placeholders == 1 ? "" : "s") (<#…#>)"
      )
    }
    if !unasserted.isEmpty {
      self.notes.append(
        "\(unasserted.count) change\(unasserted.count == 1 ? " is" : "s are") not asserted, as tcatrace cannot write \(unasserted.count == 1 ? "its value" : "their values") in Swift: \(unasserted.map(Self.comment).joined(separator: ", "))"
      )
    }
    if jsonActions > 0 {
      self.notes.append(
        "\(jsonActions) sent action\(jsonActions == 1 ? " is" : "s are") decoded from the trace's JSON, as \(jsonActions == 1 ? "its payload has" : "their payloads have") no Swift literal tcatrace can write"
      )
    }
    self.source = source
  }

  /// Where each change of a shared value is asserted. A `TestStore` sees such a change when the
  /// value changes, not when it receives the action that changed it: an action an effect sent at
  /// once (``TracedAction/atOnce``) is processed before the `send` (or `receive`) of the action
  /// that began the processing returns, and the shared values it changed are asserted there,
  /// with the value they had when that processing ended. Other changes stay with their action.
  struct SharedChangePlacement {
    /// For each action sent at once, the seq of the action that began its processing.
    private var roots: [Int: Int] = [:]
    /// For each action that began a processing in which shared values changed, the shared
    /// changes of the processing by the action that made them last, in the order of the actions.
    private var moved: [Int: [(seq: Int, changes: [StateChange])]] = [:]
    /// The actions whose shared changes are asserted elsewhere: by seq, the paths moved away.
    private var movedAway: [Int: Set<String>] = [:]

    init(_ actions: [TracedAction]) {
      var groups: [Int: [TracedAction]] = [:]
      for action in actions {
        guard action.atOnce, case let .effect(cause) = action.origin else { continue }
        let root = self.roots[cause] ?? cause
        self.roots[action.seq] = root
        groups[root, default: []].append(action)
      }
      let bySeq = Dictionary(actions.map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
      // NB: A processing begun by an action trimmed from the session's start has no action in
      // the test to assert its shared changes at: they stay with their actions.
      for (root, members) in groups where bySeq[root] != nil {
        let all = (bySeq[root].map { [$0] } ?? []) + members
        var last: [String: Int] = [:]
        for action in all {
          for change in action.changes where change.sharedPath != nil {
            last[change.path] = action.seq
          }
        }
        guard !last.isEmpty else { continue }
        for action in all {
          let away = Set(action.changes.filter { $0.sharedPath != nil }.map(\.path))
            .filter { last[$0] != action.seq || action.seq != root }
          if !away.isEmpty { self.movedAway[action.seq] = away }
          guard action.seq != root else { continue }
          let kept = action.changes.filter { $0.sharedPath != nil && last[$0.path] == action.seq }
          if !kept.isEmpty { self.moved[root, default: []].append((action.seq, kept)) }
        }
      }
    }

    /// The changes asserted at `action` itself.
    func ownChanges(of action: TracedAction) -> [StateChange] {
      guard let away = self.movedAway[action.seq] else { return action.changes }
      return action.changes.filter { !($0.sharedPath != nil && away.contains($0.path)) }
    }

    /// The shared changes of actions sent at once, asserted at `action`, which began their
    /// processing: by the seq of the action that made them.
    func changesAssertedWith(_ action: TracedAction) -> [(seq: Int, changes: [StateChange])] {
      self.moved[action.seq] ?? []
    }
  }

  /// `text` for a line comment: on one line, its controls escaped (`\u{1B}`), and the line and
  /// paragraph separators too, which an editor shows as line breaks.
  static func comment(_ text: String) -> String {
    let safe = text.terminalSafe
    guard safe.unicodeScalars.contains(where: { $0 == "\u{2028}" || $0 == "\u{2029}" }) else {
      return safe
    }
    return safe.replacing("\u{2028}", with: "\\u{2028}").replacing("\u{2029}", with: "\\u{2029}")
  }

  /// `text` in a multi-line raw string literal whose lines are indented by `indent` spaces,
  /// with enough number signs that nothing in it ends the literal or interpolates: one more
  /// than the longest run of them in it, counted on scalars, as the compiler reads them.
  static func rawString(_ text: String, indent: Int) -> String {
    var longest = 0
    var run = 0
    for scalar in text.unicodeScalars {
      if scalar == "#" {
        run += 1
        longest = max(longest, run)
      } else {
        run = 0
      }
    }
    let hashes = String(repeating: "#", count: longest + 1)
    let pad = String(repeating: " ", count: indent)
    let body = text.split(separator: "\n", omittingEmptySubsequences: false).map { pad + $0 }
    return ([pad + hashes + "\"\"\""] + body + [pad + "\"\"\"" + hashes]).joined(separator: "\n")
  }

  /// The levels of JSON laid out on lines of their own; deeper ones are written on one line, so
  /// that the test grows with the JSON, not with the square of its depth.
  static let deepestJSONLevel = 32

  /// `json` (one line, as the trace keeps it) written anew in printable ASCII, two spaces per
  /// level, each value on a line of its own: a scalar outside ASCII in a string as JSON's
  /// `\uXXXX` escape, which the decoder reads back as it was. `nil` when it is not JSON's text:
  /// a control in a string, or outside strings anything but JSON's punctuation, numbers and
  /// words; a damaged or hostile trace.
  static func indentedJSON(_ json: String) -> String? {
    var out = ""
    var depth = 0
    let scalars = Array(json.unicodeScalars)
    var index = 0
    func newline() {
      guard depth <= Self.deepestJSONLevel else { return }
      out += "\n" + String(repeating: "  ", count: depth)
    }
    func escaped(_ value: UInt32) -> String {
      let hex = String(value, radix: 16)
      return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
    while index < scalars.count {
      let scalar = scalars[index]
      switch scalar {
      case "\"":
        out += "\""
        index += 1
        while true {
          guard index < scalars.count else { return nil }
          let inner = scalars[index]
          index += 1
          switch inner {
          case "\"":
            out += "\""
          case "\\":
            guard index < scalars.count, scalars[index].isASCII, scalars[index].value >= 0x20 else {
              return nil
            }
            out += "\\"
            out.unicodeScalars.append(scalars[index])
            index += 1
            continue
          case " "..."~":
            out.unicodeScalars.append(inner)
            continue
          case _ where inner.value < 0x80:
            return nil
          case _ where inner.value > 0xFFFF:
            let value = inner.value - 0x10000
            out += escaped(0xD800 + (value >> 10)) + escaped(0xDC00 + (value & 0x3FF))
            continue
          default:
            out += escaped(inner.value)
            continue
          }
          break
        }
        continue
      case "{", "[":
        let closing: Unicode.Scalar = scalar == "{" ? "}" : "]"
        if index + 1 < scalars.count, scalars[index + 1] == closing {
          out.unicodeScalars.append(scalar)
          out.unicodeScalars.append(closing)
          index += 1
        } else {
          out.unicodeScalars.append(scalar)
          depth += 1
          newline()
        }
      case "}", "]":
        guard depth > 0 else { return nil }
        depth -= 1
        newline()
        out.unicodeScalars.append(scalar)
      case ",":
        out += ","
        newline()
      case ":":
        out += ": "
      case " ", "\n", "\r", "\t":
        break
      case "0"..."9", "-", "+", ".", "e", "E", "t", "r", "u", "f", "a", "l", "s", "n":
        out.unicodeScalars.append(scalar)
      default:
        return nil
      }
      index += 1
    }
    return out
  }
}
