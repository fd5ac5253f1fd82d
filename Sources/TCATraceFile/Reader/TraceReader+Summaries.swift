/// A boundary rule broken by one feature in one session: how often, and where first.
public struct LeakSummary: Equatable, Sendable {
  public var sessionID: Int64
  public var rule: LeakRule
  /// The feature's path; empty for the root.
  public var feature: String
  public var count: Int
  /// The seq of the first action that broke the rule.
  public var firstSeq: Int
  /// What the first occurrence did.
  public var firstDetail: String

  public init(
    sessionID: Int64, rule: LeakRule, feature: String, count: Int, firstSeq: Int,
    firstDetail: String
  ) {
    self.sessionID = sessionID
    self.rule = rule
    self.feature = feature
    self.count = count
    self.firstSeq = firstSeq
    self.firstDetail = firstDetail
  }
}

/// The actions of one feature in one category: how many, how long their reducer ran, and
/// which cases were most frequent.
public struct FeatureStatistics: Equatable, Sendable {
  /// The feature's path; the root feature is named by its type: `AppFeature`.
  public var feature: String
  public var category: ActionCategory
  public var count: Int
  /// This group's share of all the actions counted, from 0 to 1.
  public var share: Double
  /// Mean time in the reducer, in nanoseconds.
  public var meanDurationNs: Double
  /// The 95th percentile of the time in the reducer, in nanoseconds (nearest rank).
  public var p95DurationNs: Int64
  /// The most frequent cases, most frequent first (ties by name), at most three.
  public var topCases: [CaseCount]

  public struct CaseCount: Equatable, Sendable {
    public var name: String
    public var count: Int

    public init(name: String, count: Int) {
      self.name = name
      self.count = count
    }
  }

  public init(
    feature: String, category: ActionCategory, count: Int, share: Double,
    meanDurationNs: Double, p95DurationNs: Int64, topCases: [CaseCount]
  ) {
    self.feature = feature
    self.category = category
    self.count = count
    self.share = share
    self.meanDurationNs = meanDurationNs
    self.p95DurationNs = p95DurationNs
    self.topCases = topCases
  }
}

extension TraceReader {
  /// The session with `id`.
  ///
  /// - Throws: `TraceFileError` (`.notInFile`) when the file has no such session.
  public func session(id: Int64) throws(TraceFileError) -> TraceSession {
    guard let session = try self.sessions(where: "s.id = ?1", [.integer(id)]).first else {
      throw TraceFileError(noSession: id, path: self.path)
    }
    return session
  }

  /// The most recent session.
  ///
  /// - Throws: `TraceFileError` (`.notInFile`) when the file holds no session yet.
  public func latestSession() throws(TraceFileError) -> TraceSession {
    guard let session = try self.sessions(where: "s.id = (SELECT max(id) FROM sessions)").first
    else {
      throw TraceFileError(
        kind: .notInFile, path: self.path,
        message: "holds no session yet: record one first"
      )
    }
    return session
  }

  /// The id of the session with `id` (the latest one when `nil`) and the seq of its last
  /// action whose state after it is known (0 for none; not one copied from a flight journal),
  /// without the counts ``session(id:)`` makes in a pass over the
  /// session's actions: what a command that reads one step of a long session needs.
  ///
  /// - Throws: `TraceFileError` (`.notInFile`) as ``session(id:)`` and ``latestSession()`` do.
  package func sessionExtent(id: Int64?) throws(TraceFileError) -> (id: Int64, lastSeq: Int) {
    let statement = try self.connection.prepare(
      """
      SELECT s.id, coalesce((SELECT max(a.seq) FROM actions a
        WHERE a.session_id = s.id\(try self.writtenOnly("a."))), 0)
      FROM sessions s
      WHERE s.id = coalesce(?1, (SELECT max(id) FROM sessions))
      """
    )
    statement.bind([id.map { .integer($0) } ?? .null])
    guard try statement.step() else {
      throw id.map { TraceFileError(noSession: $0, path: self.path) }
        ?? TraceFileError(
          kind: .notInFile, path: self.path, message: "holds no session yet: record one first")
    }
    return (try statement.integer(0), Int(clamping: try statement.integer(1)))
  }

  /// The leaks of `session` (default: every session), grouped by session, rule and feature,
  /// in the order they first happened.
  public func leakSummaries(session: Int64? = nil) throws(TraceFileError) -> [LeakSummary] {
    // NB: A leak of an action the file does not hold (a text action id, say) would drop out of
    // an inner join, and a file with leaks would report none: the join is a left one, and such
    // leaks make a group of their own, with no session, which this query reads in the same pass
    // as the rest (a query of its own read the actions' pages twice).
    let statement = try self.connection.prepare(
      """
      SELECT a.session_id, l.rule, l.feature, count(*), min(a.seq),
        (SELECT l2.detail FROM leaks l2 JOIN actions a2 ON a2.id = l2.action_id
         WHERE a2.session_id = a.session_id AND l2.rule = l.rule AND l2.feature = l.feature
         ORDER BY a2.seq, l2.rowid LIMIT 1),
        count(*) - count(a.id)
      FROM leaks l LEFT JOIN actions a ON a.id = l.action_id
      WHERE ?1 IS NULL OR a.session_id = ?1 OR a.id IS NULL
      GROUP BY a.session_id, l.rule, l.feature
      ORDER BY a.session_id, min(a.seq), l.rule
      """
    )
    statement.bind([session.map { .integer($0) } ?? .null])
    var summaries: [LeakSummary] = []
    var orphans: Int64 = 0
    while try statement.step() {
      guard let sessionID = try statement.optionalInteger(0) else {
        let missing = try statement.integer(6)
        // NB: An action whose session is NULL: reading it as an integer throws what it is.
        if missing == 0 { _ = try statement.integer(0) }
        orphans += missing
        continue
      }
      summaries.append(
        LeakSummary(
          sessionID: sessionID, rule: try self.rule(statement.optionalString(1)),
          feature: try statement.string(2),
          count: Int(clamping: try statement.integer(3)),
          firstSeq: Int(clamping: try statement.integer(4)),
          firstDetail: try statement.optionalString(5) ?? ""
        )
      )
    }
    guard orphans == 0 else {
      throw TraceFileError(
        kind: .corrupt, path: self.path,
        message: "holds \(orphans) leak\(orphans == 1 ? "" : "s") of actions it does not have"
      )
    }
    return summaries
  }

  /// Per feature and category: action count, share, mean and 95th-percentile reducer time, and
  /// the most frequent cases; for `session` (default: every session); of the actions recorders
  /// wrote (not those copied from a flight journal, whose time in the reducer is not known). Ordered by count, most
  /// first, then by feature and category.
  public func featureStatistics(session: Int64? = nil) throws(TraceFileError) -> [FeatureStatistics]
  {
    let statement = try self.connection.prepare(
      """
      SELECT CASE a.feature WHEN '' THEN s.root_feature ELSE a.feature END, a.category,
        a.case_name, a.duration_ns
      FROM actions a JOIN sessions s ON s.id = a.session_id
      WHERE (?1 IS NULL OR a.session_id = ?1)\(try self.writtenOnly("a."))
      """
    )
    statement.bind([session.map { .integer($0) } ?? .null])
    struct Group {
      var durations: [Int64] = []
      var cases: [String: Int] = [:]
    }
    var groups: [GroupKey: Group] = [:]
    var total = 0
    while try statement.step() {
      let key = GroupKey(
        feature: try statement.string(0), category: try self.category(statement.optionalString(1)))
      groups[key, default: Group()].durations.append(try statement.integer(3))
      groups[key, default: Group()].cases[try statement.string(2), default: 0] += 1
      total += 1
    }
    return groups.map { key, group in
      let durations = group.durations.sorted()
      let rank = max(0, Int((0.95 * Double(durations.count)).rounded(.up)) - 1)
      return FeatureStatistics(
        feature: key.feature,
        category: key.category,
        count: durations.count,
        share: Double(durations.count) / Double(max(total, 1)),
        // NB: Summed as doubles: durations read from a file may add up past `Int64.max`.
        meanDurationNs: durations.reduce(0.0) { $0 + Double($1) } / Double(durations.count),
        p95DurationNs: durations[rank],
        topCases: group.cases
          .sorted { ($0.value, $1.key) > ($1.value, $0.key) }
          .prefix(3)
          .map { FeatureStatistics.CaseCount(name: $0.key, count: $0.value) }
      )
    }
    .sorted {
      ($1.count, $0.feature, $0.category.rawValue) < ($0.count, $1.feature, $1.category.rawValue)
    }
  }
}

private struct GroupKey: Hashable {
  package var feature: String
  package var category: ActionCategory
}
