import TCATraceCLI
import TCATraceFile

/// Swift source for values a trace recorded, for the tests `tcatrace test` writes.
///
/// A value is written from the tree CustomDump's rendering of it left (``StateNode``), and only
/// as Swift that builds the same value: a literal, an array, an enum case, a struct through
/// its memberwise initializer (`Todo(id: 1, title: "Milk")`), an alert through its builders.
/// What the rendering cannot say how to build (a `Date`, a `UUID`, a navigation stack) is
/// ``SwiftValue/Unwritable``; a value redacted when it was recorded is an Xcode placeholder,
/// `<#redacted#>`, for the user to fill in.
enum SwiftValue {
  /// A value that has no Swift source `tcatrace test` can write.
  struct Unwritable: Error {
    /// Its rendering, on one line.
    var rendering: String
  }

  /// The placeholder a redacted value is written as.
  static let redactedPlaceholder = "<#redacted#>"

  /// Swift source for `node`, laid out to start at `column` in a line indented by `indent`.
  static func source(_ node: StateNode, indent: Int, column: Int) throws(Unwritable) -> String {
    try self.fragment(node).laidOut(indent: indent, column: column)
  }

  /// Whether `text`, a value CustomDump printed as it is, is a Swift literal that builds it: a
  /// string (CustomDump prints Swift's own literals), a number, a flag, `nil`. Nothing else
  /// passes: a trace is untrusted, and what it holds must not become code in a test.
  static func isLiteral(_ text: String) -> Bool {
    if text == "true" || text == "false" || text == "nil" { return true }
    return self.isNumber(text) || self.stringLiteralEnd(text, from: text.startIndex) == text.endIndex
  }

  /// Whether `text` is a name Swift code can use as it is: `email`, `_internal`.
  static func isIdentifier(_ text: some StringProtocol) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII }
  }

  /// Whether `text` is a type's name as CustomDump prints it without generic parameters:
  /// `TodosFeature.State`.
  static func isTypeName(_ text: String) -> Bool {
    text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(self.isIdentifier)
  }

  /// Where the one-line string literal starting at `start` ends (after its closing quote and
  /// number signs); `nil` when there is none there, or it interpolates.
  static func stringLiteralEnd(_ text: String, from start: String.Index) -> String.Index? {
    var index = start
    var hashes = 0
    while index < text.endIndex, text[index] == "#" {
      hashes += 1
      index = text.index(after: index)
    }
    guard index < text.endIndex, text[index] == "\"" else { return nil }
    index = text.index(after: index)
    while index < text.endIndex {
      let character = text[index]
      // NB: CustomDump escapes controls in a string, but not in a raw one; a control from a
      // trace must reach neither the terminal nor the test.
      if character.unicodeScalars.contains(where: \.isTerminalControl) { return nil }
      if character == "\\" {
        var next = text.index(after: index)
        var marks = 0
        while marks < hashes, next < text.endIndex, text[next] == "#" {
          marks += 1
          next = text.index(after: next)
        }
        if marks == hashes {
          // NB: An escape: `(` would interpolate, which a literal from a trace must not.
          guard next < text.endIndex, text[next] != "(" else { return nil }
          index = text.index(after: next)
          continue
        }
      } else if character == "\"" {
        var next = text.index(after: index)
        var marks = 0
        while marks < hashes, next < text.endIndex, text[next] == "#" {
          marks += 1
          next = text.index(after: next)
        }
        if marks == hashes { return next }
      }
      index = text.index(after: index)
    }
    return nil
  }

  private static func isNumber(_ text: String) -> Bool {
    var rest = Substring(text)
    if rest.first == "-" { rest = rest.dropFirst() }
    guard let first = rest.first, first.isASCII, first.isNumber else { return false }
    var seenPoint = false
    var seenExponent = false
    var previous: Character = " "
    for character in rest {
      switch character {
      case "0"..."9": break
      case "." where !seenPoint && !seenExponent: seenPoint = true
      case "e" where !seenExponent, "E" where !seenExponent: seenExponent = true
      case "-" where previous == "e" || previous == "E", "+" where previous == "e" || previous == "E": break
      default: return false
      }
      previous = character
    }
    return previous.isASCII && previous.isNumber
  }

  /// `string` as a one-line Swift string literal.
  static func stringLiteral(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\0": out += "\\0"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        out += "\\u{\(String(scalar.value, radix: 16))}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  static func fragment(_ node: StateNode) throws(Unwritable) -> SwiftFragment {
    switch node {
    case let .text(text):
      if text == "<redacted>" { return .text(self.redactedPlaceholder) }
      guard self.isLiteral(text) else { throw Unwritable(rendering: text) }
      return .text(text)
    case let .multilineString(string, _):
      return .text(self.stringLiteral(string))
    case let .enumCase(_, description):
      guard self.isIdentifier(description) else { throw Unwritable(rendering: description) }
      return .text("." + description)
    case let .some(wrapped):
      return try self.fragment(wrapped)
    case let .container(container):
      return try self.fragment(container, rendering: node)
    }
  }

  private static func fragment(
    _ container: StateContainer, rendering node: StateNode
  ) throws(Unwritable) -> SwiftFragment {
    func unwritable() -> Unwritable { Unwritable(rendering: node.rendered().singleLine) }
    func arguments() throws(Unwritable) -> [SwiftFragment] {
      var items: [SwiftFragment] = []
      for child in container.children {
        let value = try self.fragment(child.node)
        if let label = child.label, !self.isIdentifier(label) { throw unwritable() }
        items.append(child.label.map { value.prefixed("\($0): ") } ?? value)
      }
      return items
    }
    switch container.kind {
    case let .structure(type):
      if let alert = try self.alert(type: type, container) { return alert }
      // NB: A generic type's rendering does not say its parameters, and a child without a
      // label is not an initializer's argument.
      guard self.isTypeName(type), !self.builtOtherwise.contains(type),
        container.children.allSatisfy({ $0.label != nil })
      else { throw unwritable() }
      return .group(open: type + "(", items: try arguments(), close: ")")
    case .tuple:
      return .group(open: "(", items: try arguments(), close: ")")
    case .collection, .set:
      var items: [SwiftFragment] = []
      for child in container.children { items.append(try self.fragment(child.node)) }
      return .group(open: "[", items: items, close: "]")
    case let .dictionary(sorted):
      // NB: An unsorted dictionary is an ordered one or a navigation stack, whose elements'
      // ids a literal cannot give; an empty one could be either `[:]` or `[]`.
      guard sorted else { throw unwritable() }
      guard !container.children.isEmpty else { return .text("[:]") }
      var items: [SwiftFragment] = []
      for child in container.children {
        guard let key = child.label, self.isLiteral(key) else { throw unwritable() }
        items.append(try self.fragment(child.node).prefixed("\(key): "))
      }
      return .group(open: "[", items: items, close: "]")
    case let .enumCase(_, name):
      guard self.isIdentifier(name) else { throw unwritable() }
      return .group(open: "." + name + "(", items: try arguments(), close: ")")
    }
  }

  /// Types whose rendering is not their initializer's arguments.
  private static let builtOtherwise: Set<String> = [
    "AlertState", "ButtonState", "ConfirmationDialogState", "TextState", "Date", "UUID", "URL",
  ]

  /// An alert, built as TCA's documentation builds one:
  /// `AlertState { TextState("…") } actions: { ButtonState(…) { TextState("…") } }`.
  private static func alert(
    type: String, _ container: StateContainer
  ) throws(Unwritable) -> SwiftFragment? {
    guard type == "AlertState" else { return nil }
    func text(_ label: String) -> String? {
      guard let node = container.children.first(where: { $0.label == label })?.node else { return nil }
      return try? self.fragment(node).laidOut(indent: 0, column: 0)
    }
    let labels = Set(container.children.compactMap(\.label))
    guard let title = text("title"), labels.isSubset(of: ["title", "actions", "message"]) else {
      return nil
    }
    var blocks: [(String, [SwiftFragment])] = [("", [.text("TextState(\(title))")])]
    if case let .container(actions)? = container.children.first(where: { $0.label == "actions" })?.node {
      var buttons: [SwiftFragment] = []
      for child in actions.children {
        guard case let .container(button) = child.node, case .structure("ButtonState") = button.kind
        else { return nil }
        var arguments: [String] = []
        var label: String?
        for part in button.children {
          let value = try self.fragment(part.node).laidOut(indent: 0, column: 0)
          switch part.label {
          case "role", "action": arguments.append("\(part.label!): \(value)")
          case "label": label = value
          default: return nil
          }
        }
        guard let label else { return nil }
        let call = arguments.isEmpty ? "ButtonState" : "ButtonState(\(arguments.joined(separator: ", ")))"
        buttons.append(.block(open: call + " {", lines: [.text("TextState(\(label))")]))
      }
      blocks.append(("actions", buttons))
    }
    if let message = text("message") {
      blocks.append(("message", [.text("TextState(\(message))")]))
    }
    return .builders(type: "AlertState", blocks: blocks)
  }
}

/// Swift source that can be laid out on one line or several.
indirect enum SwiftFragment {
  /// Written as it is.
  case text(String)
  /// `open`, the items separated by commas, `close`: on one line when it fits, else one item
  /// per line.
  case group(open: String, items: [SwiftFragment], close: String)
  /// `open` (ending in `{`), the lines one per line, `}`.
  case block(open: String, lines: [SwiftFragment])
  /// A value built by trailing closures: `Type {` … `} label: {` … `}`.
  case builders(type: String, blocks: [(label: String, lines: [SwiftFragment])])

  /// The longest line a laid-out fragment may write.
  static let width = 100

  /// The fragment with `prefix` before it: an argument's label.
  func prefixed(_ prefix: String) -> SwiftFragment {
    switch self {
    case let .text(text): .text(prefix + text)
    case let .group(open, items, close): .group(open: prefix + open, items: items, close: close)
    case let .block(open, lines): .block(open: prefix + open, lines: lines)
    case let .builders(type, blocks): .builders(type: prefix + type, blocks: blocks)
    }
  }

  /// The fragment on one line, if it can be.
  var flat: String? {
    switch self {
    case let .text(text):
      return text
    case let .group(open, items, close):
      var parts: [String] = []
      for item in items {
        guard let flat = item.flat else { return nil }
        parts.append(flat)
      }
      return open + parts.joined(separator: ", ") + close
    case .block, .builders:
      return nil
    }
  }

  /// The fragment laid out from `column` in a line indented by `indent` spaces; lines after the
  /// first are indented.
  func laidOut(indent: Int, column: Int) -> String {
    if let flat = self.flat, column + flat.count <= Self.width { return flat }
    let pad = String(repeating: " ", count: indent)
    let inner = String(repeating: " ", count: indent + 2)
    switch self {
    case let .text(text):
      return text
    case let .group(open, items, close):
      guard !items.isEmpty else { return open + close }
      let lines = items.map { inner + $0.laidOut(indent: indent + 2, column: indent + 2) }
      return open + "\n" + lines.joined(separator: ",\n") + "\n" + pad + close
    case let .block(open, lines):
      let body = lines.map { inner + $0.laidOut(indent: indent + 2, column: indent + 2) }
      return open + "\n" + body.joined(separator: "\n") + "\n" + pad + "}"
    case let .builders(type, blocks):
      var out = type
      for (offset, block) in blocks.enumerated() {
        out += offset == 0 ? " {\n" : " \(block.label): {\n"
        for line in block.lines {
          out += inner + line.laidOut(indent: indent + 2, column: indent + 2) + "\n"
        }
        out += pad + "}"
      }
      return out
    }
  }
}
