import Foundation
import TCATraceLint
import TestSupport
import Testing

/// Issue #62: a baseline reports only the findings a codebase did not have when it was written.
@Suite(.hangGuard)
struct BaselineTests {
  static let source = """
    switch action {
    case ._internal(.settings(.view)): break
    case ._internal(.profile(.view)): break
    default: break
    }

    """

  @Test func aFindingMovedByEditsAboveItStaysBaselinedAndANewOneIsReported() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("Parent.swift")
    try Self.source.write(toFile: file, atomically: true, encoding: .utf8)
    let before = try BoundaryLinter.lint(paths: [file])
    #expect(before.findings.count == 2)
    let baseline = try Self.roundTrip(
      LintBaseline(findings: before.findings, directory: directory.url.path), in: directory)

    // Lines added above, one baselined line re-indented, and a new leak.
    try """
    // A comment.
    import Foundation

    switch action {
      case ._internal(.settings(.view)): break
    case ._internal(.profile(.view)): break
    case ._internal(.account(.view)): break
    default: break
    }

    """.write(toFile: file, atomically: true, encoding: .utf8)
    let after = try BoundaryLinter.lint(paths: [file])
    #expect(after.findings.map(\.line) == [5, 6, 7])
    let new = baseline.newFindings(in: after.findings, directory: directory.url.path)
    #expect(new.map(\.line) == [7])
    #expect(new.first?.message.contains("'account'") == true)
  }

  @Test func aSecondCopyOfABaselinedLineIsNew() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("Parent.swift")
    try "switch action {\ncase ._internal(.settings(.view)): break\ndefault: break\n}\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let baseline = LintBaseline(
      findings: try BoundaryLinter.lint(paths: [file]).findings, directory: directory.url.path)
    try """
    switch action {
    case ._internal(.settings(.view)): break
    default: break
    }
    switch other {
    case ._internal(.settings(.view)): break
    default: break
    }

    """.write(toFile: file, atomically: true, encoding: .utf8)
    let new = baseline.newFindings(
      in: try BoundaryLinter.lint(paths: [file]).findings, directory: directory.url.path)
    #expect(new.count == 1)
  }

  /// Issue #72: a baseline written when the rules had the linter's former names still holds
  /// their findings.
  @Test func aBaselineWithARulesFormerNameStillHoldsItsFindings() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("Parent.swift")
    try Self.source.write(toFile: file, atomically: true, encoding: .utf8)
    let findings = try BoundaryLinter.lint(paths: [file]).findings
    #expect(
      findings.map(\.rule) == [
        .parentReactsToPrivateChildAction, .parentReactsToPrivateChildAction,
      ])
    var baseline = LintBaseline(findings: findings, directory: directory.url.path)
    for index in baseline.entries.indices {
      baseline.entries[index].rule = "child-private-action-access"
    }
    let read = try Self.roundTrip(baseline, in: directory)
    #expect(read.newFindings(in: findings, directory: directory.url.path).isEmpty)
  }

  @Test func aBadOrNewerFileIsRefusedInOneLine() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("baseline.json")
    try "{ not json".write(toFile: file, atomically: true, encoding: .utf8)
    #expect {
      try LintBaseline.load(file: file)
    } throws: {
      "\($0)" == "'\(file)' is not a tcatrace-lint baseline: write it again with --write-baseline"
    }
    try #"{"version": 2, "findings": []}"#.write(toFile: file, atomically: true, encoding: .utf8)
    #expect {
      try LintBaseline.load(file: file)
    } throws: {
      "\($0)".contains("is a version 2 baseline, newer than this linter reads (1)")
    }
    #expect {
      try LintBaseline.load(file: directory.path("missing.json"))
    } throws: {
      "\($0)".hasSuffix("does not exist: write one with --write-baseline")
    }
  }

  static func roundTrip(_ baseline: LintBaseline, in directory: TemporaryDirectory) throws
    -> LintBaseline
  {
    let file = directory.path("baseline.json")
    try baseline.fileContents.write(to: URL(fileURLWithPath: file))
    let read = try LintBaseline.load(file: file)
    #expect(read == baseline)
    #expect(read.entries.allSatisfy { $0.file == "Parent.swift" })
    return read
  }
}
