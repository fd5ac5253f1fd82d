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
      The rules a running app can break too have the names `tcatrace leaks` gives them; their \
      former names (\(LintRule.formerNames.keys.sorted().joined(separator: ", "))) still work.

      Settings come from the nearest .tcatrace-lint.yml at or above the working directory \
      (or --config FILE): 'included' (paths checked when none is given), 'excluded' (paths, \
      folders or globs not checked inside a folder), 'rules' (each rule: error, warning or off) \
      and 'baseline' (a file). Options given here win over it.

      A baseline holds the findings a codebase already has: --write-baseline FILE records them, \
      and --baseline FILE reports only the findings it does not hold. A finding is matched by \
      its file, rule, message and line's text, so edits elsewhere in the file keep it matched.

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

  @Option(
    help: ArgumentHelp(
      "The configuration file. Default: the nearest .tcatrace-lint.yml at or above the working directory.",
      valueName: "file"))
  var config: String?

  @Flag(help: "Use no configuration file.")
  var noConfig = false

  @Flag(
    help:
      "Skip the files named on the command line that the configuration excludes, as in a folder (the build plugin names every file)."
  )
  var forceExclude = false

  @Option(
    help: ArgumentHelp(
      "Report only the findings this baseline does not hold. Default: the configuration's 'baseline'.",
      valueName: "file"))
  var baseline: String?

  @Option(
    help: ArgumentHelp(
      "Record the findings in this baseline file (replacing it) and report none.",
      valueName: "file"))
  var writeBaseline: String?

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
    var configuration = try self.configuration()
    for name in configuration.formerRuleNames + self.rules {
      guard let rule = LintRule.formerNames[name] else { continue }
      printError(
        "note: '\(name)' is the former name of '\(rule.rawValue)', the name the trace gives the rule too; the former name still works"
      )
    }
    if !self.rules.isEmpty {
      var chosen: [LintRule: LintSeverity] = [:]
      for name in self.rules {
        guard let rule = LintRule(name: name) else {
          throw CLIError(
            message:
              "no rule '\(name)'; the rules are \(LintRule.allCases.map(\.rawValue).joined(separator: ", "))."
          )
        }
        chosen[rule] = configuration.rules[rule] ?? rule.severity
      }
      configuration.rules = chosen
    }
    let paths =
      !self.paths.isEmpty
      ? self.paths
      : configuration.included.isEmpty ? ["."] : configuration.included.map(configuration.resolve)
    var report: LintReport
    do {
      report = try BoundaryLinter.lint(
        paths: paths, configuration: configuration, forceExclude: self.forceExclude)
    } catch {
      throw CLIError(message: error.description + ".")
    }
    if let file = self.writeBaseline {
      try Self.write(
        LintBaseline(findings: report.findings, directory: Self.folder(of: file)), to: file)
      let count = report.findings.count
      print(
        "Wrote \(count) finding\(count == 1 ? "" : "s") to the baseline '\(file)'.".terminalSafe)
      return
    }
    var baselined = 0
    if let file = self.baseline ?? configuration.baseline.map(configuration.resolve) {
      let baseline: LintBaseline
      do {
        baseline = try LintBaseline.load(file: file)
      } catch {
        throw CLIError(message: error.description + ".")
      }
      let all = report.findings.count
      report.findings = baseline.newFindings(in: report.findings, directory: Self.folder(of: file))
      baselined = all - report.findings.count
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
      let summary =
        count == 0
        ? terminal.paint("No boundary findings in \(checked)", .green)
        : terminal.paint(
          "\(count) finding\(count == 1 ? "" : "s") in \(Set(report.findings.map(\.file)).count) of \(checked)",
          .red
        )
      print(
        summary
          + (baselined == 0
            ? "." : "; \(baselined) more \(baselined == 1 ? "is" : "are") in the baseline."))
    case .xcode:
      for finding in report.findings {
        let path = FilePaths.standardized(finding.file)
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

extension LintCommand {
  /// The configuration: none with `--no-config`, the file `--config` names, or the nearest
  /// `.tcatrace-lint.yml`.
  private func configuration() throws -> LintConfiguration {
    if self.noConfig {
      guard self.config == nil else {
        throw CLIError(message: "--config and --no-config contradict each other: give one.")
      }
      return LintConfiguration()
    }
    guard let file = self.config ?? LintConfiguration.find() else { return LintConfiguration() }
    do {
      return try LintConfiguration.load(file: file)
    } catch {
      throw CLIError(message: error.description + ".")
    }
  }

  private static func folder(of file: String) -> String {
    (file as NSString).deletingLastPathComponent.isEmpty
      ? "." : (file as NSString).deletingLastPathComponent
  }

  private static func write(_ baseline: LintBaseline, to file: String) throws {
    do {
      try baseline.fileContents.write(to: URL(fileURLWithPath: file), options: .atomic)
    } catch {
      throw CLIError(
        message:
          "cannot write the baseline '\(file)': check that its folder exists and can be written.")
    }
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
