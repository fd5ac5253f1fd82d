import CustomDump
import Foundation
import TestSupport
import Testing

/// `tcatrace` on a trace recorded with fixed times: whole outputs, and the file unchanged.
@Suite(.hangGuard)
struct SQLCommandTests {
  let trace: RecordedTrace

  init() async throws {
    self.trace = try await RecordedTrace()
  }

  @Test func sqlAsTable() async throws {
    let result = try await self.trace.run([
      "sql", "FILE",
      "SELECT feature, count(*) AS actions FROM actions WHERE session_id = 1 GROUP BY 1 ORDER BY 2 DESC, 1",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      feature               actions
      todos                 8
      login                 5
      login.twoFactor       4
      path[id: 0].settings  4
      todos.rows[id: 100]   2
                            1
      todos.rows[id: 1]     1

      """#
    )
  }

  @Test func sqlAsCSV() async throws {
    let result = try await self.trace.run([
      "sql", "FILE",
      "SELECT seq, payload FROM actions WHERE session_id = 1 AND seq IN (1, 22) ORDER BY seq",
      "--format", "csv",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      seq,payload
      1,"""blob@example.com"""
      22,".set(\.displayName, ""Blob"")"

      """#
    )
  }

  @Test func sqlAsJSON() async throws {
    let result = try await self.trace.run([
      "sql", "FILE",
      "SELECT seq, cause_seq, 1.5 AS x, NULL AS empty FROM actions WHERE session_id = 2 AND seq < 3",
      "--format", "json",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      [{"seq":1,"cause_seq":null,"x":1.5,"empty":null},{"seq":2,"cause_seq":1,"x":1.5,"empty":null}]

      """#
    )
  }

  @Test func sqlOnTheTimelineView() async throws {
    let result = try await self.trace.run([
      "sql", "FILE",
      "SELECT session, seq, category, feature, case_name, changes, leaks FROM timeline WHERE session_id = 2",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      #"""
      session  seq  category  feature             case_name            changes  leaks
      leaky    1    view      LeakyParentFeature  onAppear             0        NULL
      leaky    2    view      LeakyParentFeature  refreshButtonTapped  0        effect-sends-view-action
      leaky    3    internal  LeakyParentFeature  refreshed            1        NULL
      leaky    7    internal  LeakyParentFeature  refreshed            1        view-sends-private-action
      leaky    4    view      child               buttonTapped         2        parent-reacts-to-private-child-action
      leaky    5    view      child.grandchild    finishButtonTapped   1        NULL
      leaky    6    delegate  child.grandchild    didFinish            2        ancestor-reacts-to-grandchild-delegate

      """#
    )
  }
}
