import Foundation
import SwiftParser
import SwiftSyntax

/// Finds uses of Apple-platform APIs that are newer than the package's declared floor, outside
/// an `@available` or `#available` guard: the error "only available in iOS 18.0 or newer" an
/// app's build would give, found without an Apple toolchain.
///
/// The APIs and their availability come from the declarations themselves: the `.swiftinterface`
/// files of the toolchain's standard library, Concurrency, Synchronization, Observation and the
/// rest, which carry each declaration's `@available` for every Apple platform (the Linux
/// toolchain ships them as the Apple ones do). A use is found by name, without type checking:
///
/// - a type (`Atomic`, `Mutex`, `UnownedTaskExecutor`) by its name wherever it is written;
/// - a function, method or property by its base name, when every declaration of that name is
///   newer than the floor (`asUnownedTaskExecutor()`), so that a name older overloads share
///   (`runSynchronously(on:)`) is not taken for the newer one;
/// - an initializer by an argument label only newer initializers of its type take
///   (`Task(name:executorPreference:…)`);
/// - an `isolated deinit` outside a `@MainActor` type (the main actor's back-deploys).
///
/// Code for other platforms only (`#if os(Linux)`, `#if !canImport(SwiftUI)`, the `#else` of
/// `#if canImport(Darwin)`) is skipped. Foundation is not covered: its Apple availability is in
/// Apple's SDK, which no declaration on this machine carries.
struct AvailabilityCheck {
  /// A platform version: `iOS 17`, `macOS 14.4`.
  struct Version: Comparable, CustomStringConvertible {
    var components: [Int]

    init(_ text: Substring) {
      self.components = text.split(separator: ".").compactMap { Int($0) }
    }

    init(_ components: [Int]) {
      self.components = components
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
      for index in 0..<max(lhs.components.count, rhs.components.count) {
        let left = index < lhs.components.count ? lhs.components[index] : 0
        let right = index < rhs.components.count ? rhs.components[index] : 0
        if left != right { return left < right }
      }
      return false
    }

    var description: String { self.components.map(String.init).joined(separator: ".") }
  }

  /// The versions a declaration needs, by platform (`iOS`, `macOS`); a platform not named has
  /// no requirement.
  typealias Requirement = [String: Version]

  /// The platforms the check reads, and the package's floor for each.
  let floor: Requirement

  /// Types newer than the floor, by name.
  private(set) var types: [String: Requirement] = [:]
  /// Functions and properties every declaration of which is newer than the floor, by name.
  private(set) var members: [String: Requirement] = [:]
  /// Initializer labels only newer initializers of a type take: `Task` → `executorPreference`.
  private(set) var initializerLabels: [String: [String: Requirement]] = [:]

  init(floor: Requirement) {
    self.floor = floor
  }

  /// What is newer than the floor in the interface `source`.
  ///
  /// NB: Parsing the standard library's 2 MB interface whole takes half a minute in a debug
  /// build. Its top-level declarations (each begins at the line's start) are parsed only when
  /// one of them names a version above the floor; every name the others declare is older.
  mutating func learn(interface source: String) {
    let collector = DeclarationCollector(floor: self.floor)
    var newer = ""
    for chunk in Self.topLevelDeclarations(of: source) {
      if self.namesVersionAboveFloor(chunk) {
        newer += chunk
      } else {
        Self.olderNames(in: chunk, into: collector)
      }
    }
    collector.walk(Parser.parse(source: newer))
    self.merge(collector)
  }

  /// The top-level declarations of an interface, each with the attributes, comments and
  /// `#if` around it: a declaration ends where its braces and its `#if`s are closed.
  static func topLevelDeclarations(of source: String) -> [String] {
    var chunks: [String] = []
    var current = ""
    var braces = 0
    var conditions = 0
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      current += line + "\n"
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if braces == 0 {
        if trimmed.hasPrefix("#if") { conditions += 1 }
        if trimmed.hasPrefix("#endif") { conditions -= 1 }
      }
      braces += Self.braceBalance(of: trimmed)
      let isAttributeOrComment =
        trimmed.isEmpty || trimmed.hasPrefix("//") || trimmed.hasPrefix("#")
        || (trimmed.hasPrefix("@") && !trimmed.contains(" "))
        || (trimmed.hasPrefix("@available(") && trimmed.hasSuffix(")"))
      if braces <= 0, conditions <= 0, !isAttributeOrComment {
        chunks.append(current)
        current = ""
        braces = 0
        conditions = 0
      }
    }
    if !current.isEmpty { chunks.append(current) }
    return chunks
  }

  /// The braces `line` opens less those it closes, outside string literals and comments.
  private static func braceBalance(of line: Substring) -> Int {
    var balance = 0
    var inString = false
    var escaped = false
    var previous: Character = " "
    for character in line {
      defer { previous = character }
      if inString {
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
      case "\"": inString = true
      case "/" where previous == "/": return balance
      case "{": balance += 1
      case "}": balance -= 1
      default: break
      }
    }
    return balance
  }

  /// Whether `text` names one of the floor's platforms with a later version.
  private func namesVersionAboveFloor(_ text: String) -> Bool {
    guard text.contains("@available(") else { return false }
    for (platform, floor) in self.floor {
      var rest = text[...]
      while let range = rest.range(of: platform + " ") {
        let digits = rest[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        if !digits.isEmpty, Version(digits) > floor { return true }
        rest = rest[range.upperBound...]
      }
    }
    return false
  }

  /// The names the declarations in `text`, none newer than the floor, declare, and the labels
  /// of their initializers.
  private static func olderNames(in text: String, into collector: DeclarationCollector) {
    let words = text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
    var type: String?
    for (index, word) in words.enumerated() where index + 1 < words.count {
      switch word {
      case "func", "var", "let", "struct", "class", "enum", "protocol", "actor", "typealias",
        "associatedtype":
        collector.oldNames.insert(String(words[index + 1]))
        if type == nil, ["struct", "class", "enum", "actor", "protocol"].contains(word) {
          type = String(words[index + 1])
        }
      case "extension":
        if type == nil {
          // `extension _Concurrency.Task where …`: the last component before `where` or `{`.
          var next = index + 1
          while next + 1 < words.count, text.contains("\(words[next]).\(words[next + 1])") {
            next += 1
          }
          type = String(words[next])
        }
      default:
        break
      }
    }
    guard let type else { return }
    for line in text.split(separator: "\n") where line.contains("init(") || line.contains("init?(")
    {
      var rest = line[...]
      while let colon = rest.firstIndex(of: ":") {
        let label = rest[..<colon].reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        if !label.isEmpty {
          collector.oldInitializerLabels[type, default: []].insert(String(label.reversed()))
        }
        rest = rest[rest.index(after: colon)...]
      }
    }
  }

  private var oldNames: Set<String> = []
  private var oldInitializerLabels: [String: Set<String>] = [:]

  private mutating func merge(_ collector: DeclarationCollector) {
    self.oldNames.formUnion(collector.oldNames)
    for (type, labels) in collector.oldInitializerLabels {
      self.oldInitializerLabels[type, default: []].formUnion(labels)
    }
    for (name, requirement) in collector.newTypes { self.types[name] = requirement }
    for (name, requirement) in collector.newMembers { self.members[name] = requirement }
    for (type, labels) in collector.newInitializerLabels {
      for (label, requirement) in labels {
        self.initializerLabels[type, default: [:]][label] = requirement
      }
    }
    // NB: A name that an older declaration has too is not told apart by name.
    for name in self.oldNames {
      self.types[name] = nil
      self.members[name] = nil
    }
    for (type, labels) in self.oldInitializerLabels {
      for label in labels { self.initializerLabels[type]?[label] = nil }
    }
  }

  /// A use of a newer API outside a guard.
  struct Finding: Equatable, CustomStringConvertible {
    var file: String
    var line: Int
    var name: String
    var requirement: String

    var description: String {
      "\(self.file):\(self.line): '\(self.name)' needs \(self.requirement)"
    }
  }

  /// The uses in `source` (the file `file`) of newer APIs outside a guard; names `declared` in
  /// the sources checked (their own types) are theirs, not the interfaces'.
  func findings(in source: String, file: String, declared: Set<String> = []) -> [Finding] {
    let tree = Parser.parse(source: source)
    let converter = SourceLocationConverter(fileName: file, tree: tree)
    let finder = UseFinder(check: self, declared: declared)
    finder.walk(tree)
    return finder.uses.map { node, name, requirement in
      Finding(
        file: file, line: converter.location(for: node.positionAfterSkippingLeadingTrivia).line,
        name: name,
        requirement: requirement.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
          separator: ", ")
      )
    }
  }

  /// The names of the types, functions and properties `source` declares.
  static func declaredNames(in source: String) -> Set<String> {
    final class Names: SyntaxVisitor {
      var names: Set<String> = []
      override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        self.add(node.name)
      }
      override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        for binding in node.bindings {
          if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier {
            _ = self.add(name)
          }
        }
        return .visitChildren
      }
      override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        self.add(node.name)
      }
      override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        self.add(node.name)
      }
      override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        self.add(node.name)
      }
      override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        self.add(node.name)
      }
      override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        self.add(node.name)
      }
      override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        self.add(node.name)
      }
      func add(_ name: TokenSyntax) -> SyntaxVisitorContinueKind {
        self.names.insert(name.text)
        return .visitChildren
      }
    }
    let names = Names(viewMode: .sourceAccurate)
    names.walk(Parser.parse(source: source))
    return names.names
  }

  /// The platform versions an `@available` attribute names (`macOS 15.0`, `iOS 18.0`), for
  /// the platforms the check reads.
  static func versions(of attribute: AttributeSyntax, platforms: some Collection<String>)
    -> Requirement
  {
    guard attribute.attributeName.trimmedDescription == "available" else { return [:] }
    return Self.versions(in: attribute.arguments?.trimmedDescription ?? "", platforms: platforms)
  }

  /// The platform versions the arguments of `@available` or `#available` name.
  static func versions(in text: String, platforms: some Collection<String>) -> Requirement {
    var requirement: Requirement = [:]
    for platform in platforms {
      // `iOS 18.0` in the short form; `iOS, introduced: 18.0` in the long one.
      let patterns = [
        "(^|[ ,])\(platform) +([0-9]+(\\.[0-9]+)*)",
        "(^|[ ,])\(platform) *, *introduced *: *([0-9]+(\\.[0-9]+)*)",
      ]
      for pattern in patterns {
        guard let regex = try? NSRegularExpression(pattern: pattern),
          let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
          let range = Range(match.range(at: 2), in: text)
        else { continue }
        requirement[platform] = Version(text[range])
      }
    }
    return requirement
  }

  /// `inner` within `outer`: the later version of each platform.
  static func combine(_ outer: Requirement, _ inner: Requirement) -> Requirement {
    outer.merging(inner) { max($0, $1) }
  }

  /// The part of `requirement` above `floor`; empty when none is.
  static func above(_ requirement: Requirement, floor: Requirement) -> Requirement {
    requirement.filter { platform, version in floor[platform].map { version > $0 } ?? false }
  }
}

/// Whether an `#if` clause holds code for other platforms than Apple's only.
private func isOtherPlatformsOnly(_ clause: IfConfigClauseSyntax) -> Bool {
  let condition = clause.condition?.trimmedDescription.replacingOccurrences(of: " ", with: "") ?? ""
  if clause.poundKeyword.tokenKind == .poundElse {
    guard let clauses = clause.parent?.as(IfConfigClauseListSyntax.self) else { return false }
    return clauses.contains { other in
      let text = other.condition?.trimmedDescription.replacingOccurrences(of: " ", with: "") ?? ""
      return [
        "canImport(Darwin)", "canImport(SwiftUI)", "canImport(UIKit)", "os(macOS)", "os(iOS)",
        "canImport(ObjectiveC)",
      ]
      .contains { text == $0 || text.hasPrefix($0 + "||") }
    }
  }
  return condition.contains("os(Linux)") || condition.contains("canImport(Glibc)")
    || condition.contains("canImport(Musl)") || condition.hasPrefix("!canImport(SwiftUI)")
    || condition.hasPrefix("!canImport(Darwin)") || condition.hasPrefix("!os(macOS)")
}

/// Reads an interface's declarations and the versions each needs.
private final class DeclarationCollector: SyntaxVisitor {
  let floor: AvailabilityCheck.Requirement
  var newTypes: [String: AvailabilityCheck.Requirement] = [:]
  var newMembers: [String: AvailabilityCheck.Requirement] = [:]
  var newInitializerLabels: [String: [String: AvailabilityCheck.Requirement]] = [:]
  var oldNames: Set<String> = []
  var oldInitializerLabels: [String: Set<String>] = [:]
  /// The requirement of each enclosing declaration, and the enclosing type's name.
  private var stack: [(requirement: AvailabilityCheck.Requirement, type: String?)] = [([:], nil)]

  init(floor: AvailabilityCheck.Requirement) {
    self.floor = floor
    super.init(viewMode: .sourceAccurate)
  }

  private func requirement(_ attributes: AttributeListSyntax) -> AvailabilityCheck.Requirement {
    var own: AvailabilityCheck.Requirement = [:]
    for case let .attribute(attribute) in attributes {
      own = AvailabilityCheck.combine(
        own, AvailabilityCheck.versions(of: attribute, platforms: self.floor.keys))
    }
    return AvailabilityCheck.combine(self.stack.last!.requirement, own)
  }

  private func enter(_ attributes: AttributeListSyntax, type name: String?, declares: Bool)
    -> SyntaxVisitorContinueKind
  {
    let requirement = self.requirement(attributes)
    // NB: A nested type (`Unicode.UTF8.ValidationError`) is written by its name alone only
    // inside the type that holds it, which no checked source is: elsewhere the name is another
    // type's (argument-parser's `ValidationError`).
    if declares, let name {
      if self.stack.last!.type == nil {
        self.record(type: name, requirement)
      } else {
        self.oldNames.insert(name)
      }
    }
    self.stack.append((requirement, name ?? self.stack.last!.type))
    return .visitChildren
  }

  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
    self.enter(node.attributes, type: node.name.text, declares: true)
  }
  override func visitPost(_ node: StructDeclSyntax) { self.stack.removeLast() }
  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    self.enter(node.attributes, type: node.name.text, declares: true)
  }
  override func visitPost(_ node: ClassDeclSyntax) { self.stack.removeLast() }
  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    self.enter(node.attributes, type: node.name.text, declares: true)
  }
  override func visitPost(_ node: EnumDeclSyntax) { self.stack.removeLast() }
  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
    self.enter(node.attributes, type: node.name.text, declares: true)
  }
  override func visitPost(_ node: ActorDeclSyntax) { self.stack.removeLast() }
  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
    self.enter(node.attributes, type: node.name.text, declares: true)
  }
  override func visitPost(_ node: ProtocolDeclSyntax) { self.stack.removeLast() }
  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    // NB: `extension _Concurrency.Task where …`: the type is the last component.
    let name = node.extendedType.trimmedDescription.split(separator: ".").last.map {
      String($0.split(separator: "<").first ?? $0)
    }
    return self.enter(node.attributes, type: name, declares: false)
  }
  override func visitPost(_ node: ExtensionDeclSyntax) { self.stack.removeLast() }

  override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
    self.record(type: node.name.text, self.requirement(node.attributes))
    return .skipChildren
  }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    self.record(member: node.name.text, self.requirement(node.attributes))
    return .skipChildren
  }

  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    let requirement = self.requirement(node.attributes)
    for binding in node.bindings {
      if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
        self.record(member: name, requirement)
      }
    }
    return .skipChildren
  }

  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    guard let type = self.stack.last?.type else { return .skipChildren }
    let above = AvailabilityCheck.above(self.requirement(node.attributes), floor: self.floor)
    for parameter in node.signature.parameterClause.parameters {
      let label = parameter.firstName.text
      guard label != "_" else { continue }
      if above.isEmpty {
        self.oldInitializerLabels[type, default: []].insert(label)
      } else {
        self.newInitializerLabels[type, default: [:]][label] = above
      }
    }
    return .skipChildren
  }

  private func record(type name: String, _ requirement: AvailabilityCheck.Requirement) {
    let above = AvailabilityCheck.above(requirement, floor: self.floor)
    if above.isEmpty { self.oldNames.insert(name) } else { self.newTypes[name] = above }
  }

  private func record(member name: String, _ requirement: AvailabilityCheck.Requirement) {
    let above = AvailabilityCheck.above(requirement, floor: self.floor)
    if above.isEmpty { self.oldNames.insert(name) } else { self.newMembers[name] = above }
  }
}

/// Finds, in a source file, the uses of newer APIs that no guard covers.
private final class UseFinder: SyntaxVisitor {
  let check: AvailabilityCheck
  let declared: Set<String>
  var uses: [(node: Syntax, name: String, requirement: AvailabilityCheck.Requirement)] = []

  init(check: AvailabilityCheck, declared: Set<String>) {
    self.check = check
    self.declared = declared
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
    isOtherPlatformsOnly(node) ? .skipChildren : .visitChildren
  }

  override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
    self.type(node.name.text, at: Syntax(node))
    return .visitChildren
  }

  override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
    // `Synchronization.Atomic`
    self.type(node.name.text, at: Syntax(node))
    return .visitChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    let name = node.baseName.text
    self.type(name, at: Syntax(node))
    if !self.declared.contains(name), let requirement = self.check.members[name],
      node.parent?.is(MemberAccessExprSyntax.self) == true
    {
      self.use(name, requirement, at: Syntax(node))
    }
    return .visitChildren
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    let callee =
      node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
      ?? node.calledExpression.as(MemberAccessExprSyntax.self).flatMap { access in
        access.declName.baseName.text == "init" ? access.base?.trimmedDescription : nil
      }
    if let callee, let labels = self.check.initializerLabels[callee] {
      for argument in node.arguments {
        if let label = argument.label?.text, let requirement = labels[label] {
          self.use("\(callee)(\(label):)", requirement, at: Syntax(node))
          break
        }
      }
    }
    return .visitChildren
  }

  override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    let isIsolated = node.modifiers.contains { $0.name.text == "isolated" }
    guard isIsolated else { return .visitChildren }
    // NB: A main actor's isolated deinit back-deploys; any other actor's needs the runtime of
    // iOS 18.4 and macOS 15.4 (the compiler's "isolated deinit is only available in …").
    var parent = node.parent
    while let current = parent {
      if let attributes = Self.attributes(of: current) {
        if attributes.contains(where: {
          $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor"
        }) {
          return .visitChildren
        }
        break
      }
      parent = current.parent
    }
    self.use(
      "isolated deinit", ["iOS": .init([18, 4]), "macOS": .init([15, 4])], at: Syntax(node))
    return .visitChildren
  }

  private func type(_ name: String, at node: Syntax) {
    guard !self.declared.contains(name), let requirement = self.check.types[name] else { return }
    self.use(name, requirement, at: node)
  }

  private func use(_ name: String, _ requirement: AvailabilityCheck.Requirement, at node: Syntax) {
    let guarded = self.guarded(node)
    let uncovered = requirement.filter { platform, version in
      guarded[platform].map { version > $0 } ?? true
    }
    guard !uncovered.isEmpty else { return }
    self.uses.append((node, name, uncovered))
  }

  /// The versions the guards around `node` ensure: `@available` on an enclosing declaration,
  /// an `if #available` whose body holds it, a `guard #available` before it in a block.
  private func guarded(_ node: Syntax) -> AvailabilityCheck.Requirement {
    var ensured: AvailabilityCheck.Requirement = [:]
    var child = node
    var parent = node.parent
    let platforms = Array(self.check.floor.keys)
    while let current = parent {
      if let attributes = Self.attributes(of: current) {
        for case let .attribute(attribute) in attributes {
          ensured = AvailabilityCheck.combine(
            ensured, AvailabilityCheck.versions(of: attribute, platforms: platforms))
        }
      }
      if let ifExpression = current.as(IfExprSyntax.self), child.id == ifExpression.body.id {
        ensured = AvailabilityCheck.combine(
          ensured, Self.ensured(by: ifExpression.conditions, platforms: platforms))
      }
      if let block = current.as(CodeBlockItemListSyntax.self) {
        for item in block {
          if item.id == child.id { break }
          if let guardStatement = item.item.as(GuardStmtSyntax.self) {
            ensured = AvailabilityCheck.combine(
              ensured, Self.ensured(by: guardStatement.conditions, platforms: platforms))
          }
        }
      }
      child = current
      parent = current.parent
    }
    return ensured
  }

  private static func ensured(by conditions: ConditionElementListSyntax, platforms: [String])
    -> AvailabilityCheck.Requirement
  {
    var ensured: AvailabilityCheck.Requirement = [:]
    for condition in conditions {
      guard let availability = condition.condition.as(AvailabilityConditionSyntax.self),
        availability.availabilityKeyword.tokenKind == .poundAvailable
      else { continue }
      ensured = AvailabilityCheck.combine(
        ensured,
        AvailabilityCheck.versions(
          in: availability.availabilityArguments.trimmedDescription, platforms: platforms)
      )
    }
    return ensured
  }

  private static func attributes(of node: Syntax) -> AttributeListSyntax? {
    if let declaration = node.asProtocol((any WithAttributesSyntax).self) {
      return declaration.attributes
    }
    return nil
  }
}
