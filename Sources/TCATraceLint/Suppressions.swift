import Foundation
import SwiftSyntax

/// The comments that silence findings, as SwiftLint's do, each naming the rules it silences:
///
/// ```swift
/// // tcatrace-lint:disable:next parent-reacts-to-private-child-action
/// case ._internal(.settings(.view(.onAppear))):            // the next line
/// case ._internal(.settings(.view)):  // tcatrace-lint:disable:this parent-reacts-to-private-child-action
///
/// // tcatrace-lint:disable effect-sends-view-action
/// …                                                          // every line up to the enable
/// // tcatrace-lint:enable effect-sends-view-action
/// ```
///
/// `// tcatrace:disable:next-line RULE`, the first spelling, is `disable:next`. A suppression
/// that silences nothing — its rule is not broken where it applies, it names no rule or an
/// unknown one, or it enables what was not disabled — is itself a finding
/// (``LintRule/unusedSuppression``), so that suppressions do not outlive their reason.
struct Suppressions {
  static let prefix = "tcatrace-lint:"
  static let firstSpelling = "tcatrace:disable:next-line"

  private enum Scope: Equatable {
    case next
    case this
    case region
    case enable
  }

  /// One rule one comment names.
  private struct Suppression {
    let rule: LintRule?
    let name: String
    let comment: String
    let line: Int
    let column: Int
    /// The lines it silences.
    var lines: ClosedRange<Int>
    var isUsed = false
  }

  private var suppressions: [Suppression] = []
  /// Comments that are not suppressions as written: they are reported.
  private var malformed: [(line: Int, column: Int, message: String)] = []

  init(tree: SourceFileSyntax, converter: SourceLocationConverter) {
    var openRegions: [LintRule: Int] = [:]
    for token in tree.tokens(viewMode: .sourceAccurate) {
      var position = token.position
      for piece in token.leadingTrivia {
        self.note(piece, at: position, converter: converter, regions: &openRegions)
        position += piece.sourceLength
      }
      position = token.endPositionBeforeTrailingTrivia
      for piece in token.trailingTrivia {
        self.note(piece, at: position, converter: converter, regions: &openRegions)
        position += piece.sourceLength
      }
    }
  }

  private mutating func note(
    _ piece: TriviaPiece, at position: AbsolutePosition, converter: SourceLocationConverter,
    regions: inout [LintRule: Int]
  ) {
    guard case let .lineComment(text) = piece else { return }
    let body = text.dropFirst(2).trimmingCharacters(in: .whitespaces)
    let word: Substring
    let rest: Substring
    if body.hasPrefix(Self.firstSpelling) {
      (word, rest) = ("disable:next", body.dropFirst(Self.firstSpelling.count))
    } else if body.hasPrefix(Self.prefix) {
      let directive = body.dropFirst(Self.prefix.count)
      word = directive.prefix { !$0.isWhitespace }
      rest = directive.dropFirst(word.count)
    } else {
      return
    }
    let location = converter.location(for: position)
    let scope: Scope
    switch word {
    case "disable:next": scope = .next
    case "disable:this": scope = .this
    case "disable": scope = .region
    case "enable": scope = .enable
    default:
      self.malformed.append(
        (
          location.line, location.column,
          "'// \(body)' is not a suppression: write tcatrace-lint:disable:next, "
            + "disable:this, disable or enable, and the rules"
        ))
      return
    }
    let names = rest.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    if names.isEmpty {
      self.malformed.append(
        (location.line, location.column, "'// \(body)' names no rule: name the rules it silences")
      )
      return
    }
    let line = location.line
    for name in names {
      let rule = LintRule(name: name).flatMap { $0 == .unusedSuppression ? nil : $0 }
      let lines: ClosedRange<Int>
      switch scope {
      case .next:
        lines = line + 1...line + 1
      case .this:
        lines = line...line
      case .region:
        if let rule { regions[rule] = self.suppressions.count }
        lines = line...Int.max
      case .enable:
        if let rule, let opened = regions.removeValue(forKey: rule) {
          self.suppressions[opened].lines = self.suppressions[opened].lines.lowerBound...line
          continue
        }
        self.malformed.append(
          (
            line, location.column,
            "'// \(body)' enables '\(name)', which no earlier tcatrace-lint:disable disabled"
          ))
        continue
      }
      self.suppressions.append(
        Suppression(
          rule: rule, name: name, comment: body, line: line, column: location.column,
          lines: lines)
      )
    }
  }

  /// Whether a suppression silences `rule` on `line`; each that does is marked used.
  mutating func silences(_ rule: LintRule, line: Int) -> Bool {
    var silenced = false
    for index in self.suppressions.indices
    where self.suppressions[index].rule == rule && self.suppressions[index].lines.contains(line) {
      self.suppressions[index].isUsed = true
      silenced = true
    }
    return silenced
  }

  /// The suppressions that silenced nothing, and the comments that are not suppressions, as
  /// findings; `rules`: the rules checked (a suppression of a rule not checked is not judged).
  func unused(file: String, rules: Set<LintRule>) -> [LintFinding] {
    guard rules.contains(.unusedSuppression) else { return [] }
    var findings = self.malformed.map {
      LintFinding(
        file: file, line: $0.line, column: $0.column, rule: .unusedSuppression,
        message: $0.message)
    }
    for suppression in self.suppressions where !suppression.isUsed {
      guard let rule = suppression.rule else {
        findings.append(
          LintFinding(
            file: file, line: suppression.line, column: suppression.column,
            rule: .unusedSuppression,
            message:
              "'// \(suppression.comment)' names no rule '\(suppression.name)'; the rules are "
              + LintRule.boundaryRules.map(\.rawValue).joined(separator: ", ")
          ))
        continue
      }
      guard rules.contains(rule) else { continue }
      findings.append(
        LintFinding(
          file: file, line: suppression.line, column: suppression.column,
          rule: .unusedSuppression,
          message:
            "'// \(suppression.comment)' silences no '\(rule.rawValue)' finding: remove it"
        ))
    }
    return findings
  }
}
