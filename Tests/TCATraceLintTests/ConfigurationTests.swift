import Foundation
import TCATraceLint
import TestSupport
import Testing

/// Issue #62: `.tcatrace-lint.yml` — what is checked, which rules run, how they report, and one
/// line saying where a file is wrong.
@Suite(.hangGuard)
struct ConfigurationTests {
  static let leak = "switch action {\ncase ._internal(.settings(.view)): break\ndefault: break\n}\n"

  @Test func rulesTurnOffAndChangeSeverity() throws {
    let configuration = try LintConfiguration.parse(
      yaml: """
        rules:
          parent-reacts-to-private-child-action: warning
          effect-sends-view-action: off
          unused-suppression: error
        """,
      file: "c.yml", directory: "/project"
    )
    #expect(configuration.rules[.parentReactsToPrivateChildAction] == .warning)
    #expect(configuration.rules[.effectSendsViewAction] == nil)
    #expect(configuration.rules[.unusedSuppression] == .error)
    // A rule the file does not name keeps its own severity.
    #expect(configuration.rules[.ancestorReactsToGrandchildDelegate] == .error)
  }

  /// Issue #72: the four rules a trace also finds have the trace's names; a file written with
  /// the linter's former names still sets them, and says which it used.
  @Test func aRuleNamedByItsFormerNameIsThatRule() throws {
    let configuration = try LintConfiguration.parse(
      yaml: """
        rules:
          child-private-action-access: warning
          view-action-from-effect: off
          private-action-sent-from-view: warning
        """,
      file: "c.yml", directory: "/project"
    )
    #expect(configuration.rules[.parentReactsToPrivateChildAction] == .warning)
    #expect(configuration.rules[.effectSendsViewAction] == nil)
    #expect(configuration.rules[.viewSendsPrivateAction] == .warning)
    #expect(configuration.rules[.ancestorReactsToGrandchildDelegate] == .error)
    #expect(
      configuration.formerRuleNames.sorted() == [
        "child-private-action-access", "private-action-sent-from-view", "view-action-from-effect",
      ])
    #expect(
      Set(LintRule.formerNames.values) == [
        .parentReactsToPrivateChildAction, .ancestorReactsToGrandchildDelegate,
        .effectSendsViewAction, .viewSendsPrivateAction,
      ])
  }

  /// A rule named twice, by its name and its former name, is refused: which one wins would be
  /// the file's order.
  @Test func aRuleNamedTwiceIsRefused() {
    #expect {
      try LintConfiguration.parse(
        yaml: """
          rules:
            view-action-from-effect: off
            effect-sends-view-action: error
          """,
        file: "c.yml", directory: "/project")
    } throws: { error in
      (error as? LintConfigurationError)?.description.contains(
        "'rules' names 'effect-sends-view-action' twice, as 'view-action-from-effect' and 'effect-sends-view-action': keep one"
      ) == true
    }
  }

  @Test func severityAndOffApplyToFindings() throws {
    let directory = try TemporaryDirectory()
    try Self.leak.write(toFile: directory.path("Parent.swift"), atomically: true, encoding: .utf8)
    var configuration = LintConfiguration(directory: directory.url.path)
    configuration.rules[.parentReactsToPrivateChildAction] = .warning
    let report = try BoundaryLinter.lint(
      paths: [directory.path("Parent.swift")], configuration: configuration)
    #expect(report.findings.map(\.severity) == [.warning])
    configuration.rules[.parentReactsToPrivateChildAction] = nil
    let off = try BoundaryLinter.lint(
      paths: [directory.path("Parent.swift")], configuration: configuration)
    #expect(off.findings.isEmpty)
  }

  @Test func excludedPathsFoldersAndGlobsAreSkippedInFolders() throws {
    let directory = try TemporaryDirectory()
    for path in [
      "Sources/App/Parent.swift", "Sources/Generated/Parent.swift",
      "Sources/App/Mocks/Parent.swift", "Sources/App/Other.swift",
    ] {
      let url = directory.url.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Self.leak.write(to: url, atomically: true, encoding: .utf8)
    }
    let configuration = try LintConfiguration.parse(
      yaml: """
        excluded:
          - Sources/Generated/
          - "*/Mocks/*"
          - Sources/App/Other.swift
        """,
      file: "c.yml", directory: directory.url.path
    )
    let report = try BoundaryLinter.lint(
      paths: [directory.path("Sources")], configuration: configuration)
    #expect(report.files == [directory.path("Sources") + "/App/Parent.swift"])
    // A file named as such is checked all the same.
    let named = try BoundaryLinter.lint(
      paths: [directory.path("Sources/App/Other.swift")], configuration: configuration)
    #expect(named.findings.count == 1)
  }

  @Test func theNearestFileAtOrAboveAFolderIsFound() throws {
    let directory = try TemporaryDirectory()
    let nested = directory.url.appendingPathComponent("a/b")
    try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
    try "rules: {}\n".write(
      toFile: directory.path("a/.tcatrace-lint.yml"), atomically: true, encoding: .utf8)
    let found = try #require(LintConfiguration.find(from: nested.path))
    #expect(
      URL(fileURLWithPath: found).resolvingSymlinksInPath().path
        == URL(fileURLWithPath: directory.path("a/.tcatrace-lint.yml")).resolvingSymlinksInPath()
        .path)
    let configuration = try LintConfiguration.load(file: found)
    #expect(configuration.directory.hasSuffix("/a"))
  }

  @Test(
    arguments: [
      (
        "rules:\n  child-private-action-acces: warning\n",
        "line 2, column 3: no rule 'child-private-action-acces'"
      ),
      (
        "rules:\n  effect-sends-view-action: warn\n",
        "line 2, column 29: 'effect-sends-view-action' should be error, warning or off"
      ),
      ("exclude:\n  - Sources\n", "line 1, column 1: unknown key 'exclude'"),
      ("excluded:\n  nested: map\n", "line 2, column 3: 'excluded' should be a list of paths"),
      ("rules: [\n", "line 2, column 1: not valid YAML"),
      ("- Sources\n", "line 1, column 1: should be a mapping"),
    ])
  func aBadFileIsOneLineSayingWhere(yaml: String, expected: String) {
    #expect {
      try LintConfiguration.parse(yaml: yaml, file: ".tcatrace-lint.yml", directory: "/p")
    } throws: { error in
      let description = "\(error)"
      return description.hasPrefix("'.tcatrace-lint.yml' \(expected)")
        && !description.contains("\n")
    }
  }

  @Test func aMissingFileSaysSo() {
    #expect(throws: LintConfigurationError.self) {
      try LintConfiguration.load(file: "/nonexistent/.tcatrace-lint.yml")
    }
  }
}
