import ToolSupport
import TCATraceFile

/// Swift source for values a trace recorded, for the tests `tcatrace test` writes.
///
/// A value is written from the tree CustomDump's rendering of it left (``StateNode``), and only
/// as Swift that builds the same value: a literal written anew (``SwiftLiteral``), an array, an
/// enum case, a struct through its memberwise initializer, an alert through its builders, an
/// `IndexSet` as the array literal of its integers.
///
/// A struct is written `.init(id: 1, title: "Milk")`, never `Todo(id: 1, title: "Milk")`: the
/// type is the one the test's own context gives (the property assigned, the case's value), so
/// no name from the trace can make the test call a function of another type.
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

  static func fragment(_ node: StateNode) throws(Unwritable) -> SwiftFragment {
    switch node {
    case let .text(text):
      if text == "<redacted>" { return .text(self.redactedPlaceholder) }
      guard let literal = SwiftLiteral.rewritten(text) else {
        throw Unwritable(rendering: text.terminalSafe)
      }
      return .text(literal)
    case let .multilineString(string, _):
      return .text(SwiftLiteral.string(string))
    case let .enumCase(_, description):
      guard SwiftLiteral.isMemberName(description) else {
        throw Unwritable(rendering: description.terminalSafe)
      }
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
        if let label = child.label, !SwiftLiteral.isLabel(label) { throw unwritable() }
        items.append(child.label.map { value.prefixed("\($0): ") } ?? value)
      }
      return items
    }
    switch container.kind {
    case let .structure(type):
      if let alert = try self.alert(type: type, container) { return alert }
      // NB: A generic type's rendering does not say its parameters, and a child without a
      // label is not an initializer's argument.
      guard SwiftLiteral.isTypeName(type), !self.builtOtherwise.contains(type),
        container.children.allSatisfy({ $0.label != nil })
      else { throw unwritable() }
      return .group(open: ".init(", items: try arguments(), close: ")")
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
        guard let label = child.label, let key = SwiftLiteral.rewritten(label) else {
          throw unwritable()
        }
        items.append(try self.fragment(child.node).prefixed("\(key): "))
      }
      return .group(open: "[", items: items, close: "]")
    case let .enumCase(_, name):
      guard SwiftLiteral.isMemberName(name) else { throw unwritable() }
      return .group(open: "." + name + "(", items: try arguments(), close: ")")
    }
  }

  /// Types whose rendering is not their initializer's arguments.
  static let builtOtherwise: Set<String> = [
    "AlertState", "ButtonState", "ConfirmationDialogState", "TextState", "Date", "UUID", "URL",
  ]

  /// An alert, built as TCA's documentation builds one:
  /// `AlertState { TextState("…") } actions: { ButtonState(…) { TextState("…") } }`.
  private static func alert(
    type: String, _ container: StateContainer
  ) throws(Unwritable) -> SwiftFragment? {
    guard type == "AlertState" else { return nil }
    func text(_ label: String) -> String? {
      guard let node = container.children.first(where: { $0.label == label })?.node else {
        return nil
      }
      return try? self.fragment(node).laidOut(indent: 0, column: 0)
    }
    let labels = Set(container.children.compactMap(\.label))
    guard let title = text("title"), labels.isSubset(of: ["title", "actions", "message"]) else {
      return nil
    }
    var blocks: [(String, [SwiftFragment])] = [("", [.text("TextState(\(title))")])]
    if case let .container(actions)? = container.children.first(where: { $0.label == "actions" })?
      .node
    {
      var buttons: [SwiftFragment] = []
      for child in actions.children {
        guard case let .container(button) = child.node, case .structure("ButtonState") = button.kind
        else { return nil }
        var arguments: [String] = []
        var label: String?
        for part in button.children {
          let value = try self.fragment(part.node).laidOut(indent: 0, column: 0)
          switch part.label {
          // NB: A button without an action reads `action: .send(nil)`: its default.
          case "action" where value == ".send(nil)": break
          case "role", "action": arguments.append("\(part.label!): \(value)")
          case "label": label = value
          default: return nil
          }
        }
        guard let label else { return nil }
        let call =
          arguments.isEmpty ? "ButtonState" : "ButtonState(\(arguments.joined(separator: ", ")))"
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
  /// per line (a collection's each followed by a comma).
  case group(open: String, items: [SwiftFragment], close: String)
  /// `open` (ending in `{`), the lines one per line, `}`.
  case block(open: String, lines: [SwiftFragment])
  /// A value built by trailing closures: `Type {` … `} label: {` … `}`.
  case builders(type: String, blocks: [(label: String, lines: [SwiftFragment])])

  /// The longest line a laid-out fragment may write.
  static let width = 100

  /// The indentation past which a value is written on one line: a state nested thousands of
  /// levels deep would otherwise be written in space that grows with the square of its depth.
  static let deepestIndent = 64

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
    if let flat = self.flat, column + flat.count <= Self.width || indent >= Self.deepestIndent {
      return flat
    }
    let pad = String(repeating: " ", count: indent)
    let inner = String(repeating: " ", count: indent + 2)
    switch self {
    case let .text(text):
      return text
    case let .group(open, items, close):
      guard !items.isEmpty else { return open + close }
      let lines = items.map { inner + $0.laidOut(indent: indent + 2, column: indent + 2) }
      // NB: A collection literal over several lines ends its last element with a comma too,
      // as swift-format writes one (an argument list may not before Swift 6.1).
      let last = close == "]" ? "," : ""
      return open + "\n" + lines.joined(separator: ",\n") + last + "\n" + pad + close
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
