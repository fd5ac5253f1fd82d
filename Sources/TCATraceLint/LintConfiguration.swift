import Foundation
import Yams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a `.tcatrace-lint.yml` says: which files are checked, which rules run and how each one
/// reports, and the baseline.
///
/// ```yaml
/// included:            # checked when the command line names no path
///   - Sources
/// excluded:            # never checked when found in a folder: a path, a folder or a glob
///   - Sources/Generated
///   - "*/Mocks/*"
/// rules:               # error, warning or off; a rule not named keeps its default
///   view-sends-private-action: warning
///   effect-sends-view-action: off
/// baseline: lint-baseline.json
/// ```
///
/// Paths are relative to the folder that holds the file.
public struct LintConfiguration: Equatable, Sendable {
  /// The name the linter looks for, from the working directory up.
  public static let fileName = ".tcatrace-lint.yml"

  /// The folder the paths are relative to (absolute, standardized).
  public var directory: String
  /// What is checked when the command line names no path.
  public var included: [String] = []
  /// What is not checked when it is found inside a folder being checked: a path (a file, or a
  /// folder and everything in it) or a glob (`*` also matches across `/`), relative to
  /// ``directory``. A file named on the command line is checked all the same.
  public var excluded: [String] = []
  /// The rules that run, and how each one's findings are reported; a rule not here is off.
  public var rules: [LintRule: LintSeverity]
  /// The baseline file, relative to ``directory``.
  public var baseline: String?
  /// The rules the file names by a former name (``LintRule/formerNames``), as it names them.
  public var formerRuleNames: [String] = []

  /// Every rule on, at its own severity, over `directory`.
  public init(directory: String = FileManager.default.currentDirectoryPath) {
    self.directory = FilePaths.standardized(directory)
    self.rules = Dictionary(uniqueKeysWithValues: LintRule.allCases.map { ($0, $0.severity) })
  }

  /// The nearest `.tcatrace-lint.yml` at or above `directory`, or `nil`.
  public static func find(
    from directory: String = FileManager.default.currentDirectoryPath
  ) -> String? {
    FilePaths.nearest(Self.fileName, atOrAbove: directory)
  }

  /// Reads the configuration file at `path`.
  ///
  /// - Throws: ``LintConfigurationError``, one line saying where the file is wrong.
  public static func load(file path: String) throws(LintConfigurationError) -> LintConfiguration {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw LintConfigurationError(
        file: path,
        message: FileManager.default.fileExists(atPath: path)
          ? "cannot be read: check its permissions" : "does not exist: give a configuration file")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw LintConfigurationError(file: path, message: "is not UTF-8 text")
    }
    let directory = URL(fileURLWithPath: FilePaths.standardized(path)).deletingLastPathComponent()
      .path
    return try Self.parse(yaml: text, file: path, directory: directory)
  }

  /// Reads a configuration from its text; `file` names it in errors, `directory` is the folder
  /// its paths are relative to.
  public static func parse(
    yaml: String, file: String, directory: String
  ) throws(LintConfigurationError) -> LintConfiguration {
    var configuration = LintConfiguration(directory: directory)
    let root: Node?
    do {
      root = try Yams.compose(yaml: yaml)
    } catch let error as YamlError {
      throw LintConfigurationError(file: file, yaml: error)
    } catch {
      throw LintConfigurationError(file: file, message: "is not YAML")
    }
    guard let root else { return configuration }
    guard let mapping = root.mapping else {
      throw LintConfigurationError(
        file: file, at: root.mark,
        message: "should be a mapping of included, excluded, rules, baseline")
    }
    for (key, value) in mapping {
      switch key.string {
      case "included":
        configuration.included = try Self.paths(value, key: "included", file: file)
      case "excluded":
        configuration.excluded = try Self.paths(value, key: "excluded", file: file)
      case "baseline":
        guard let path = value.scalar?.string, !path.isEmpty else {
          throw LintConfigurationError(
            file: file, at: value.mark, message: "'baseline' should be a file's path")
        }
        configuration.baseline = path
      case "rules":
        guard let rules = value.mapping else {
          throw LintConfigurationError(
            file: file, at: value.mark,
            message: "'rules' should map rule names to error, warning or off")
        }
        var named: [LintRule: String] = [:]
        for (name, setting) in rules {
          guard let rule = name.string.flatMap(LintRule.init(name:)) else {
            throw LintConfigurationError(
              file: file, at: name.mark,
              message:
                "no rule '\(name.string ?? "")'; the rules are "
                + LintRule.allCases.map(\.rawValue).joined(separator: ", "))
          }
          if let earlier = named[rule] {
            throw LintConfigurationError(
              file: file, at: name.mark,
              message:
                "'rules' names '\(rule.rawValue)' twice, as '\(earlier)' and '\(name.string ?? "")': keep one"
            )
          }
          named[rule] = name.string ?? ""
          if let name = name.string, name != rule.rawValue {
            configuration.formerRuleNames.append(name)
          }
          switch setting.scalar?.string {
          case "error": configuration.rules[rule] = .error
          case "warning": configuration.rules[rule] = .warning
          case "off": configuration.rules[rule] = nil
          default:
            throw LintConfigurationError(
              file: file, at: setting.mark,
              message: "'\(rule.rawValue)' should be error, warning or off")
          }
        }
      default:
        throw LintConfigurationError(
          file: file, at: key.mark,
          message:
            "unknown key '\(key.string ?? "")'; the keys are included, excluded, rules, baseline")
      }
    }
    return configuration
  }

  private static func paths(
    _ node: Node, key: String, file: String
  ) throws(LintConfigurationError) -> [String] {
    if let path = node.scalar?.string, !path.isEmpty { return [path] }
    guard let sequence = node.sequence else {
      throw LintConfigurationError(
        file: file, at: node.mark, message: "'\(key)' should be a list of paths")
    }
    var paths: [String] = []
    for element in sequence {
      guard let path = element.scalar?.string, !path.isEmpty else {
        throw LintConfigurationError(
          file: file, at: element.mark, message: "'\(key)' should be a list of paths")
      }
      paths.append(path)
    }
    return paths
  }

  /// `path` (relative to ``directory``, or absolute) as a path from the working directory: as
  /// written when the configuration's folder is the working directory.
  public func resolve(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let workingDirectory = FilePaths.standardized(FileManager.default.currentDirectoryPath)
    if self.directory == workingDirectory { return path }
    return URL(fileURLWithPath: self.directory, isDirectory: true).appendingPathComponent(path)
      .path
  }

  /// Whether ``excluded`` names the file or folder at `absolutePath` (standardized).
  func excludes(absolutePath: String) -> Bool {
    guard !self.excluded.isEmpty else { return false }
    let relative = FilePaths.relative(absolutePath, to: self.directory)
    for pattern in self.excluded {
      var pattern = pattern
      while pattern.count > 1, pattern.hasSuffix("/") { pattern.removeLast() }
      if pattern.hasPrefix("./") { pattern.removeFirst(2) }
      let candidate = pattern.hasPrefix("/") ? absolutePath : relative
      if candidate == pattern || candidate.hasPrefix(pattern + "/") { return true }
      if pattern.contains(where: { "*?[".contains($0) }), fnmatch(pattern, candidate, 0) == 0 {
        return true
      }
    }
    return false
  }

}

/// A configuration file the linter cannot use, and where.
public struct LintConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int?
  public var column: Int?
  public var message: String

  init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  init(file: String, at mark: Mark?, message: String) {
    self.init(file: file, line: mark?.line, column: mark?.column, message: message)
  }

  init(file: String, yaml error: YamlError) {
    switch error {
    case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _),
      let .composer(_, problem, mark, _):
      self.init(file: file, at: mark, message: "not valid YAML: \(problem)")
    default:
      let firstLine = String(describing: error).split(separator: "\n").first.map(String.init)
      self.init(file: file, message: "is not valid YAML: \(firstLine ?? "unreadable")")
    }
  }

  /// `'FILE' line L, column C: message`, one line.
  public var description: String {
    let place =
      switch (self.line, self.column) {
      case let (line?, column?): " line \(line), column \(column):"
      case let (line?, nil): " line \(line):"
      default: ""
      }
    return "'\(self.file)'\(place) \(self.message)"
  }
}
