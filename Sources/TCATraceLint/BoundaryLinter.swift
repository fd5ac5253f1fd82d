import Foundation
import SwiftParser
import SwiftSyntax

/// Checks Swift sources against the boundary rules, on their syntax trees.
///
/// ```swift
/// let findings = BoundaryLinter.lint(source: """
///   switch action {
///   case ._internal(.settings(.view(.saveTapped))): …
///   }
///   """, file: "Parent.swift")
/// // [Parent.swift:2:29: error: '._internal(.settings(.view))' matches a view action of the
/// //  child 'settings'; … [parent-reacts-to-private-child-action]]
/// ```
public enum BoundaryLinter {
  /// The findings in `source`, in source order. `file` names the source in the findings.
  public static func lint(
    source: String, file: String, rules: Set<LintRule> = Set(LintRule.allCases)
  ) -> [LintFinding] {
    Self.lint(Parser.parse(source: source), file: file, rules: Self.defaultSeverities(of: rules))
  }

  private static func lint(
    _ tree: SourceFileSyntax, file: String, rules: [LintRule: LintSeverity]
  ) -> [LintFinding] {
    let converter = SourceLocationConverter(fileName: file, tree: tree)
    let visitor = BoundaryVisitor()
    visitor.walk(tree)
    var suppressions = Suppressions(tree: tree, converter: converter)
    var findings: [LintFinding] = []
    for raw in visitor.findings {
      guard let severity = rules[raw.rule] else { continue }
      let location = converter.location(for: raw.token.positionAfterSkippingLeadingTrivia)
      guard !suppressions.silences(raw.rule, line: location.line) else { continue }
      findings.append(
        LintFinding(
          file: file, line: location.line, column: location.column, rule: raw.rule,
          message: raw.message, severity: severity)
      )
    }
    if let severity = rules[.unusedSuppression] {
      findings += suppressions.unused(file: file, rules: Set(rules.keys)).map {
        var finding = $0
        finding.severity = severity
        return finding
      }
    }
    return findings.sorted { ($0.line, $0.column, $0.rule) < ($1.line, $1.column, $1.rule) }
  }

  /// The `.swift` files under `paths` (directories recursively, `.build` and hidden
  /// directories skipped), sorted, and their findings.
  ///
  /// - Throws: ``LintError`` for a path that does not exist, cannot be read, or is a file that
  ///   is not Swift.
  public static func lint(
    paths: [String], rules: Set<LintRule> = Set(LintRule.allCases)
  ) throws(LintError) -> LintReport {
    var configuration = LintConfiguration()
    configuration.rules = Self.defaultSeverities(of: rules)
    return try Self.lint(paths: paths, configuration: configuration)
  }

  /// The `.swift` files under `paths`, less what `configuration` excludes in folders (and among
  /// the files named, with `forceExclude`), and their findings of the rules it turns on, at the
  /// severities it gives.
  ///
  /// - Throws: ``LintError`` for a path that does not exist, cannot be read, or is a file that
  ///   is not Swift.
  public static func lint(
    paths: [String], configuration: LintConfiguration, forceExclude: Bool = false
  ) throws(LintError) -> LintReport {
    let files = try SourceFiles.find(
      in: paths, configuration: configuration, forceExclude: forceExclude)
    var findings: [LintFinding] = []
    var unparsed: [String] = []
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else {
        throw LintError(path: file, message: "cannot be read: check its permissions")
      }
      let tree = Parser.parse(source: String(decoding: data, as: UTF8.self))
      if tree.hasError { unparsed.append(file) }
      findings += Self.lint(tree, file: file, rules: configuration.rules)
    }
    return LintReport(files: files, findings: findings, unparsedFiles: unparsed)
  }

  private static func defaultSeverities(of rules: Set<LintRule>) -> [LintRule: LintSeverity] {
    Dictionary(uniqueKeysWithValues: rules.map { ($0, $0.severity) })
  }
}

/// What a lint of paths found.
public struct LintReport: Equatable, Sendable {
  /// The Swift files read, in the order they were read.
  public var files: [String]
  public var findings: [LintFinding]
  /// The files with syntax errors: they were checked as far as the parser could read them,
  /// so their findings may be incomplete.
  public var unparsedFiles: [String] = []
}

/// A path the linter cannot read.
public struct LintError: Error, Equatable, Sendable, CustomStringConvertible {
  public var path: String
  public var message: String

  public var description: String { "'\(self.path)' \(self.message)" }
}

/// Finding the files to lint.
enum SourceFiles {
  /// The Swift files of `paths`: a file as named (unless `forceExclude` and `configuration`
  /// excludes it), a folder's files less those `configuration` excludes.
  static func find(
    in paths: [String], configuration: LintConfiguration, forceExclude: Bool
  ) throws(LintError) -> [String] {
    let fileManager = FileManager.default
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw LintError(path: path, message: "does not exist: give a Swift file or a directory")
      }
      guard isDirectory.boolValue else {
        guard path.hasSuffix(".swift") else {
          throw LintError(
            path: path, message: "is not a Swift file: give .swift files or directories")
        }
        guard fileManager.isReadableFile(atPath: path) else {
          throw LintError(path: path, message: "cannot be read: check its permissions")
        }
        if forceExclude,
          configuration.excludes(absolutePath: FilePaths.standardized(path))
        {
          continue
        }
        files.append(path)
        continue
      }
      guard let enumerator = fileManager.enumerator(atPath: path) else {
        throw LintError(path: path, message: "cannot be read: check its permissions")
      }
      let hasExclusions = !configuration.excluded.isEmpty
      let absoluteRoot = hasExclusions ? FilePaths.standardized(path) : ""
      var found: [String] = []
      while let relative = enumerator.nextObject() as? String {
        let name = (relative as NSString).lastPathComponent
        let full = (path as NSString).appendingPathComponent(relative)
        var isSubdirectory: ObjCBool = false
        _ = fileManager.fileExists(atPath: full, isDirectory: &isSubdirectory)
        let excluded =
          hasExclusions && configuration.excludes(absolutePath: absoluteRoot + "/" + relative)
        if isSubdirectory.boolValue {
          if name == ".build" || name.hasPrefix(".") || excluded { enumerator.skipDescendants() }
          continue
        }
        if name.hasSuffix(".swift"), !excluded { found.append(full) }
      }
      files += found.sorted()
    }
    return files
  }
}
