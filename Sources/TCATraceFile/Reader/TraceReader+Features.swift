/// A boundary rule broken in a session, by the feature that broke it and the feature whose
/// action it was: what `tcatrace serve`'s feature map draws as a reach.
package struct LeakReachRow: Equatable, Sendable {
  /// The rule, as the file names it.
  package var rule: String
  /// The feature that broke the rule, as the leak names it.
  package var leakFeature: String
  /// The feature of the action that broke it.
  package var actionFeature: String
  package var count: Int64
  /// The seq of the first action that broke it so.
  package var firstSeq: Int64
}

extension TraceReader {
  /// Each session's root feature, by session id; a session whose id or root feature a
  /// damaged or edited file holds as something else is left out.
  ///
  /// NB: Not ``sessions()``, which counts each session's actions: a scan of the file.
  package func rootFeatures() throws(TraceFileError) -> [Int64: String] {
    let statement = try self.connection.prepare(
      "SELECT id, root_feature FROM sessions WHERE typeof(id) = 'integer' AND typeof(root_feature) = 'text'"
    )
    var roots: [Int64: String] = [:]
    while try statement.step() {
      roots[try statement.integer(0)] = try statement.string(1)
    }
    return roots
  }

  /// The seq and case path of each action that the effects of action `seq` of `session`
  /// sent, however late, by seq.
  package func actionsCaused(
    session: Int64, seq: Int
  ) throws(TraceFileError) -> [(seq: Int64, path: String)] {
    let statement = try self.connection.prepare(
      "SELECT seq, path FROM actions WHERE session_id = ?1 AND cause_seq = ?2 ORDER BY seq"
    )
    statement.bind(1, session)
    statement.bind(2, Int64(seq))
    var caused: [(seq: Int64, path: String)] = []
    while try statement.step() {
      caused.append((try statement.integer(0), try statement.string(1)))
    }
    return caused
  }

  /// How many actions of `session` each feature has, by the feature as the actions name it.
  package func actionCountsByFeature(
    session: Int64
  ) throws(TraceFileError) -> [(feature: String, count: Int64)] {
    let statement = try self.connection.prepare(
      "SELECT feature, count(*) FROM actions WHERE session_id = ?1 GROUP BY feature"
    )
    statement.bind(1, session)
    var counts: [(feature: String, count: Int64)] = []
    while try statement.step() {
      counts.append((try statement.string(0), try statement.integer(1)))
    }
    return counts
  }

  /// The leaks of `session`, grouped by rule, the feature that broke it and the feature whose
  /// action it was.
  package func leakReaches(session: Int64) throws(TraceFileError) -> [LeakReachRow] {
    let statement = try self.connection.prepare(
      """
      SELECT l.rule, l.feature, a.feature, count(*), min(a.seq) FROM leaks l
      JOIN actions a ON a.id = l.action_id WHERE a.session_id = ?1
      GROUP BY l.rule, l.feature, a.feature
      """
    )
    statement.bind(1, session)
    var reaches: [LeakReachRow] = []
    while try statement.step() {
      reaches.append(
        LeakReachRow(
          rule: try statement.string(0), leakFeature: try statement.string(1),
          actionFeature: try statement.string(2), count: try statement.integer(3),
          firstSeq: try statement.integer(4)))
    }
    return reaches
  }
}
