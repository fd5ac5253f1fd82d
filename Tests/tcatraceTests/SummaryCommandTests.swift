import CustomDump
import Foundation
import TestSupport
import Testing

/// `tcatrace` on a trace recorded with fixed times: whole outputs, and the file unchanged.
@Suite(.hangGuard)
struct SummaryCommandTests {
  let trace: RecordedTrace

  init() async throws {
    self.trace = try await RecordedTrace()
  }

  @Test func sessionsAsText() async throws {
    let result = try await self.trace.run(["sessions", "FILE"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      ID  NAME   ROOT                STARTED                   DURATION  ACTIONS  LEAKS
       1  app    AppFeature          2026-01-01T00:00:00.000Z  24.026ms       25      0
       2  leaky  LeakyParentFeature  2026-01-01T00:00:00.000Z   6.010ms        7      4

      """#
    )
  }

  /// Issue #75: a session whose store's thread analysed actions itself, the backlog at its
  /// bound, shows how many; one whose recorder did not count them, '-'.
  @Test func sessionsShowTheirFallbacks() async throws {
    let path = try self.trace.copy(
      named: "fell-back.db",
      changedBy: """
        UPDATE sessions SET backlog_fallbacks = 976 WHERE id = 1;
        UPDATE sessions SET backlog_fallbacks = NULL WHERE id = 2;
        """)
    let result = try await Product.tcatrace.run(["sessions", path])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      ID  NAME   ROOT                STARTED                   DURATION  ACTIONS  LEAKS  FALLBACKS
       1  app    AppFeature          2026-01-01T00:00:00.000Z  24.026ms       25      0        976
       2  leaky  LeakyParentFeature  2026-01-01T00:00:00.000Z   6.010ms        7      4          -

      """#
    )
    let json = try await Product.tcatrace.run(["sessions", path, "--format", "jsonl"])
    #expect(
      json.stdout.split(separator: "\n").map { $0.contains(#""backlog_fallbacks":976,"#) }
        == [true, false])
    #expect(
      json.stdout.split(separator: "\n").last?.contains(#""backlog_fallbacks":null,"#) == true)
  }

  @Test func sessionsAsJSON() async throws {
    let result = try await self.trace.run(["sessions", "FILE", "--format", "json"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      [{"id":1,"name":"app","root_feature":"AppFeature","started_at":"2026-01-01T00:00:00.000Z","ended_at":"2026-01-01T00:00:00.000Z","duration_ns":24026000,"actions":25,"leaks":0,"dropped_actions":0,"trimmed_actions":0,"backlog_fallbacks":0,"recorder_version":"0.1.0","source":null,"flight":null},{"id":2,"name":"leaky","root_feature":"LeakyParentFeature","started_at":"2026-01-01T00:00:00.000Z","ended_at":"2026-01-01T00:00:00.000Z","duration_ns":6010000,"actions":7,"leaks":4,"dropped_actions":0,"trimmed_actions":0,"backlog_fallbacks":0,"recorder_version":"0.1.0","source":null,"flight":null}]

      """#
    )
  }

  @Test func leaksAsTextExitWith1() async throws {
    let result = try await self.trace.run(["leaks", "FILE"])
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      SESSION  RULE                                    FEATURE             COUNT  FIRST  DETAIL
            2  effect-sends-view-action                LeakyParentFeature      1     #2  view action refreshButtonTapped of LeakyParentFeature was sent by an effect of action #1; only the view sends view actions
            2  parent-reacts-to-private-child-action   LeakyParentFeature      1     #4  changed childButtonTaps in response to view action buttonTapped of child
            2  ancestor-reacts-to-grandchild-delegate  LeakyParentFeature      1     #6  changed grandchildFinished in response to delegate action didFinish of child.grandchild, which only child may react to
            2  view-sends-private-action               LeakyParentFeature      1     #7  internal action refreshed of LeakyParentFeature was sent from outside the store; only its reducer and effects send internal actions
      4 leaks in 1 session.

      """#
    )
  }

  @Test func leaksAsJSONLines() async throws {
    let result = try await self.trace.run(["leaks", "FILE", "--format", "jsonl"])
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      {"session":2,"rule":"effect-sends-view-action","feature":"","count":1,"first_seq":2,"first_detail":"view action refreshButtonTapped of LeakyParentFeature was sent by an effect of action #1; only the view sends view actions"}
      {"session":2,"rule":"parent-reacts-to-private-child-action","feature":"","count":1,"first_seq":4,"first_detail":"changed childButtonTaps in response to view action buttonTapped of child"}
      {"session":2,"rule":"ancestor-reacts-to-grandchild-delegate","feature":"","count":1,"first_seq":6,"first_detail":"changed grandchildFinished in response to delegate action didFinish of child.grandchild, which only child may react to"}
      {"session":2,"rule":"view-sends-private-action","feature":"","count":1,"first_seq":7,"first_detail":"internal action refreshed of LeakyParentFeature was sent from outside the store; only its reducer and effects send internal actions"}

      """#
    )
  }

  @Test func noLeaksExitWith0() async throws {
    let result = try await self.trace.run(["leaks", "FILE", "--session", "1"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      No leaks.

      """#
    )
  }

  @Test func statsOfOneSession() async throws {
    let result = try await self.trace.run(["stats", "FILE", "--session", "1"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      FEATURE               CATEGORY  ACTIONS  SHARE    MEAN     P95  TOP CASES
      todos                 view            5  20.0%  20.4µs  41.0µs  addTodoButtonTapped ×1, alert ×1, clearCompletedButtonTapped ×1
      login                 view            3  12.0%  25.0µs  38.0µs  emailChanged ×1, loginButtonTapped ×1, passwordChanged ×1
      path[id: 0].settings  view            3  12.0%  18.7µs  39.0µs  binding ×2, saveButtonTapped ×1
      todos                 internal        3  12.0%  28.3µs  45.0µs  timerTicked ×2, todosLoaded ×1
      login.twoFactor       view            2   8.0%  29.5µs  36.0µs  codeChanged ×1, submitButtonTapped ×1
      AppFeature            view            1   4.0%  28.0µs  28.0µs  settingsButtonTapped ×1
      login                 delegate        1   4.0%  34.0µs  34.0µs  didLogin ×1
      login                 internal        1   4.0%  49.0µs  49.0µs  loginResponse ×1
      login.twoFactor       delegate        1   4.0%  47.0µs  47.0µs  didVerify ×1
      login.twoFactor       internal        1   4.0%  10.0µs  10.0µs  verifyResponse ×1
      path[id: 0].settings  delegate        1   4.0%  26.0µs  26.0µs  didSave ×1
      todos.rows[id: 100]   delegate        1   4.0%  43.0µs  43.0µs  completionChanged ×1
      todos.rows[id: 100]   view            1   4.0%   6.0µs   6.0µs  toggleCompleted ×1
      todos.rows[id: 1]     view            1   4.0%  30.0µs  30.0µs  titleChanged ×1

      """#
    )
  }

  @Test func statsAsJSON() async throws {
    let result = try await self.trace.run(["stats", "FILE", "--session", "2", "--format", "json"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      [{"feature":"LeakyParentFeature","category":"internal","actions":2,"share":0.2857142857142857,"mean_duration_ns":11000.0,"p95_duration_ns":12000,"top_cases":[{"case":"refreshed","count":2}]},{"feature":"LeakyParentFeature","category":"view","actions":2,"share":0.2857142857142857,"mean_duration_ns":31500.0,"p95_duration_ns":38000,"top_cases":[{"case":"onAppear","count":1},{"case":"refreshButtonTapped","count":1}]},{"feature":"child","category":"view","actions":1,"share":0.14285714285714285,"mean_duration_ns":49000.0,"p95_duration_ns":49000,"top_cases":[{"case":"buttonTapped","count":1}]},{"feature":"child.grandchild","category":"delegate","actions":1,"share":0.14285714285714285,"mean_duration_ns":23000.0,"p95_duration_ns":23000,"top_cases":[{"case":"didFinish","count":1}]},{"feature":"child.grandchild","category":"view","actions":1,"share":0.14285714285714285,"mean_duration_ns":36000.0,"p95_duration_ns":36000,"top_cases":[{"case":"finishButtonTapped","count":1}]}]

      """#
    )
  }
}
