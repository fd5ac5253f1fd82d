import TCATraceFile

/// Swift source for a recorded action, for the tests `tcatrace test` writes.
enum ActionSource {
  /// The action as a literal, built from its case path and its payload's rendering:
  /// `._internal(.todos(.view(.addTodoButtonTapped(title: "Milk"))))`; `nil` when the payload's
  /// rendering is not Swift that builds it (a struct, a date, a collection).
  ///
  /// An element's action is sent through its collection's `.element(id:action:)` case. A single
  /// associated value's label is not in its rendering: it is read from the action's JSON, when
  /// the value there is the one rendered.
  ///
  /// With `structs`, a struct in the payload is written through its memberwise initializer,
  /// `.init(id: 1, name: "Brooklyn")`, as state values are (``SwiftValue``): it compiles where
  /// the type has the initializer its rendering shows. The caller asks for it after the
  /// action's JSON, which builds any `Codable` value.
  static func literal(_ action: TracedAction, structs: Bool = false) -> String? {
    let components = StatePath.keys(action.path)
    guard components.last == action.caseName, let keys = self.casePathKeys(components) else {
      return nil
    }
    var inner = "." + keys[keys.count - 1]
    if let payload = action.payload {
      guard
        let arguments = self.arguments(
          payload, caseName: action.caseName, json: action.payloadJSON, structs: structs)
      else { return nil }
      inner += "(" + arguments + ")"
    }
    var index = components.count - 2
    while index >= 0 {
      if components[index].hasPrefix("[") {
        // NB: `rows[id: 3]` is `.rows(.element(id: 3, action: …))`.
        guard components[index].hasPrefix("[id: "), index > 0, !components[index - 1].hasPrefix("[")
        else {
          return nil
        }
        // NB: `casePathKeys` wrote the id anew: `[id: 3]`.
        let id = keys[index].dropFirst("[id: ".count).dropLast()
        inner = ".element(id: \(id), action: \(inner))"
      } else {
        inner = "." + keys[index] + "(" + inner + ")"
      }
      index -= 1
    }
    return inner
  }

  /// The case key path to the action: `\._internal.todos._internal.rows[id: 3].delegate.done`;
  /// `nil` when its path is not one.
  static func casePath(_ action: TracedAction) -> String? {
    self.casePathKeys(StatePath.keys(action.path)).map { "\\." + StatePath.path($0) }
  }

  /// `components` as a case key path's, written anew: names, and elements' ids as literals;
  /// `nil` when they are not those.
  private static func casePathKeys(_ components: [String]) -> [String]? {
    guard !components.isEmpty else { return nil }
    var keys: [String] = []
    for component in components {
      // NB: A state's keys also name elements by index (`[3]`); an action's name them by id.
      guard !component.hasPrefix("[") || component.hasPrefix("[id: "),
        let key = StatePath.swiftKey(component)
      else { return nil }
      keys.append(key)
    }
    return keys
  }

  /// The arguments of the innermost case, written anew from its payload's rendering.
  private static func arguments(
    _ payload: String, caseName: String, json: String?, structs: Bool
  ) -> String? {
    // NB: A value redacted when recorded is a placeholder the user fills in.
    if payload == "<redacted>" { return SwiftValue.redactedPlaceholder }
    guard !payload.contains("\"\"\"") else { return nil }
    var source = payload.singleLine
    // NB: CustomDump names an enum value's type at the top: `PresentationAction.presented(…)`.
    if let dot = self.typePrefixEnd(source) {
      source = String(source[dot...])
    }
    guard let (written, isTuple) = self.builtByItself(source, structs: structs) else { return nil }
    // NB: Several associated values print as a tuple of them, labels and all.
    if isTuple {
      return String(written.dropFirst().dropLast())
    }
    if let label = self.label(of: caseName, written: written, json: json) {
      return label + ": " + written
    }
    return written
  }

  /// The end of a leading type name, `Feature.Action.` in `Feature.Action.tapped(…)`: where the
  /// case begins.
  private static func typePrefixEnd(_ source: String) -> String.Index? {
    guard source.first?.isUppercase == true else { return nil }
    var index = source.startIndex
    while index < source.endIndex {
      let character = source[index]
      if character == "." {
        let next = source.index(after: index)
        if next < source.endIndex, source[next].isLowercase || source[next] == "_" { return index }
      } else if !(character.isLetter || character.isNumber || character == "_") {
        return nil
      }
      index = source.index(after: index)
    }
    return nil
  }

  /// `source` written anew as Swift that builds the value it prints, in the few forms an
  /// action's payload takes that say so: literals, enum cases (`.set(\\.name, "Blob")`), key
  /// paths, tuples and arrays of them, an `IndexSet` as its integers; and whether it is a
  /// tuple. `nil` for anything else: a type's initializer (`User(…)`) may not take what its
  /// rendering shows, a collection prints its indices (`[0]: …`), and a trace is untrusted:
  /// nothing else from it may become code in a test.
  static func builtByItself(
    _ source: String, structs: Bool = false
  ) -> (source: String, isTuple: Bool)? {
    var writer = PayloadWriter(source)
    writer.structs = structs
    let isTuple = writer.peek() == "("
    guard let written = writer.expression(), writer.isAtEnd else { return nil }
    return (written, isTuple)
  }

  /// The label of `caseName`'s single associated value, from the action's JSON: the one key of
  /// the object under `caseName` (`{"addTodo":{"title":"Milk"}}`), when its value there is the
  /// one `written` builds (a hand-written encoding may use other keys).
  private static func label(of caseName: String, written: String, json: String?) -> String? {
    guard let json, let decoded = try? StateNode.parse(json) else { return nil }
    var found: String?
    func search(_ value: Any) {
      if let object = value as? [String: Any] {
        if let inner = object[caseName] as? [String: Any], inner.count == 1,
          let (key, argument) = inner.first,
          key != "_0", SwiftLiteral.isLabel(key), self.literal(argument) == written
        {
          found = key
        }
        object.values.forEach(search)
      } else if let array = value as? [Any] {
        array.forEach(search)
      }
    }
    search(decoded)
    return found
  }

  /// A string, an integer or a flag the JSON held, as a literal.
  private static func literal(_ value: Any) -> String? {
    switch value {
    case let string as String: SwiftLiteral.string(string)
    case let integer as Int: String(integer)
    case let flag as Bool: String(flag)
    default: nil
    }
  }
}

/// Reads a payload's rendering, scalar by scalar, in the forms ``ActionSource/builtByItself(_:)``
/// takes, and writes it anew: names checked, literals rewritten (``SwiftLiteral``), spacing its
/// own.
///
///     expression := literal | "." name ["(" arguments ")"] | "\\" ("." name)+
///                 | "(" arguments ")" | "[" [expression ("," expression)*] "]"
///                 | "IndexSet(ranges: [" ("[" index "]: " int "..<" int),* "])"
///                 | Type "(" name ":" expression ("," name ":" expression)* ")"   (`structs`)
///     arguments  := [name ":"] expression ("," [name ":"] expression)*
private struct PayloadWriter {
  let scalars: [Unicode.Scalar]
  var index = 0
  /// Whether a struct is written `.init(label: …)`: its type's name is not written.
  var structs = false

  init(_ text: String) {
    self.scalars = Array(text.unicodeScalars)
  }

  var isAtEnd: Bool {
    mutating get {
      self.skipSpaces()
      return self.index == self.scalars.count
    }
  }

  mutating func expression() -> String? {
    guard let scalar = self.peek() else { return nil }
    switch scalar {
    case ".":
      self.index += 1
      guard let name = self.name(), SwiftLiteral.isMemberName(name) else { return nil }
      if self.peek() == "(" {
        self.index += 1
        return self.arguments().map { "." + name + "(" + $0 + ")" }
      }
      return "." + name
    case "\\":
      self.index += 1
      var out = "\\"
      while self.peek() == "." {
        self.index += 1
        guard let name = self.name(), SwiftLiteral.isMemberName(name) else { return nil }
        out += "." + name
      }
      return out.count > 1 ? out : nil
    case "(":
      self.index += 1
      return self.arguments().map { "(" + $0 + ")" }
    case "[":
      self.index += 1
      var elements: [String] = []
      if self.peek() == "]" {
        self.index += 1
        return "[]"
      }
      while true {
        guard let element = self.expression() else { return nil }
        elements.append(element)
        if self.peek() == "]" {
          self.index += 1
          return "[" + elements.joined(separator: ", ") + "]"
        }
        guard self.peek() == "," else { return nil }
        self.index += 1
      }
    default:
      if let literal = SwiftLiteral.literal(in: self.scalars, at: &self.index) { return literal }
      return self.structs ? self.structure() : nil
    }
  }

  /// `Type(label: value, …)`, CustomDump's rendering of a struct, written `.init(label: …)`;
  /// `nil`, the position unmoved, for anything else, a type whose rendering is not its
  /// memberwise initializer's arguments among them.
  private mutating func structure() -> String? {
    let start = self.index
    var type: [String] = []
    while true {
      let before = self.index
      guard let name = self.name(),
        name.unicodeScalars.first.map({ ("A"..."Z").contains($0) }) == true
      else {
        self.index = before
        break
      }
      type.append(name)
      guard self.peek() == "." else { break }
      self.index += 1
    }
    guard let last = type.last, !SwiftValue.builtOtherwise.contains(last), self.peek() == "(" else {
      self.index = start
      return nil
    }
    self.index += 1
    guard let (arguments, labelled) = self.labelledArguments(), labelled || arguments.isEmpty else {
      self.index = start
      return nil
    }
    return ".init(" + arguments + ")"
  }

  /// Arguments up to a closing parenthesis, which it reads too.
  private mutating func arguments() -> String? {
    self.labelledArguments()?.text
  }

  /// Arguments up to a closing parenthesis, which it reads too, and whether each has a label.
  private mutating func labelledArguments() -> (text: String, labelled: Bool)? {
    var arguments: [String] = []
    var labelled = true
    if self.peek() == ")" {
      self.index += 1
      return ("", true)
    }
    while true {
      // NB: A label is a name followed by a colon; otherwise the name was not read.
      let start = self.index
      var label = ""
      if let name = self.name(), self.peek() == ":" {
        guard SwiftLiteral.isLabel(name) else { return nil }
        self.index += 1
        label = name + ": "
      } else {
        self.index = start
        labelled = false
      }
      guard let expression = self.expression() else { return nil }
      arguments.append(label + expression)
      if self.peek() == ")" {
        self.index += 1
        return (arguments.joined(separator: ", "), labelled)
      }
      guard self.peek() == "," else { return nil }
      self.index += 1
    }
  }

  /// The name at the reading position, checked; `nil`, the position unmoved, when there is none.
  private mutating func name() -> String? {
    self.skipSpaces()
    var name = ""
    var end = self.index
    while end < self.scalars.count {
      let scalar = self.scalars[end]
      guard
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
          || ("0"..."9").contains(scalar)
      else { break }
      name.unicodeScalars.append(scalar)
      end += 1
    }
    guard SwiftLiteral.isIdentifier(name) else { return nil }
    self.index = end
    return name
  }

  mutating func peek() -> Unicode.Scalar? {
    self.skipSpaces()
    return self.index < self.scalars.count ? self.scalars[self.index] : nil
  }

  private mutating func skipSpaces() {
    while self.index < self.scalars.count, self.scalars[self.index] == " " { self.index += 1 }
  }
}
