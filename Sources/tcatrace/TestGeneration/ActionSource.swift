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
  static func literal(_ action: TracedAction) -> String? {
    let components = StatePath.keys(action.path)
    guard components.last == action.caseName, self.isCasePath(components) else { return nil }
    var inner = "." + action.caseName
    if let payload = action.payload {
      guard let arguments = self.arguments(payload, caseName: action.caseName, json: action.payloadJSON)
      else { return nil }
      inner += "(" + arguments + ")"
    }
    var index = components.count - 2
    while index >= 0 {
      let component = components[index]
      if component.hasPrefix("[") {
        // NB: `rows[id: 3]` is `.rows(.element(id: 3, action: …))`.
        guard component.hasPrefix("[id: "), index > 0, !components[index - 1].hasPrefix("[") else {
          return nil
        }
        // NB: `isCasePath` checked that the id is a literal.
        let id = component.dropFirst("[id: ".count).dropLast()
        inner = ".element(id: \(id), action: \(inner))"
      } else {
        inner = "." + component + "(" + inner + ")"
      }
      index -= 1
    }
    return inner
  }

  /// The case key path to the action: `\._internal.todos._internal.rows[id: 3].delegate.done`;
  /// `nil` when its path is not one.
  static func casePath(_ action: TracedAction) -> String? {
    self.isCasePath(StatePath.keys(action.path)) ? "\\." + action.path : nil
  }

  /// Whether `components` are a case key path's: names, and elements' ids as literals.
  private static func isCasePath(_ components: [String]) -> Bool {
    !components.isEmpty && components.allSatisfy { component in
      // NB: A state's keys also name elements by index (`[3]`); an action's name them by id.
      (!component.hasPrefix("[") || component.hasPrefix("[id: ")) && StatePath.isSwiftKey(component)
    }
  }

  /// The arguments of the innermost case, from its payload's rendering.
  private static func arguments(_ payload: String, caseName: String, json: String?) -> String? {
    // NB: A value redacted when recorded is a placeholder the user fills in.
    if payload == "<redacted>" { return SwiftValue.redactedPlaceholder }
    guard !payload.contains("\"\"\"") else { return nil }
    var source = payload.singleLine
    // NB: CustomDump names an enum value's type at the top: `PresentationAction.presented(…)`.
    if let dot = self.typePrefixEnd(source) {
      source = String(source[dot...])
    }
    guard self.isBuiltByItself(source) else { return nil }
    // NB: Several associated values print as a tuple of them, labels and all; a payload that
    // passed as one expression and opens with a parenthesis is that tuple and nothing more.
    if source.hasPrefix("(") {
      return String(source.dropFirst().dropLast())
    }
    if let label = self.label(of: caseName, rendered: source, json: json) {
      return label + ": " + source
    }
    return source
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

  /// Whether `source` is Swift that builds the value it prints, in the few forms an action's
  /// payload takes that say so: literals, enum cases (`.set(\\.name, "Blob")`), key paths,
  /// tuples and arrays of them. A type's initializer (`User(…)`) may not take what its
  /// rendering shows, and a collection prints its indices (`[0]: …`); and a trace is untrusted:
  /// nothing else from it may become code in a test.
  static func isBuiltByItself(_ source: String) -> Bool {
    var parser = PayloadParser(source)
    return parser.expression() && parser.isAtEnd
  }

  /// The label of `caseName`'s single associated value, from the action's JSON: the one key of
  /// the object under `caseName` (`{"addTodo":{"title":"Milk"}}`), when its value there reads
  /// as `rendered` does (a hand-written encoding may use other keys).
  private static func label(of caseName: String, rendered: String, json: String?) -> String? {
    guard let json else { return nil }
    let needle = "\"\(caseName)\":{\""
    var rest = Substring(json)
    while let range = rest.firstRange(of: needle) {
      rest = rest[range.upperBound...]
      guard let quote = rest.firstIndex(of: "\"") else { return nil }
      let key = rest[..<quote]
      let value = rest[rest.index(after: quote)...]
      if key != "_0", SwiftValue.isIdentifier(key), value.hasPrefix(":" + rendered + "}") {
        return String(key)
      }
    }
    return nil
  }
}

/// Checks a payload's rendering against the forms ``ActionSource/isBuiltByItself(_:)`` takes:
///
///     expression := literal | "." name ["(" arguments ")"] | "\\" ("." name)+
///                 | "(" arguments ")" | "[" [expression ("," expression)*] "]"
///     arguments  := [name ":"] expression ("," [name ":"] expression)*
private struct PayloadParser {
  let text: String
  var index: String.Index

  init(_ text: String) {
    self.text = text
    self.index = text.startIndex
  }

  var isAtEnd: Bool {
    mutating get {
      self.skipSpaces()
      return self.index == self.text.endIndex
    }
  }

  mutating func expression() -> Bool {
    self.skipSpaces()
    guard self.index < self.text.endIndex else { return false }
    let character = self.text[self.index]
    switch character {
    case ".":
      self.advance()
      guard self.name() != nil else { return false }
      if self.peek() == "(" {
        self.advance()
        return self.arguments(closing: ")")
      }
      return true
    case "\\":
      self.advance()
      var components = 0
      while self.peek() == "." {
        self.advance()
        guard self.name() != nil else { return false }
        components += 1
      }
      return components > 0
    case "(":
      self.advance()
      return self.arguments(closing: ")")
    case "[":
      self.advance()
      if self.peek() == "]" {
        self.advance()
        return true
      }
      while true {
        guard self.expression() else { return false }
        self.skipSpaces()
        if self.peek() == "]" {
          self.advance()
          return true
        }
        guard self.peek() == "," else { return false }
        self.advance()
      }
    case "\"", "#":
      guard let end = SwiftValue.stringLiteralEnd(self.text, from: self.index) else { return false }
      self.index = end
      return true
    default:
      var end = self.index
      while end < self.text.endIndex, !" ,)]:".contains(self.text[end]) {
        end = self.text.index(after: end)
      }
      guard SwiftValue.isLiteral(String(self.text[self.index..<end])) else { return false }
      self.index = end
      return true
    }
  }

  /// Arguments up to `closing`, which it reads too.
  private mutating func arguments(closing: Character) -> Bool {
    self.skipSpaces()
    if self.peek() == closing {
      self.advance()
      return true
    }
    while true {
      // NB: A label is a name followed by a colon; otherwise the name was not read.
      let start = self.index
      if self.name() != nil, self.peek() == ":" {
        self.advance()
      } else {
        self.index = start
      }
      guard self.expression() else { return false }
      self.skipSpaces()
      if self.peek() == closing {
        self.advance()
        return true
      }
      guard self.peek() == "," else { return false }
      self.advance()
    }
  }

  private mutating func name() -> Substring? {
    self.skipSpaces()
    let start = self.index
    while self.index < self.text.endIndex {
      let character = self.text[self.index]
      guard character.isASCII, character.isLetter || character.isNumber || character == "_" else { break }
      self.advance()
    }
    let name = self.text[start..<self.index]
    guard SwiftValue.isIdentifier(name) else {
      self.index = start
      return nil
    }
    return name
  }

  private mutating func peek() -> Character? {
    self.skipSpaces()
    return self.index < self.text.endIndex ? self.text[self.index] : nil
  }

  private mutating func advance() {
    self.index = self.text.index(after: self.index)
  }

  private mutating func skipSpaces() {
    while self.index < self.text.endIndex, self.text[self.index] == " " { self.advance() }
  }
}
