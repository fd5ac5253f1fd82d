import SwiftParser
import SwiftSyntax
import ToolSupport

/// Checks a test `tcatrace test` wrote against the grammar it writes, on the syntax tree Swift's
/// own parser builds of it: the check that what a trace held stayed data.
///
/// The generator writes a trace's values only as literals it writes itself and names it
/// checks (see `TestGeneration`'s `SwiftLiteral`). This is the second line: it parses the output as
/// the compiler would, and accepts only the statements and expressions the generator means to
/// write —
///
/// ```
/// file       := import* test-function decoded-function
/// statement  := "let initialState = try decoded(" Type ".self," raw-string ")"
///             | "let store = TestStore(initialState:" initial ")" "{" reducer "}"
///               (reducer := Type "()" | Type ".body")
///               ["withDependencies:" "{" ["dependencies in"] placeholder? "}"]
///             | "await store.send(" action ")" [assertions]
///             | "await store.receive(" key-path | placeholder ")" [assertions]
///             | ["try"] "await store.withExhaustivity(.off) {" ("_ = " send | receive)* "}"
/// assertions := "{" (change | lvalue ".$" name ".withLock {" change "}"
///                 | lvalue ".modify(\." name ") {" change "}")* "}"
/// change     := lvalue "=" value | lvalue ".insert(" value ", at:" integer ")"
/// lvalue     := "$0" ("." name | "?" | "[" literal "]" | "[id:" literal ["," "case: \." name] "]")*
/// action     := value | "try decoded(" Type ".Action.self," raw-string ")"
/// value      := literal | placeholder | "." name ["(" arguments ")"] | ".init(" arguments ")"
///             | "[" values "]" | "[" literal ":" value, … "]" | "(" arguments ")" | "\." name ("." name)*
///             | AlertState, ButtonState and TextState builders of values
/// literal    := a one-line string literal of printable ASCII that does not interpolate
///             | an integer or a float, with "-" | true | false | nil
///             | "UUID(" integer ")" | "UUID(uuidString:" hex-string ")!"
/// ```
///
/// — and anything else, a call of any other function above all, is a violation.
public enum GeneratedTestGrammar {
  /// Where the source leaves the grammar, and how.
  public struct Violation: Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public var description: String { "line \(self.line): \(self.message)" }
  }

  /// The helper every generated test ends with, as it is written.
  public static var decodedFunction: String { GeneratedTestHelper.function }

  /// The first place `source` leaves the grammar; `nil` when it is all in it.
  public static func violation(in source: String) -> Violation? {
    let tree = Parser.parse(source: source)
    let converter = SourceLocationConverter(fileName: "", tree: tree)
    do throws(Refusal) {
      let parseError = ParseErrorFinder(viewMode: .all)
      parseError.walk(tree)
      if let node = parseError.node {
        throw Refusal(
          node: node, "it does not parse there: \(node.trimmedDescription.debugDescription)")
      }
      try Checker().file(tree)
      return nil
    } catch {
      let line = converter.location(for: error.node.positionAfterSkippingLeadingTrivia).line
      return Violation(line: line, message: error.message)
    }
  }
}

/// The first node the parser did not expect, or a token it found missing or could not lex.
///
/// NB: Not `hasError`, which an Xcode placeholder (`<#redacted#>`) sets: a generated test holds
/// them where the user is to fill in a value.
private final class ParseErrorFinder: SyntaxVisitor {
  var node: Syntax?

  override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
    if self.node == nil { self.node = Syntax(node) }
    return .skipChildren
  }

  override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
    let isPlaceholder = token.text.hasPrefix("<#") && token.text.hasSuffix("#>")
    if self.node == nil,
      token.presence == .missing || token.tokenDiagnostic != nil && !isPlaceholder
    {
      self.node = Syntax(token.parent ?? Syntax(token))
    }
    return .skipChildren
  }
}

private struct Refusal: Error {
  var node: Syntax
  var message: String

  init(node: Syntax, _ message: String) {
    self.node = node
    self.message = message
  }
}

private struct Checker {
  func refuse(_ node: some SyntaxProtocol, _ what: String) -> Refusal {
    let text = node.trimmedDescription
    let shown =
      text.unicodeScalars.count > 60
      ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(60))) + "…" : text
    return Refusal(node: Syntax(node), "\(what): \(shown.debugDescription)")
  }

  // MARK: The file and its statements

  func file(_ tree: SourceFileSyntax) throws(Refusal) {
    var functions = 0
    var helpers = 0
    for item in tree.statements {
      guard case let .decl(decl) = item.item else {
        throw self.refuse(item, "a statement outside the test")
      }
      if let importDecl = decl.as(ImportDeclSyntax.self) {
        try self.importDecl(importDecl)
      } else if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "decoded" {
        guard function.trimmedDescription == GeneratedTestGrammar.decodedFunction else {
          throw self.refuse(
            function, "a 'decoded' function other than the one the generator writes")
        }
        helpers += 1
      } else if let function = decl.as(FunctionDeclSyntax.self) {
        try self.testFunction(function)
        functions += 1
      } else {
        throw self.refuse(decl, "a declaration the generator does not write")
      }
    }
    guard functions == 1, helpers <= 1 else {
      throw self.refuse(
        tree,
        "\(functions) test functions and \(helpers) 'decoded' functions, not one and at most one")
    }
  }

  func importDecl(_ decl: ImportDeclSyntax) throws(Refusal) {
    let attributes = decl.attributes.map(\.trimmedDescription)
    guard decl.modifiers.isEmpty, decl.importKindSpecifier == nil, decl.path.count == 1,
      attributes == [] || attributes == ["@testable"], self.isName(decl.path.first!.name.text)
    else { throw self.refuse(decl, "an import the generator does not write") }
  }

  func testFunction(_ function: FunctionDeclSyntax) throws(Refusal) {
    let attributes = function.attributes.map(\.trimmedDescription)
    guard attributes == ["@MainActor", "@Test"], function.modifiers.isEmpty,
      function.genericParameterClause == nil, function.genericWhereClause == nil,
      function.signature.parameterClause.parameters.isEmpty, function.signature.returnClause == nil,
      function.signature.effectSpecifiers?.trimmedDescription == "async throws",
      self.isName(function.name.text), let body = function.body
    else { throw self.refuse(function, "a function the generator does not write") }
    for item in body.statements {
      try self.statement(item)
    }
  }

  func statement(_ item: CodeBlockItemSyntax) throws(Refusal) {
    switch item.item {
    case let .decl(decl):
      guard let variable = decl.as(VariableDeclSyntax.self), variable.attributes.isEmpty,
        variable.modifiers.isEmpty, variable.bindingSpecifier.tokenKind == .keyword(.let),
        variable.bindings.count == 1, let binding = variable.bindings.first,
        binding.typeAnnotation == nil, binding.accessorBlock == nil,
        let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
        let value = binding.initializer?.value
      else { throw self.refuse(decl, "a declaration the generator does not write") }
      switch name {
      case "initialState": try self.decoded(value, type: "State")
      case "store": try self.testStore(value)
      default: throw self.refuse(decl, "a constant the generator does not write")
      }
    case let .expr(expression):
      // NB: `try` only before a `withExhaustivity` whose operation decodes an action.
      let tried = expression.as(TryExprSyntax.self)
      guard tried == nil || tried?.questionOrExclamationMark == nil,
        let awaited = (tried?.expression ?? expression).as(AwaitExprSyntax.self)?.expression,
        let call = awaited.as(FunctionCallExprSyntax.self),
        let member = self.storeMethod(call)
      else { throw self.refuse(expression, "a statement the generator does not write") }
      guard tried == nil || member == "withExhaustivity" else {
        throw self.refuse(expression, "a statement the generator does not write")
      }
      try self.storeCall(call, member: member)
    case .stmt:
      throw self.refuse(item, "a statement the generator does not write")
    }
  }

  /// `store.send`, `store.receive` or `store.withExhaustivity`.
  func storeMethod(_ call: FunctionCallExprSyntax) -> String? {
    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "store",
      member.declName.argumentNames == nil
    else { return nil }
    return member.declName.baseName.text
  }

  func storeCall(_ call: FunctionCallExprSyntax, member: String) throws(Refusal) {
    guard call.additionalTrailingClosures.isEmpty, call.leftParen != nil else {
      throw self.refuse(call, "a call the generator does not write")
    }
    switch member {
    case "send", "receive":
      guard call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil
      else {
        throw self.refuse(call, "a \(member) the generator does not write")
      }
      if member == "send" {
        if argument.expression.is(TryExprSyntax.self) {
          try self.decoded(argument.expression, type: "Action")
        } else {
          try self.value(argument.expression)
        }
      } else if !self.isPlaceholder(argument.expression) {
        try self.keyPath(argument.expression, subscripts: true)
      }
      if let assertions = call.trailingClosure {
        try self.closure(assertions) { item throws(Refusal) in try self.assertion(item) }
      }
    case "withExhaustivity":
      guard call.arguments.map(\.trimmedDescription) == [".off"], let body = call.trailingClosure
      else {
        throw self.refuse(call, "a withExhaustivity the generator does not write")
      }
      try self.closure(body) { (item) throws(Refusal) in
        guard case var .expr(expression) = item.item else {
          throw self.refuse(item, "a statement the generator does not write")
        }
        // NB: A `send`'s task is discarded: `_ = await store.send(…)`.
        var discarded = false
        if let sequence = expression.as(SequenceExprSyntax.self) {
          let elements = Array(sequence.elements)
          guard elements.count == 3, elements[0].is(DiscardAssignmentExprSyntax.self),
            elements[1].is(AssignmentExprSyntax.self)
          else { throw self.refuse(item, "a statement the generator does not write") }
          expression = elements[2]
          discarded = true
        }
        guard let awaited = expression.as(AwaitExprSyntax.self)?.expression,
          let inner = awaited.as(FunctionCallExprSyntax.self),
          let member = self.storeMethod(inner), member == (discarded ? "send" : "receive")
        else { throw self.refuse(item, "a statement the generator does not write") }
        try self.storeCall(inner, member: member)
      }
    default:
      throw self.refuse(call, "a call of store.\(member), which the generator does not write")
    }
  }

  /// The statements of a closure without parameters, each checked by `check`.
  func closure(
    _ closure: ClosureExprSyntax, _ check: (CodeBlockItemSyntax) throws(Refusal) -> Void
  ) throws(Refusal) {
    guard closure.signature == nil else {
      throw self.refuse(closure, "a closure the generator does not write")
    }
    for item in closure.statements { try check(item) }
  }

  /// `try decoded(Type.State.self, #"""…"""#)`.
  func decoded(_ expression: ExprSyntax, type: String) throws(Refusal) {
    guard
      let call = expression.as(TryExprSyntax.self).flatMap({
        $0.questionOrExclamationMark == nil ? $0 : nil
      })?
      .expression.as(FunctionCallExprSyntax.self),
      self.isPlain(call),
      call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "decoded",
      call.arguments.count == 2, call.arguments.allSatisfy({ $0.label == nil }),
      let metatype = call.arguments.first?.expression.as(MemberAccessExprSyntax.self),
      metatype.declName.baseName.tokenKind == .keyword(.self), let base = metatype.base,
      self.isType(base),
      let json = call.arguments.last?.expression.as(StringLiteralExprSyntax.self)
    else { throw self.refuse(expression, "a decoding the generator does not write") }
    try self.rawString(json)
  }

  /// `TestStore(initialState: …) { Feature() } withDependencies: { … }`.
  func testStore(_ expression: ExprSyntax) throws(Refusal) {
    guard let call = expression.as(FunctionCallExprSyntax.self),
      call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "TestStore",
      call.arguments.count == 1, let initial = call.arguments.first,
      initial.label?.text == "initialState",
      initial.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "initialState"
        || self.isPlaceholder(initial.expression),
      let reducer = call.trailingClosure, reducer.signature == nil, reducer.statements.count == 1,
      case let .expr(reducerExpression) = reducer.statements.first!.item,
      call.additionalTrailingClosures.count <= 1
    else { throw self.refuse(expression, "a store the generator does not write") }
    // NB: `Feature()`, or `Game.body`: a `@Reducer enum`'s reducer.
    if !self.isPlaceholder(reducerExpression) {
      if let body = reducerExpression.as(MemberAccessExprSyntax.self), let base = body.base,
        body.declName.baseName.text == "body", body.declName.argumentNames == nil,
        self.isType(base)
      {
        // The reducer of a `@Reducer enum`.
      } else {
        guard let initializer = reducerExpression.as(FunctionCallExprSyntax.self),
          self.isPlain(initializer),
          initializer.arguments.isEmpty,
          self.isType(initializer.calledExpression)
            || self.isPlaceholder(initializer.calledExpression)
        else { throw self.refuse(reducerExpression, "a reducer the generator does not write") }
      }
    }
    if let dependencies = call.additionalTrailingClosures.first {
      let closure = dependencies.closure
      let signature = closure.signature?.trimmedDescription
      guard dependencies.label.text == "withDependencies",
        signature == nil || signature == "dependencies in",
        closure.statements.count <= 1,
        closure.statements.allSatisfy({ item in
          if case let .expr(expression) = item.item { return self.isPlaceholder(expression) }
          return false
        })
      else { throw self.refuse(dependencies, "dependencies the generator does not write") }
    }
  }

  // MARK: Assertions

  /// One statement of an assertion's closure; `inShared`: inside the closure of a shared
  /// value's `withLock` or a case's `modify`, where neither is written again.
  func assertion(_ item: CodeBlockItemSyntax, inShared: Bool = false) throws(Refusal) {
    guard case let .expr(expression) = item.item else {
      throw self.refuse(item, "an assertion the generator does not write")
    }
    if !inShared, let call = expression.as(FunctionCallExprSyntax.self), call.leftParen == nil,
      call.arguments.isEmpty, call.additionalTrailingClosures.isEmpty,
      let closure = call.trailingClosure, closure.statements.count == 1,
      let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      member.declName.baseName.text == "withLock", member.declName.argumentNames == nil,
      let projection = member.base?.as(MemberAccessExprSyntax.self), let base = projection.base,
      projection.declName.argumentNames == nil,
      case let name = projection.declName.baseName.text, name.hasPrefix("$"),
      self.isName(String(name.dropFirst()))
    {
      // NB: `$0.shelf.$count.withLock { $0 = 1 }`: a shared value's change.
      try self.lvalue(base)
      try self.closure(closure) { item throws(Refusal) in try self.assertion(item, inShared: true) }
    } else if !inShared, let call = expression.as(FunctionCallExprSyntax.self),
      call.leftParen != nil, call.arguments.count == 1, call.arguments.first!.label == nil,
      call.additionalTrailingClosures.isEmpty, let closure = call.trailingClosure,
      closure.signature == nil, closure.statements.count == 1,
      let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
      member.declName.baseName.text == "modify", member.declName.argumentNames == nil,
      let keyPath = call.arguments.first!.expression.as(KeyPathExprSyntax.self),
      keyPath.components.count == 1
    {
      // NB: `$0.modify(\.login) { $0.email = "a" }`: a change inside a reducer's enum
      // state's case.
      try self.lvalue(base)
      try self.keyPath(ExprSyntax(keyPath), subscripts: false)
      try self.closure(closure) { item throws(Refusal) in try self.assertion(item, inShared: true) }
    } else if let sequence = expression.as(SequenceExprSyntax.self) {
      let parts = Array(sequence.elements)
      guard parts.count == 3, parts[1].is(AssignmentExprSyntax.self) else {
        throw self.refuse(expression, "an assertion the generator does not write")
      }
      try self.lvalue(parts[0])
      try self.value(parts[2])
    } else if let call = expression.as(FunctionCallExprSyntax.self), self.isPlain(call),
      let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
      member.declName.baseName.text == "insert", member.declName.argumentNames == nil,
      call.arguments.count == 2, call.arguments.first!.label == nil,
      call.arguments.last!.label?.text == "at",
      call.arguments.last!.expression.is(IntegerLiteralExprSyntax.self)
    {
      try self.lvalue(base)
      try self.value(call.arguments.first!.expression)
    } else {
      throw self.refuse(expression, "an assertion the generator does not write")
    }
  }

  func lvalue(_ expression: ExprSyntax) throws(Refusal) {
    if let reference = expression.as(DeclReferenceExprSyntax.self),
      reference.baseName.tokenKind == .dollarIdentifier("$0"),
      reference.argumentNames == nil
    {
      return
    }
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
      self.isMember(member.declName)
    {
      return try self.lvalue(base)
    }
    if let optional = expression.as(OptionalChainingExprSyntax.self) {
      return try self.lvalue(optional.expression)
    }
    if let subscriptCall = expression.as(SubscriptCallExprSyntax.self),
      subscriptCall.trailingClosure == nil,
      subscriptCall.additionalTrailingClosures.isEmpty
    {
      try self.subscriptArguments(subscriptCall.arguments, cases: true)
      return try self.lvalue(subscriptCall.calledExpression)
    }
    throw self.refuse(expression, "an assignment's target the generator does not write")
  }

  /// `[literal]`, `[id: literal]`, and with `cases`, `[id: literal, case: \.name]`.
  func subscriptArguments(_ arguments: LabeledExprListSyntax, cases: Bool) throws(Refusal) {
    let labels = arguments.map { $0.label?.text }
    if labels == [nil] || labels == ["id"] {
      return try self.literal(arguments.first!.expression)
    }
    guard cases, labels == ["id", "case"] else {
      throw self.refuse(arguments, "a subscript the generator does not write")
    }
    try self.literal(arguments.first!.expression)
    try self.keyPath(arguments.last!.expression, subscripts: false)
  }

  /// `\.a.b`, and with `subscripts`, `\.a[id: 1].b`.
  func keyPath(_ expression: ExprSyntax, subscripts: Bool) throws(Refusal) {
    guard let keyPath = expression.as(KeyPathExprSyntax.self), keyPath.root == nil,
      !keyPath.components.isEmpty
    else { throw self.refuse(expression, "a key path the generator does not write") }
    for component in keyPath.components {
      switch component.component {
      case let .property(property)
      where component.period != nil && property.genericArgumentClause == nil
        && self.isMember(property.declName):
        continue
      case let .subscript(subscriptComponent) where subscripts && component.period == nil:
        try self.subscriptArguments(subscriptComponent.arguments, cases: false)
      default:
        throw self.refuse(component, "a key path the generator does not write")
      }
    }
  }

  // MARK: Values

  func value(_ expression: ExprSyntax) throws(Refusal) {
    if self.isPlaceholder(expression) { return }
    if let member = expression.as(MemberAccessExprSyntax.self), member.base == nil {
      guard self.isMember(member.declName) else {
        throw self.refuse(expression, "a member the generator does not write")
      }
      return
    }
    if let call = expression.as(FunctionCallExprSyntax.self) {
      return try self.call(call)
    }
    if let array = expression.as(ArrayExprSyntax.self) {
      for element in array.elements { try self.value(element.expression) }
      return
    }
    if let dictionary = expression.as(DictionaryExprSyntax.self) {
      if case let .elements(elements) = dictionary.content {
        for element in elements {
          try self.literal(element.key)
          try self.value(element.value)
        }
      }
      return
    }
    if let tuple = expression.as(TupleExprSyntax.self) {
      return try self.arguments(tuple.elements, labelled: false)
    }
    if expression.is(KeyPathExprSyntax.self) {
      return try self.keyPath(expression, subscripts: false)
    }
    try self.literal(expression)
  }

  /// `.case(…)`, `.init(label: …)`, and alerts' builders.
  func call(_ call: FunctionCallExprSyntax) throws(Refusal) {
    if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil,
      self.isPlain(call)
    {
      if member.declName.baseName.tokenKind == .keyword(.`init`),
        member.declName.argumentNames == nil
      {
        return try self.arguments(call.arguments, labelled: true)
      }
      if self.isMember(member.declName) {
        return try self.arguments(call.arguments, labelled: false)
      }
    }
    switch call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text {
    case "UUID":
      return try self.literal(ExprSyntax(call))
    case "TextState"
    where self.isPlain(call) && call.arguments.count == 1 && call.arguments.first!.label == nil:
      return try self.value(call.arguments.first!.expression)
    case "ButtonState" where call.additionalTrailingClosures.isEmpty:
      guard call.arguments.allSatisfy({ ["role", "action"].contains($0.label?.text) }),
        let label = call.trailingClosure
      else { break }
      try self.arguments(call.arguments, labelled: true)
      return try self.builder(label, of: "TextState")
    case "AlertState" where call.leftParen == nil && call.arguments.isEmpty:
      guard let title = call.trailingClosure else { break }
      try self.builder(title, of: "TextState")
      for block in call.additionalTrailingClosures {
        switch block.label.text {
        case "actions": try self.builder(block.closure, of: "ButtonState")
        case "message": try self.builder(block.closure, of: "TextState")
        default: throw self.refuse(block, "an alert the generator does not write")
        }
      }
      return
    default:
      break
    }
    throw self.refuse(call, "a call the generator does not write")
  }

  /// A result builder's closure of `type`'s values.
  func builder(_ closure: ClosureExprSyntax, of type: String) throws(Refusal) {
    try self.closure(closure) { (item) throws(Refusal) in
      guard case let .expr(expression) = item.item,
        let call = expression.as(FunctionCallExprSyntax.self),
        call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == type
      else { throw self.refuse(item, "a \(type) the generator does not write") }
      try self.call(call)
    }
  }

  func arguments(_ arguments: LabeledExprListSyntax, labelled: Bool) throws(Refusal) {
    for argument in arguments {
      if let label = argument.label {
        guard self.isName(label.text), !["inout", "var", "let"].contains(label.text) else {
          throw self.refuse(argument, "a label the generator does not write")
        }
      } else if labelled {
        throw self.refuse(argument, "an initializer's argument without a label")
      }
      try self.value(argument.expression)
    }
  }

  func literal(_ expression: ExprSyntax) throws(Refusal) {
    if expression.is(BooleanLiteralExprSyntax.self) || expression.is(NilLiteralExprSyntax.self) {
      return
    }
    var number = expression
    if let negative = expression.as(PrefixOperatorExprSyntax.self), negative.operator.text == "-" {
      number = negative.expression
    }
    if let integer = number.as(IntegerLiteralExprSyntax.self),
      integer.literal.text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) })
    {
      return
    }
    if let float = number.as(FloatLiteralExprSyntax.self),
      float.literal.text.unicodeScalars.allSatisfy({
        ("0"..."9").contains($0) || ".eE+-".unicodeScalars.contains($0)
      })
    {
      return
    }
    if let string = expression.as(StringLiteralExprSyntax.self), string.openingPounds == nil,
      string.openingQuote.tokenKind == .stringQuote
    {
      for segment in string.segments {
        guard case let .stringSegment(text) = segment,
          text.content.text.unicodeScalars.allSatisfy({ (" "..."~").contains($0) })
        else { throw self.refuse(expression, "a string the generator does not write") }
      }
      return
    }
    // NB: `UUID(1)`, `UUID(uuidString: "…")!`: a UUID, as `SwiftLiteral` writes one.
    if let call = (expression.as(ForceUnwrapExprSyntax.self)?.expression ?? expression)
      .as(FunctionCallExprSyntax.self), self.isPlain(call),
      call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "UUID",
      call.arguments.count == 1, let argument = call.arguments.first
    {
      let forced = expression.is(ForceUnwrapExprSyntax.self)
      if !forced, argument.label == nil,
        let integer = argument.expression.as(IntegerLiteralExprSyntax.self),
        integer.literal.text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) })
      {
        return
      }
      if forced, argument.label?.text == "uuidString",
        let string = argument.expression.as(StringLiteralExprSyntax.self),
        string.openingPounds == nil, string.segments.count == 1,
        case let .stringSegment(text) = string.segments.first!,
        text.content.text.unicodeScalars.allSatisfy({
          $0.properties.isASCIIHexDigit || $0 == "-"
        })
      {
        return
      }
    }
    throw self.refuse(expression, "a value the generator does not write")
  }

  /// `#"""` … `"""#` of printable ASCII, which does not interpolate.
  func rawString(_ string: StringLiteralExprSyntax) throws(Refusal) {
    guard string.openingPounds != nil, string.openingQuote.tokenKind == .multilineStringQuote else {
      throw self.refuse(string, "JSON outside a raw string")
    }
    for segment in string.segments {
      guard case let .stringSegment(text) = segment,
        text.content.text.unicodeScalars.allSatisfy({ (" "..."~").contains($0) || $0 == "\n" })
      else { throw self.refuse(string, "a raw string the generator does not write") }
    }
  }

  // MARK: Names

  /// An Xcode placeholder, `<#redacted#>`: a value for the user to fill in, which does not
  /// compile until they do.
  func isPlaceholder(_ expression: ExprSyntax) -> Bool {
    let token =
      expression.as(DeclReferenceExprSyntax.self)?.baseName
      ?? expression.as(EditorPlaceholderExprSyntax.self)?.placeholder
    guard let token, token.text.hasPrefix("<#"), token.text.hasSuffix("#>") else { return false }
    return expression.as(DeclReferenceExprSyntax.self)?.argumentNames == nil
  }

  /// A call with its arguments in parentheses and no closure after them.
  func isPlain(_ call: FunctionCallExprSyntax) -> Bool {
    call.leftParen != nil && call.trailingClosure == nil && call.additionalTrailingClosures.isEmpty
  }

  /// `Feature`, `Feature.State`: capitalized names.
  func isType(_ expression: ExprSyntax) -> Bool {
    // NB: The generator writes a placeholder for a root feature's name that is not a type's.
    if self.isPlaceholder(expression) { return true }
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      return reference.argumentNames == nil && self.isTypeName(reference.baseName)
    }
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
      return member.declName.argumentNames == nil && self.isTypeName(member.declName.baseName)
        && self.isType(base)
    }
    return false
  }

  func isTypeName(_ token: TokenSyntax) -> Bool {
    guard case .identifier = token.tokenKind, let first = token.text.unicodeScalars.first else {
      return false
    }
    return ("A"..."Z").contains(first) && self.isName(token.text)
  }

  /// A member's name after a dot, not `init`, `self` or `Type`.
  func isMember(_ reference: DeclReferenceExprSyntax) -> Bool {
    guard reference.argumentNames == nil else { return false }
    switch reference.baseName.tokenKind {
    case .identifier, .keyword:
      return self.isName(reference.baseName.text)
        && !["init", "self", "Self", "Type", "Protocol", "dynamicType"].contains(
          reference.baseName.text)
    default:
      return false
    }
  }

  /// `[A-Za-z_][A-Za-z0-9_]*`.
  func isName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first,
      first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first)
    else { return false }
    return text.unicodeScalars.allSatisfy {
      $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
    }
  }
}
