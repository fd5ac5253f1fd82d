import SwiftParser
import SwiftSyntax

/// Reads Swift sources as a compiler for Darwin would choose their `#if` branches, and finds
/// the spellings that compile against glibc only: what a Mac user's `swift run tcatrace demo`
/// or `swift test` would stop at, found without an Apple toolchain.
///
/// Each `#if` clause is weighed for macOS and for iOS: `canImport(Glibc)`, `os(Linux)` and the
/// like are false there, `canImport(Darwin)` true, `canImport(UIKit)` true on iOS only; what
/// cannot be known here (`arch`, `compiler`, a trait, `canImport` of a package's module,
/// `canImport(FoundationEssentials)`) may be either, so every branch it guards is read. In the
/// code Darwin may compile it finds:
///
/// - a member of a Linux C library's module (`Glibc.write`, `Musl.signal`), or its import: there
///   is no such module on Darwin;
/// - names only glibc declares: `__sigaction_handler` (Darwin's `struct sigaction` has the union
///   `__sigaction_u`, `<sys/signal.h>`), `st_mtim` and its kin (`st_mtimespec` in Darwin's
///   `<sys/stat.h>`), `SOCK_CLOEXEC`, `O_PATH`, epoll and inotify, `gettid` (Darwin has
///   `MSG_NOSIGNAL` too, from macOS 11);
/// - an empty initializer of a type that is a pointer on Darwin (`posix_spawn_file_actions_t()`,
///   `posix_spawnattr_t()`: `typedef void *` in `<spawn.h>`; `pthread_t()`: a pointer to
///   `struct _opaque_pthread_t`): a struct in glibc, with no `init()` in Darwin's.
///
/// It reads names, not types: a glibc-only spelling it does not list, a Foundation API that
/// differs between Apple's Foundation and swift-corelibs-foundation, a name a module declares
/// only where SwiftUI is not (`Composable`'s stand-ins), or a C type that differs in width
/// (`mode_t`) is found only by an Apple build. A path in Linux's `/proc` compiles, and fails
/// only when it is read.
struct DarwinSpellingCheck {
  /// A Darwin platform whose `#if` branches are read.
  enum Platform: String, CaseIterable {
    case macOS, iOS
  }

  /// A spelling Darwin's compiler would reject.
  struct Finding: Equatable, CustomStringConvertible {
    var file: String
    var line: Int
    var spelling: String
    var reason: String

    var description: String { "\(self.file):\(self.line): \(self.spelling): \(self.reason)" }
  }

  /// The findings in `source`, read as `file`, for every Darwin platform.
  static func findings(in source: String, file: String) -> [Finding] {
    Self.findings(in: Parser.parse(source: source), file: file)
  }

  /// The findings in `tree`, the file `file` parsed.
  static func findings(in tree: SourceFileSyntax, file: String) -> [Finding] {
    let converter = SourceLocationConverter(fileName: file, tree: tree)
    var findings: [Finding] = []
    for platform in Platform.allCases {
      let visitor = SpellingVisitor(platform: platform, file: file, converter: converter)
      visitor.walk(tree)
      for finding in visitor.findings where !findings.contains(finding) {
        findings.append(finding)
      }
    }
    return findings
  }

  /// The `#if` blocks of `source` whose conditions name a platform, a C library or an Apple
  /// framework, each as its clauses' conditions: `#if canImport(Glibc) #elseif
  /// canImport(Darwin)`.
  static func platformConditionals(in source: String) -> [String] {
    Self.platformConditionals(in: Parser.parse(source: source))
  }

  static func platformConditionals(in tree: SourceFileSyntax) -> [String] {
    let visitor = ConditionalLister(viewMode: .sourceAccurate)
    visitor.walk(tree)
    return visitor.conditionals
  }

  /// Whether `condition` holds on `platform`: `nil` when that cannot be known here.
  static func evaluate(_ condition: ExprSyntax, on platform: Platform) -> Bool? {
    if let prefix = condition.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
      return Self.evaluate(prefix.expression, on: platform).map { !$0 }
    }
    if let tuple = condition.as(TupleExprSyntax.self), tuple.elements.count == 1,
      let only = tuple.elements.first
    {
      return Self.evaluate(only.expression, on: platform)
    }
    if let infix = condition.as(InfixOperatorExprSyntax.self),
      let name = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text
    {
      return Self.combine(
        Self.evaluate(infix.leftOperand, on: platform), name,
        Self.evaluate(infix.rightOperand, on: platform))
    }
    if let sequence = condition.as(SequenceExprSyntax.self) {
      return Self.evaluate(sequence: Array(sequence.elements), on: platform)
    }
    if let literal = condition.as(BooleanLiteralExprSyntax.self) {
      return literal.literal.tokenKind == .keyword(.true)
    }
    guard let call = condition.as(FunctionCallExprSyntax.self),
      let function = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
      let argument = call.arguments.first?.expression.trimmedDescription
    else { return nil }
    switch function {
    case "canImport": return Self.canImport(argument, on: platform)
    case "os": return Self.isOS(argument, platform)
    default: return nil
    }
  }

  /// `a && b || c`, unfolded as the parser leaves it: `&&` binds tighter than `||`.
  private static func evaluate(sequence elements: [ExprSyntax], on platform: Platform) -> Bool? {
    var disjuncts: [Bool?] = []
    var conjunction: Bool? = true
    var index = 0
    while index < elements.count {
      let operand = Self.evaluate(elements[index], on: platform)
      conjunction = Self.combine(conjunction, "&&", operand)
      let next =
        index + 1 < elements.count
        ? elements[index + 1].as(BinaryOperatorExprSyntax.self)?.operator.text : nil
      if next != "&&" {
        disjuncts.append(conjunction)
        conjunction = true
      }
      index += 2
    }
    return disjuncts.dropFirst().reduce(disjuncts.first ?? nil) { Self.combine($0, "||", $1) }
  }

  private static func combine(_ left: Bool?, _ operation: String, _ right: Bool?) -> Bool? {
    switch operation {
    case "&&":
      if left == false || right == false { return false }
      return left == true && right == true ? true : nil
    case "||":
      if left == true || right == true { return true }
      return left == false && right == false ? false : nil
    default: return nil
    }
  }

  /// Modules that are, or are not, there on Darwin; others may be either.
  private static func canImport(_ module: String, on platform: Platform) -> Bool? {
    switch module {
    case "Darwin", "Foundation", "Dispatch", "ObjectiveC", "SwiftUI", "Combine", "os", "System":
      return true
    case "UIKit": return platform == .iOS
    case "AppKit": return platform == .macOS
    case "Glibc", "Musl", "Android", "Bionic", "WASILibc", "WinSDK", "ucrt", "CRT",
      "FoundationNetworking", "FoundationXML":
      return false
    default: return nil
    }
  }

  private static func isOS(_ name: String, _ platform: Platform) -> Bool? {
    switch name {
    case "macOS", "OSX": return platform == .macOS
    case "iOS": return platform == .iOS
    case "tvOS", "watchOS", "visionOS", "Linux", "Android", "Windows", "FreeBSD", "OpenBSD",
      "WASI", "Cygwin", "Haiku", "PS4", "none":
      return false
    default: return nil
    }
  }
}

/// Walks what Darwin may compile, and records the spellings it would reject.
private final class SpellingVisitor: SyntaxVisitor {
  let platform: DarwinSpellingCheck.Platform
  let file: String
  let converter: SourceLocationConverter
  var findings: [DarwinSpellingCheck.Finding] = []

  /// Modules of C libraries other than Darwin's.
  static let otherCLibraries: Set<String> = ["Glibc", "Musl", "Android", "Bionic", "WASILibc"]

  /// Names glibc (or Linux) declares and Darwin does not, with the reason.
  static let glibcOnlyNames: [String: String] = [
    "__sigaction_handler":
      "glibc's field; Darwin's struct sigaction has the union __sigaction_u (<sys/signal.h>)",
    "st_mtim": "glibc's field; Darwin's struct stat has st_mtimespec (<sys/stat.h>)",
    "st_atim": "glibc's field; Darwin's struct stat has st_atimespec (<sys/stat.h>)",
    "st_ctim": "glibc's field; Darwin's struct stat has st_ctimespec (<sys/stat.h>)",
    "SOCK_CLOEXEC": "Linux's socket type flag; Darwin sets FD_CLOEXEC with fcntl",
    "SOCK_NONBLOCK": "Linux's socket type flag; Darwin sets O_NONBLOCK with fcntl",
    "O_PATH": "Linux's open flag; not in Darwin's <sys/fcntl.h>",
    "O_TMPFILE": "Linux's open flag; not in Darwin's <sys/fcntl.h>",
    "epoll_create1": "Linux's epoll; Darwin has kqueue",
    "epoll_ctl": "Linux's epoll; Darwin has kqueue",
    "epoll_wait": "Linux's epoll; Darwin has kqueue",
    "inotify_init1": "Linux's inotify; Darwin has kqueue and FSEvents",
    "inotify_add_watch": "Linux's inotify; Darwin has kqueue and FSEvents",
    "gettid": "Linux's; Darwin has pthread_threadid_np",
    "prctl": "Linux's; not on Darwin",
    "sched_getcpu": "Linux's; not on Darwin",
    "malloc_usable_size": "glibc's; Darwin has malloc_size (<malloc/malloc.h>)",
    "__errno_location": "glibc's; use errno",
  ]

  /// C types that are pointers on Darwin and structs in glibc: no `init()` on Darwin.
  static let pointersOnDarwin: [String: String] = [
    "posix_spawn_file_actions_t": "typedef void * in Darwin's <spawn.h>",
    "posix_spawnattr_t": "typedef void * in Darwin's <spawn.h>",
    "pthread_t": "a pointer to struct _opaque_pthread_t in Darwin's <sys/_pthread/_pthread_t.h>",
  ]

  init(
    platform: DarwinSpellingCheck.Platform, file: String, converter: SourceLocationConverter
  ) {
    self.platform = platform
    self.file = file
    self.converter = converter
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
    self.mayBeCompiled(node) ? .visitChildren : .skipChildren
  }

  /// Whether Darwin may compile `clause`: no clause before it holds for certain, and its own
  /// condition may hold.
  private func mayBeCompiled(_ clause: IfConfigClauseSyntax) -> Bool {
    guard let clauses = clause.parent?.as(IfConfigClauseListSyntax.self) else { return true }
    for other in clauses {
      let holds =
        other.condition.map { DarwinSpellingCheck.evaluate($0, on: self.platform) } ?? true
      if other.id == clause.id { return holds != false }
      if holds == true { return false }
    }
    return true
  }

  override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
    if let module = node.path.first?.name.text, Self.otherCLibraries.contains(module) {
      self.record(node, "import \(module)", "no module \(module) on Darwin")
    }
    return .skipChildren
  }

  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
    if let base = node.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
      Self.otherCLibraries.contains(base)
    {
      self.record(
        node, "\(base).\(node.declName.baseName.text)", "no module \(base) on Darwin")
    }
    let name = node.declName.baseName.text
    if let reason = Self.glibcOnlyNames[name] { self.record(node.declName, name, reason) }
    return .visitChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    let name = node.baseName.text
    // NB: A member's name is its member access's (above); the base of one is read here:
    // `SOCK_CLOEXEC.rawValue`, as glibc's enum constant is written.
    let isMemberName = node.parent?.as(MemberAccessExprSyntax.self)?.declName.id == node.id
    if !isMemberName, let reason = Self.glibcOnlyNames[name] {
      self.record(node, name, reason)
    }
    return .visitChildren
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if node.arguments.isEmpty, node.trailingClosure == nil,
      let name = node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
      let reason = Self.pointersOnDarwin[name]
    {
      self.record(node, "\(name)()", "\(reason): it has no init() there")
    }
    return .visitChildren
  }

  private func record(_ node: some SyntaxProtocol, _ spelling: String, _ reason: String) {
    let line = node.startLocation(converter: self.converter).line
    self.findings.append(.init(file: self.file, line: line, spelling: spelling, reason: reason))
  }
}

/// Lists the `#if` blocks that name a platform, a C library or an Apple framework.
private final class ConditionalLister: SyntaxVisitor {
  var conditionals: [String] = []

  static let platformWords = [
    "os(", "arch(", "targetEnvironment(", "_ptrauth(", "canImport(Glibc)", "canImport(Musl)",
    "canImport(Darwin)", "canImport(UIKit)", "canImport(AppKit)", "canImport(SwiftUI)",
    "canImport(ObjectiveC)", "canImport(WinSDK)", "canImport(Android)",
    "canImport(FoundationEssentials)", "canImport(FoundationNetworking)",
    "canImport(XcodeProjectPlugin)",
  ]

  override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
    let clauses = node.clauses.map { clause in
      [clause.poundKeyword.text, clause.condition?.trimmedDescription]
        .compactMap { $0 }.joined(separator: " ")
    }
    if clauses.contains(where: { clause in Self.platformWords.contains { clause.contains($0) } }) {
      self.conditionals.append(clauses.joined(separator: " "))
    }
    return .visitChildren
  }
}
