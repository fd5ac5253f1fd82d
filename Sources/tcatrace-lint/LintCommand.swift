import ArgumentParser
import Foundation
import GeneratedTestCheck
import TCATraceLint
import ToolSupport

/// `tcatrace lint [PATH …]`: the boundary rules that can be seen in source code.
///
/// A program of its own, `tcatrace-lint`, which `tcatrace lint` runs: see `tcatrace`'s `Lint`.
@main
struct LintCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tcatrace lint",
    abstract: "Check Swift sources for boundary leaks, without running them.",
    discussion: """
      Reads the .swift files under each PATH (directories recursively; .build and hidden \
      directories are skipped) and reports, on their syntax trees, the boundary rules broken \
      in code: comments and string literals are never reported.

      Rules:
      \(LintRule.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))

      A comment silences one rule's findings: '// tcatrace-lint:disable:next RULE' on the next \
      line, '// tcatrace-lint:disable:this RULE' on its own line, and '// tcatrace-lint:disable \
      RULE' up to '// tcatrace-lint:enable RULE'. One that silences nothing is a warning \
      (unused-suppression).
      Exits with 1 when an error is found, 0 when the sources are clean or have warnings only.
      """,
    version: TCATraceVersion.current
  )

  @Argument(help: "Swift files or directories to check. Default: the current directory.")
  var paths: [String] = []

  @Option(
    help: """
      Output format: text, json, xcode (what Xcode shows inline, as SwiftLint prints), github \
      (GitHub Actions annotations) or sarif (SARIF 2.1.0, for code scanning).
      """)
  var format: LintFormat = .text

  @Option(
    name: .customLong("rule"),
    help: ArgumentHelp(
      "Check only this rule; repeat for several. Default: every rule.", valueName: "name")
  )
  var rules: [String] = []

  @Flag(
    name: .customLong("generated-test"),
    help: ArgumentHelp(
      "Check the test 'tcatrace test' wrote, on the standard input, against the grammar it writes.",
      visibility: .private
    )
  )
  var generatedTest = false

  /// Runs the linter, with `tcatrace`'s exit codes: 0 clean, 1 findings, 2 usage or bad input.
  static func main() async {
    await runAsTool()
  }

  func run() throws {
    if self.generatedTest {
      // NB: `tcatrace test` runs this on what it is about to print: see `GeneratedTestGrammar`.
      let input = FileHandle.standardInput.readDataToEndOfFile()
      if let violation = GeneratedTestGrammar.violation(in: String(decoding: input, as: UTF8.self))
      {
        throw CLIError(
          message:
            "tcatrace test wrote Swift outside the grammar it writes, so it printed nothing (\(violation)); please report the trace that did this"
        )
      }
      return
    }
    var chosen: Set<LintRule> = []
    for name in self.rules {
      guard let rule = LintRule(rawValue: name) else {
        throw CLIError(
          message:
            "no rule '\(name)'; the rules are \(LintRule.allCases.map(\.rawValue).joined(separator: ", "))."
        )
      }
      chosen.insert(rule)
    }
    let report: LintReport
    do {
      report = try BoundaryLinter.lint(
        paths: self.paths.isEmpty ? ["."] : self.paths,
        rules: chosen.isEmpty ? Set(LintRule.allCases) : chosen
      )
    } catch {
      throw CLIError(message: error.description + ".")
    }
    for file in report.unparsedFiles {
      printError(
        "warning: '\(file)' has syntax errors; it was checked as far as it parses, so findings in it may be missing"
          .terminalSafe
      )
    }
    switch self.format {
    case .text:
      let terminal = Terminal.standard
      for finding in report.findings {
        let severity =
          finding.severity == .error
          ? terminal.paint("error:", .red) : terminal.paint("warning:", .yellow)
        print(
          "\(finding.file):\(finding.line):\(finding.column): \(severity) "
            + "\(finding.message) [\(finding.rule.rawValue)]"
        )
      }
      let count = report.findings.count
      let files = report.files.count
      let checked = "\(files) file\(files == 1 ? "" : "s")"
      print(
        count == 0
          ? terminal.paint("No boundary findings in \(checked).", .green)
          : terminal.paint(
            "\(count) finding\(count == 1 ? "" : "s") in \(Set(report.findings.map(\.file)).count) of \(checked).",
            .red
          )
      )
    case .xcode:
      for finding in report.findings {
        let path = URL(fileURLWithPath: finding.file).standardizedFileURL.path
        print(
          "\(path):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message) (\(finding.rule.rawValue))"
        )
      }
    case .json:
      print(
        JSONValue.array(
          report.findings.map {
            .object([
              ("file", .string($0.file)),
              ("line", .integer(Int64($0.line))),
              ("column", .integer(Int64($0.column))),
              ("rule", .string($0.rule.rawValue)),
              ("severity", .string($0.severity.rawValue)),
              ("message", .string($0.message)),
            ])
          }
        ).rendered
      )
    case .github:
      let root = RepositoryRoot()
      for finding in report.findings {
        print(GitHubAnnotations.line(for: finding, root: root))
      }
    case .sarif:
      print(SARIFLog.document(for: report, root: RepositoryRoot()).rendered)
    }
    if report.findings.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
  }
}

/// The formats of `tcatrace lint`.
enum LintFormat: String, ExpressibleByArgument, CaseIterable {
  case text
  case json
  case xcode
  case github
  case sarif
}
