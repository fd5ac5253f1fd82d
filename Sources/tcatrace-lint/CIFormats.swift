import Foundation
import TCATraceLint
import ToolSupport

/// Where the repository the linted files belong to starts: the nearest folder at or above the
/// working directory that holds `.git`; the working directory when there is none. CI's
/// annotations name files from there.
struct RepositoryRoot {
  let path: String

  init(from directory: String = FileManager.default.currentDirectoryPath) {
    let start = FilePaths.standardized(directory)
    self.path =
      FilePaths.nearest(".git", atOrAbove: start).map {
        ($0 as NSString).deletingLastPathComponent
      } ?? start
  }

  /// `file` from the root, with `/`; as given when it is outside the root.
  func relative(_ file: String) -> String {
    FilePaths.relative(FilePaths.standardized(file), to: self.path)
  }
}

/// GitHub Actions' workflow commands: one `::error …::message` (or `::warning`) line a finding,
/// which GitHub shows as an annotation on the file's line in the pull request.
///
/// As GitHub documents them: the message escapes `%`, CR and LF (`%25`, `%0D`, `%0A`); a
/// property's value escapes those and `:` and `,` (`%3A`, `%2C`).
enum GitHubAnnotations {
  static func line(for finding: LintFinding, root: RepositoryRoot) -> String {
    let properties = [
      ("file", root.relative(finding.file)),
      ("line", String(finding.line)),
      ("col", String(finding.column)),
      ("title", finding.rule.rawValue),
    ]
    .map { "\($0.0)=\(Self.escapeProperty($0.1))" }
    .joined(separator: ",")
    return "::\(finding.severity.rawValue) \(properties)::\(Self.escapeData(finding.message))"
  }

  static func escapeData(_ text: String) -> String {
    text.replacingOccurrences(of: "%", with: "%25")
      .replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  static func escapeProperty(_ text: String) -> String {
    Self.escapeData(text)
      .replacingOccurrences(of: ":", with: "%3A")
      .replacingOccurrences(of: ",", with: "%2C")
  }
}

/// SARIF 2.1.0, the format GitHub code scanning uploads: one run of `tcatrace-lint`, its rules,
/// and a result a finding, located by a path from the repository root (`%SRCROOT%`).
enum SARIFLog {
  static func document(for report: LintReport, root: RepositoryRoot) -> JSONValue {
    let rules = LintRule.allCases
    // NB: Each file with findings is read once, for the columns.
    var linesByFile: [String: [ArraySlice<UInt8>]] = [:]
    for file in Set(report.findings.map(\.file)) {
      linesByFile[file] = FileManager.default.contents(atPath: file).map {
        Array($0).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      }
    }
    let results = report.findings.map { finding -> JSONValue in
      .object([
        ("ruleId", .string(finding.rule.rawValue)),
        ("ruleIndex", .integer(Int64(rules.firstIndex(of: finding.rule)!))),
        ("level", .string(finding.severity.rawValue)),
        ("message", .object([("text", .string(finding.message))])),
        (
          "locations",
          .array([
            .object([
              (
                "physicalLocation",
                .object([
                  (
                    "artifactLocation",
                    .object([
                      ("uri", .string(Self.uri(root.relative(finding.file)))),
                      ("uriBaseId", .string("%SRCROOT%")),
                    ])
                  ),
                  (
                    "region",
                    .object([
                      ("startLine", .integer(Int64(finding.line))),
                      (
                        "startColumn",
                        .integer(
                          Int64(Self.utf16Column(of: finding, in: linesByFile[finding.file])))
                      ),
                    ])
                  ),
                ])
              )
            ])
          ])
        ),
      ])
    }
    let driver = JSONValue.object([
      ("name", .string("tcatrace-lint")),
      ("version", .string(TCATraceVersion.current)),
      (
        "rules",
        .array(
          rules.map { rule in
            // NB: A rule's former name, as SARIF says one (a code-scanning service then keeps
            // the alerts, and what was dismissed, of a rule renamed).
            let former = LintRule.formerNames.filter { $0.value == rule }.keys.sorted()
            return .object(
              [
                ("id", .string(rule.rawValue)),
                ("shortDescription", .object([("text", .string(rule.summary))])),
                ("defaultConfiguration", .object([("level", .string(rule.severity.rawValue))])),
              ] + (former.isEmpty ? [] : [("deprecatedIds", .array(former.map { .string($0) }))])
            )
          }
        )
      ),
    ])
    let rootURI = URL(fileURLWithPath: root.path, isDirectory: true).absoluteString
    return .object([
      ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
      ("version", .string("2.1.0")),
      (
        "runs",
        .array([
          .object([
            ("tool", .object([("driver", driver)])),
            (
              "originalUriBaseIds",
              .object([("%SRCROOT%", .object([("uri", .string(rootURI))]))])
            ),
            ("columnKind", .string("utf16CodeUnits")),
            ("results", .array(results)),
          ])
        ])
      ),
    ])
  }

  /// A relative path as a URI reference: each segment percent-encoded.
  static func uri(_ path: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "%?#[]@!$&'()*+,;=:")
    allowed.insert("/")
    return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
  }

  /// The finding's column in UTF-16 code units, as SARIF counts by default (the linter counts
  /// UTF-8 bytes, as compilers do), from its file's `lines`; the byte column when the line
  /// cannot be read.
  static func utf16Column(of finding: LintFinding, in lines: [ArraySlice<UInt8>]?) -> Int {
    guard let lines, finding.line - 1 < lines.count else { return finding.column }
    let prefix = lines[finding.line - 1].prefix(finding.column - 1)
    return String(decoding: prefix, as: UTF8.self).utf16.count + 1
  }
}
