import Foundation

/// The findings a codebase had when it adopted the linter, so that only new ones are reported.
///
/// A finding is known by its file, rule, message and the text of its line (without the
/// indentation), not by its line number: lines added or removed elsewhere in the file move it
/// without making it new. A baseline holds each such finding as many times as it was found, so a
/// second copy of a baselined line is new.
///
/// The file is JSON, written by `tcatrace lint --write-baseline FILE`, with paths relative to
/// its folder, so that it can be committed:
///
/// ```json
/// {
///   "findings" : [
///     {
///       "file" : "Sources/Parent/Parent.swift",
///       "line" : 40,
///       "message" : "'._internal(.settings(.view))' matches a view action of …",
///       "rule" : "parent-reacts-to-private-child-action",
///       "source" : "case ._internal(.settings(.view(.saveTapped))):"
///     }
///   ],
///   "version" : 1
/// }
/// ```
/// (`line` is there for a reader; matching does not use it.)
public struct LintBaseline: Equatable, Sendable {
  /// The baseline format this linter writes and reads.
  public static let version = 1

  public struct Entry: Codable, Equatable, Hashable, Sendable {
    /// The file, relative to the baseline's folder (absolute when it is outside it).
    public var file: String
    public var rule: String
    public var message: String
    /// The finding's line, without leading and trailing white space.
    public var source: String
    /// Where it was when the baseline was written; not used to match.
    public var line: Int

    var key: Key {
      // NB: A baseline written before the rules took the trace's names holds their former names.
      Key(
        file: self.file, rule: LintRule(name: self.rule)?.rawValue ?? self.rule,
        message: self.message, source: self.source)
    }
  }

  struct Key: Hashable {
    var file: String
    var rule: String
    var message: String
    var source: String
  }

  public var entries: [Entry]

  /// The baseline of `findings`, for a file in `directory`.
  public init(findings: [LintFinding], directory: String) {
    var lines = SourceLines()
    let folder = FilePaths.standardized(directory)
    self.entries = findings.map {
      Entry(
        file: Self.relative($0.file, to: folder), rule: $0.rule.rawValue, message: $0.message,
        source: lines.text(of: $0.file, line: $0.line), line: $0.line)
    }
  }

  /// The findings in `findings` that this baseline, read from a file in `directory`, does not
  /// hold, in their order.
  public func newFindings(in findings: [LintFinding], directory: String) -> [LintFinding] {
    var remaining: [Key: Int] = [:]
    for entry in self.entries { remaining[entry.key, default: 0] += 1 }
    var lines = SourceLines()
    let folder = FilePaths.standardized(directory)
    return findings.filter { finding in
      let key = Key(
        file: Self.relative(finding.file, to: folder), rule: finding.rule.rawValue,
        message: finding.message, source: lines.text(of: finding.file, line: finding.line))
      guard let count = remaining[key], count > 0 else { return true }
      remaining[key] = count - 1
      return false
    }
  }

  /// Reads the baseline at `path`.
  ///
  /// - Throws: ``LintBaselineError``, one line saying what is wrong.
  public static func load(file path: String) throws(LintBaselineError) -> LintBaseline {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw LintBaselineError(
        file: path,
        message: FileManager.default.fileExists(atPath: path)
          ? "cannot be read: check its permissions"
          : "does not exist: write one with --write-baseline")
    }
    let file: File
    do {
      file = try JSONDecoder().decode(File.self, from: data)
    } catch {
      throw LintBaselineError(
        file: path,
        message: "is not a tcatrace-lint baseline: write it again with --write-baseline")
    }
    guard file.version <= Self.version else {
      throw LintBaselineError(
        file: path,
        message:
          "is a version \(file.version) baseline, newer than this linter reads (\(Self.version)): update tcatrace"
      )
    }
    return LintBaseline(entries: file.findings)
  }

  init(entries: [Entry]) {
    self.entries = entries
  }

  /// The baseline as its file holds it: JSON, keys sorted, one finding a few lines.
  public var fileContents: Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // NB: Encoding strings and integers cannot fail.
    return (try? encoder.encode(File(version: Self.version, findings: self.entries))) ?? Data()
  }

  private struct File: Codable {
    var version: Int
    var findings: [Entry]
  }

  private static func relative(_ file: String, to folder: String) -> String {
    FilePaths.relative(FilePaths.standardized(file), to: folder)
  }
}

/// A baseline file the linter cannot use.
public struct LintBaselineError: Error, Equatable, Sendable, CustomStringConvertible {
  public var file: String
  public var message: String

  public var description: String { "'\(self.file)' \(self.message)" }
}

/// The lines of the files findings are in, each file read once.
private struct SourceLines {
  private var files: [String: [Substring]] = [:]

  mutating func text(of file: String, line: Int) -> String {
    if self.files[file] == nil {
      let text = FileManager.default.contents(atPath: file).map {
        String(decoding: $0, as: UTF8.self)
      }
      self.files[file] =
        text?.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) ?? []
    }
    guard let lines = self.files[file], line >= 1, line <= lines.count else { return "" }
    return lines[line - 1].trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
