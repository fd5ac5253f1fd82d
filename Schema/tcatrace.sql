-- TCATrace trace file, schema version 9.
--
-- A trace file is a SQLite database in WAL mode that holds one or more recorded sessions of
-- a TCA-style app: every action the store processed, the state changes it caused, and the
-- boundary leaks it showed. The header identifies it: PRAGMA application_id = 1413693780
-- ('TCAT') and PRAGMA user_version = 9 (this schema's version). Readers refuse files with a
-- newer user_version. Version 1 had no `states` table and no `state_changes.rebuild`, version
-- 2 no `states.json`, version 3 no `actions.json_changes`, version 4 no `actions.at_once` and
-- `state_changes.shared`, version 5 no `sessions.trimmed_actions`, version 6 no
-- `actions.flight`, version 7 no `debugger_events` and no origin 'debugger', and version 8 no
-- `sessions.backlog_fallbacks`: a recorder that appends to an older file adds them; its older
-- sessions have no states (version 1), no states' JSON (version 2), their JSON only where a
-- whole state was kept (version 3), neither mark (version 4), none trimmed (version 5), no
-- action from a flight journal (version 6), nothing a debugger did (version 7), or no count of
-- fallbacks (version 8).
--
-- A column's CHECK compares it with each value it may hold (`kind = 'added' OR ...`), not with
-- a list (`kind IN (...)`): for a list of more than two values, SQLite builds a temporary
-- index at each row it writes, which cost a recorder most of its time writing an action.
-- Each CHECK is on one line, however long: SQLite quotes it in the error it gives.

-- One recording: one store, from its first action until the recorder closed.
CREATE TABLE sessions (
  -- The session's id, from 1.
  id INTEGER PRIMARY KEY,
  -- The name the recorder was given, or the root feature's name and the start time.
  name TEXT NOT NULL,
  -- The root feature's type name, e.g. 'AppFeature'; features below it are paths from it.
  root_feature TEXT NOT NULL,
  -- When recording started, wall clock, ISO 8601 in UTC with milliseconds.
  started_at TEXT NOT NULL,
  -- When the recorder closed, same format; NULL while recording, or if the process died.
  ended_at TEXT,
  -- Actions the recorder could not write (its buffer was full, or the file failed).
  dropped_actions INTEGER NOT NULL DEFAULT 0,
  -- The TCATrace version that wrote the session.
  recorder_version TEXT NOT NULL,
  -- Actions removed from the session's start (oldest first): by a recorder keeping the file
  -- within its size limit (`TraceRecorder(path:sizeLimit:)`) or before the last part of the
  -- session an export kept (`tcatrace export --format trace --last`). The actions left begin
  -- after them with the state before the first of them kept (see `states`).
  trimmed_actions INTEGER NOT NULL DEFAULT 0,
  -- Actions the store's thread analysed itself (at the app's cost) because the recorder's
  -- analysis backlog was at its bound: the app sent actions faster than the recorder's writer
  -- analysed them (Documentation/Performance.md: "The analysis backlog"). Counted over the
  -- session as recorded: an export of its last part keeps the count. NULL when not counted:
  -- while recording or if the process died or its file failed; when the store's thread
  -- analysed actions whatever the backlog held (with the leak policy reportIssue in a test or
  -- stopInDebug; for a state that may hold a @Shared value); in a session written before
  -- version 9.
  backlog_fallbacks INTEGER CHECK (backlog_fallbacks >= 0)
);

-- One row per action the store processed, in processing order.
CREATE TABLE actions (
  -- The action's row id: what state_changes and leaks refer to.
  id INTEGER PRIMARY KEY,
  -- The session the action belongs to.
  session_id INTEGER NOT NULL REFERENCES sessions (id),
  -- The action's number in its session, from 1, in processing order.
  seq INTEGER NOT NULL,
  -- When the reducer started, in nanoseconds since the session started (monotonic clock).
  time_ns INTEGER NOT NULL,
  -- Time spent in the reducer, in nanoseconds.
  duration_ns INTEGER NOT NULL,
  -- 'send': sent from outside the store (a view, a test); 'effect': sent by an effect;
  -- 'debugger': sent to the app from the page of `tcatrace serve --live` (Send to the app).
  origin TEXT NOT NULL CHECK (origin = 'send' OR origin = 'effect' OR origin = 'debugger'),
  -- For an effect's action: the seq of the action whose effect sent it; NULL otherwise.
  cause_seq INTEGER,
  -- The action's case path, dotted: '_internal.login._internal.twoFactor.view.codeChanged';
  -- an element's id is part of it: '_internal.todos._internal.rows[id: 3].view.toggleCompleted'.
  path TEXT NOT NULL,
  -- The category of the outermost case: 'view', 'internal', 'delegate' or 'unclassified'.
  root_category TEXT NOT NULL
    CHECK (root_category = 'view' OR root_category = 'internal' OR root_category = 'delegate' OR root_category = 'unclassified'),
  -- The feature that owns the action: the embedding cases from the root, dotted
  -- ('login.twoFactor', 'todos.rows[id: 3]'); '' for the root feature.
  feature TEXT NOT NULL,
  -- The action's category at the feature that owns it.
  category TEXT NOT NULL
    CHECK (category = 'view' OR category = 'internal' OR category = 'delegate' OR category = 'unclassified'),
  -- The innermost case's name: 'codeChanged'.
  case_name TEXT NOT NULL,
  -- The state path of the feature the store routed the action to ('login.twoFactor',
  -- 'todos.todos[id: 3]'); '' when the root handled it alone.
  state_path TEXT NOT NULL,
  -- The innermost case's associated value, rendered with CustomDump; NULL when it has none.
  payload TEXT,
  -- The whole action as JSON, when the action type is Encodable; NULL otherwise.
  payload_json TEXT,
  -- How the action changed the state's own JSON (see states.json), when the state is
  -- Encodable: a JSON array of operations applied in order, each ["s", path, value] (the
  -- value at path is now value: an object's member, added if missing, or an array's
  -- element), ["d", path] (the member or element is gone) or ["i", path, value] (value is
  -- inserted into an array at the path's last index); a path is an array of member names
  -- and element indices, and values are JSON as JSONEncoder writes it, redacted values read
  -- "<redacted>". '[]' when the JSON did not change; NULL when the state is not Encodable or
  -- its JSON could not be followed (its JSON after this action is then known only from the
  -- next state kept).
  json_changes TEXT,
  -- 1 for an effect's action that the store processed before it had finished processing its
  -- cause: an effect that sends at once, such as `.send`, whose action a `TestStore` has
  -- processed when the `send` (or `receive`) of the action that began the processing
  -- returns; NULL otherwise. Follow cause_seq while it is 1 to find that action.
  at_once INTEGER CHECK (at_once = 1),
  -- For an action of a process that ended before its recorder wrote it, copied from the
  -- recorder's flight journal by the next recorder that opened the file: 'ended_process'
  -- for the action whose reducer the process ended in, 'returned' for one whose reducer had
  -- returned; NULL for an action its recorder wrote. Such an action is its session's last,
  -- or comes after its last written one: its state changes, leaks and time in the reducer
  -- are not known (none, duration_ns 0), nor its state_path (''), nor, when the recorder
  -- redacted values, its payload (NULL).
  flight TEXT CHECK (flight IN ('returned', 'ended_process')),
  UNIQUE (session_id, seq)
);

-- For the CLI's filters: by category, and by feature prefix, within a session.
CREATE INDEX actions_by_category ON actions (session_id, category, seq);
CREATE INDEX actions_by_feature ON actions (session_id, feature, seq);

-- One row per changed leaf or collection element of the state, per action.
CREATE TABLE state_changes (
  -- The action that caused the change.
  action_id INTEGER NOT NULL REFERENCES actions (id),
  -- The change's order within its action, from 0.
  position INTEGER NOT NULL,
  -- The path from the root state: 'login.twoFactor.code', 'todos.todos[id: 3].isComplete'.
  path TEXT NOT NULL,
  -- 'changed'; 'added' or 'removed' for optionals and collection elements.
  kind TEXT NOT NULL CHECK (kind = 'changed' OR kind = 'added' OR kind = 'removed'),
  -- The old value, rendered with CustomDump; NULL when added.
  old_value TEXT,
  -- The new value, rendered with CustomDump; NULL when removed.
  new_value TEXT,
  -- What rebuilding the state needs besides new_value, as JSON: the new value's tree when its
  -- text does not say how it prints inside the state ("node"), an added element's index
  -- ("index") or printed key ("label"), a collection's new order ("order"); NULL when
  -- new_value is all it needs. See `states`.
  rebuild TEXT,
  -- When the changed value is, or is inside, a `@Shared` value, that value's path ('settings'
  -- for a change at 'settings.theme'; the innermost, when shared values hold others): a
  -- reference other features' states may hold too, whose change a `TestStore` sees when it is
  -- made. NULL when the value is not shared.
  shared TEXT,
  PRIMARY KEY (action_id, position)
) WITHOUT ROWID;

-- The whole state of a session at some of its steps, from which the state after any action
-- is rebuilt by applying the state changes of the actions after it: the state before the
-- first action (seq 0), and keyframes the recorder takes as often as the changes since the
-- last one add up to a quarter of the state's size in nodes. A session whose first actions
-- were trimmed (sessions.trimmed_actions) has none before the state after the last of them.
-- NB: A rowid table, unlike the small-rowed tables here: a WITHOUT ROWID table keeps copies
-- of whole rows in its inner pages, and finding one kept state read others' megabytes on the
-- way (seven times the pages of the state read). Files written before kept it so; both are
-- read and appended to alike.
CREATE TABLE states (
  session_id INTEGER NOT NULL REFERENCES sessions (id),
  -- The state after the action with this seq; 0 for the state before the first action.
  seq INTEGER NOT NULL,
  -- The state as CustomDump renders it, as a tree, in JSON: each node an array whose first
  -- element says what it is. ["t", text]: printed as it is; ["m", string, hashes]: a string
  -- of several lines; ["e", type, case]: an enum case without values; ["s", node]: an
  -- optional's value; ["c", kind, children]: a value with children, each [label, key, node]
  -- (label null for none; key: how a change's path names the child). kind: ["struct", type],
  -- ["tuple"], ["collection"], ["dictionary", sorted], ["set"] or ["enum", type, case].
  tree TEXT NOT NULL,
  -- The state's own JSON when its type is `Encodable` (JSONEncoder, keys sorted), with
  -- redacted values replaced by the string "<redacted>"; NULL when it is not, or does not
  -- encode. The JSON after a later action is this with actions.json_changes applied.
  json TEXT,
  PRIMARY KEY (session_id, seq)
);

-- What a debugger (the page of `tcatrace serve --live`) did to the app between two of its
-- actions, in the order it did it: took a recorded state, took back the state it had before,
-- locked it or unlocked it. The first action after a 'jump' or a 'back' keeps the state after
-- it whole (see `states`): its state changes are from the state taken.
CREATE TABLE debugger_events (
  session_id INTEGER NOT NULL REFERENCES sessions (id),
  -- The seq of the last action the store had processed; 0 before the first.
  after_seq INTEGER NOT NULL,
  -- When, in nanoseconds since the session started (monotonic clock).
  time_ns INTEGER NOT NULL,
  -- 'jump': the store took the state after action to_seq; 'back': the state it had before the
  -- first jump since the last 'back'; 'lock': the app's own actions are ignored from here;
  -- 'unlock': no longer.
  kind TEXT NOT NULL
    CHECK (kind = 'jump' OR kind = 'back' OR kind = 'lock' OR kind = 'unlock'),
  -- For 'jump': the action whose state the store took (0: the state before the first).
  to_seq INTEGER,
  -- For 'unlock': how many of the app's actions were ignored while it was locked.
  ignored_actions INTEGER
);

CREATE INDEX debugger_events_by_session ON debugger_events (session_id, after_seq);

-- One row per boundary rule an action broke.
CREATE TABLE leaks (
  -- The action that showed the leak.
  action_id INTEGER NOT NULL REFERENCES actions (id),
  -- The rule: 'parent-reacts-to-private-child-action', 'ancestor-reacts-to-grandchild-delegate',
  -- 'effect-sends-view-action' or 'view-sends-private-action'.
  rule TEXT NOT NULL,
  -- The feature that broke the rule, as in actions.feature ('' for the root).
  feature TEXT NOT NULL,
  -- What changed, or what was sent, in words.
  detail TEXT NOT NULL
);

CREATE INDEX leaks_by_action ON leaks (action_id);

-- Where each session `tcatrace merge` copied came from: a row per such session; a recorder
-- writes none. Traces written before the table was added to version 4 lack it; readers take
-- it as empty.
CREATE TABLE session_sources (
  -- The session in this file.
  session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
  -- The file it was recorded in, as merge was given it (a merged file's sessions keep the
  -- file they came from there).
  file TEXT NOT NULL,
  -- Its id in that file.
  original_id INTEGER NOT NULL
);

-- One row per action, readable: session and feature by name, time in milliseconds, the
-- number of state changes and the rules broken.
CREATE VIEW timeline AS
SELECT
  s.id AS session_id,
  s.name AS session,
  a.seq,
  round(a.time_ns / 1e6, 3) AS time_ms,
  round(a.duration_ns / 1e3, 1) AS duration_us,
  a.origin,
  a.cause_seq,
  a.category,
  CASE a.feature WHEN '' THEN s.root_feature ELSE a.feature END AS feature,
  a.case_name,
  a.path,
  a.payload,
  (SELECT count(*) FROM state_changes c WHERE c.action_id = a.id) AS changes,
  (SELECT group_concat(l.rule, ', ') FROM leaks l WHERE l.action_id = a.id) AS leaks
FROM actions a
JOIN sessions s ON s.id = a.session_id;

-- One row per session, rule and offending feature: how often, and where first.
CREATE VIEW leak_report AS
SELECT
  s.id AS session_id,
  s.name AS session,
  l.rule,
  CASE l.feature WHEN '' THEN s.root_feature ELSE l.feature END AS feature,
  count(*) AS occurrences,
  min(a.seq) AS first_seq,
  (
    SELECT l2.detail
    FROM leaks l2 JOIN actions a2 ON a2.id = l2.action_id
    WHERE a2.session_id = s.id AND l2.rule = l.rule AND l2.feature = l.feature
    ORDER BY a2.seq
    LIMIT 1
  ) AS first_detail
FROM leaks l
JOIN actions a ON a.id = l.action_id
JOIN sessions s ON s.id = a.session_id
GROUP BY s.id, l.rule, l.feature;
