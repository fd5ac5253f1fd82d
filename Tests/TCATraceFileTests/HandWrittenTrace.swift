import Foundation
@testable import TCATraceFile

/// A trace written in SQL, without the recorder: what the reader's tests read, so that they
/// build and run without the runtime. Its one session is a counter with a child:
///
/// | seq | action | category | feature | changes |
/// |---|---|---|---|---|
/// | 1 | `view.incrementTapped` (sent) | view | root | `count` 0 → 1 |
/// | 2 | `_internal.child._internal.loaded("hello")` (by #1's effect) | internal | `child` | `child.title` "" → "hello" |
/// | 3 | `view.resetTapped` (sent) | view | root | `count` 1 → 0; a leak |
///
/// The state is kept before the first action only: every later state is rebuilt from it.
enum HandWrittenTrace {
  static func write(to path: String) throws {
    let connection = try TraceFile.openForWriting(path: path)
    try connection.execute(
      #"""
      BEGIN;
      INSERT INTO sessions
        (id, name, root_feature, started_at, ended_at, dropped_actions, recorder_version)
      VALUES
        (1, 'counter', 'CounterFeature', '2026-11-28T10:00:00.000Z', '2026-11-28T10:00:01.000Z',
         0, '0.1.0');
      INSERT INTO actions
        (id, session_id, seq, time_ns, duration_ns, origin, cause_seq, path, root_category,
         feature, category, case_name, state_path, payload)
      VALUES
        (1, 1, 1, 1000, 10, 'send', NULL, 'view.incrementTapped', 'view', '', 'view',
         'incrementTapped', '', NULL),
        (2, 1, 2, 2000, 20, 'effect', 1, '_internal.child._internal.loaded', 'internal', 'child',
         'internal', 'loaded', 'child', '"hello"'),
        (3, 1, 3, 3000, 30, 'send', NULL, 'view.resetTapped', 'view', '', 'view', 'resetTapped',
         '', NULL);
      INSERT INTO state_changes (action_id, position, path, kind, old_value, new_value) VALUES
        (1, 0, 'count', 'changed', '0', '1'),
        (2, 0, 'child.title', 'changed', '""', '"hello"'),
        (3, 0, 'count', 'changed', '1', '0');
      INSERT INTO states (session_id, seq, tree) VALUES
        (1, 0, '["c",["struct","CounterFeature.State"],[["count","count",["t","0"]],["child","child",["c",["struct","ChildFeature.State"],[["title","title",["t","\"\""]]]]]]]');
      INSERT INTO leaks VALUES
        (3, 'parent-reacts-to-private-child-action', '', 'changed count in response to an internal action of child');
      COMMIT;
      """#
    )
  }

  /// A trace without sessions, as a recorder leaves one that recorded nothing.
  static func writeEmpty(to path: String) throws {
    _ = try TraceFile.openForWriting(path: path)
  }

  /// A second session after the first: a counter of its own with two actions, the second sent
  /// by the first's effect.
  static func appendSecondSession(to path: String) throws {
    let connection = try TraceFile.openForWriting(path: path)
    try connection.execute(
      #"""
      BEGIN;
      INSERT INTO sessions
        (id, name, root_feature, started_at, ended_at, dropped_actions, recorder_version)
      VALUES
        (2, 'again', 'CounterFeature', '2026-11-28T10:01:00.000Z', '2026-11-28T10:01:01.000Z',
         0, '0.1.0');
      INSERT INTO actions
        (id, session_id, seq, time_ns, duration_ns, origin, cause_seq, path, root_category,
         feature, category, case_name, state_path, payload)
      VALUES
        (4, 2, 1, 1000, 10, 'send', NULL, 'view.incrementTapped', 'view', '', 'view',
         'incrementTapped', '', NULL),
        (5, 2, 2, 2000, 20, 'effect', 1, '_internal.child._internal.loaded', 'internal', 'child',
         'internal', 'loaded', 'child', '"again"');
      INSERT INTO states (session_id, seq, tree) VALUES
        (2, 0, '["c",["struct","CounterFeature.State"],[["count","count",["t","0"]]]]');
      COMMIT;
      """#
    )
  }
}
