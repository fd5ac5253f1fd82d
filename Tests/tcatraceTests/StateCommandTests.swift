import CustomDump
import Foundation
import TestSupport
import Testing

/// Issue #18: `tcatrace state` prints the whole state after any action, or a value in it; bad
/// input gets one line and exit 2.
@Suite(.hangGuard)
struct StateCommandTests {
  let trace: RecordedTrace

  init() async throws {
    self.trace = try await RecordedTrace()
  }

  @Test func theStateBeforeTheFirstAction() async throws {
    let result = try await self.trace.run(["state", "FILE", "--session", "1", "--at", "0"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      """
      AppFeature.State(
        login: LoginFeature.State(
          email: "",
          password: <redacted>,
          isLoading: false,
          errorMessage: nil,
          twoFactor: nil
        ),
        todos: TodosFeature.State(
          todos: [],
          isLoading: false,
          secondsOnScreen: 0,
          nextID: 100,
          alert: nil
        ),
        path: [:],
        user: nil,
        notificationsEnabled: false
      )

      """
    )
  }

  @Test func aValueAtAStepAndTheLastStepByDefault() async throws {
    let login = try await self.trace.run([
      "state", "FILE", "--session", "1", "--at", "2", "--path", "login",
    ])
    #expect(login.status == 0)
    expectNoDifference(
      login.stdout,
      """
      LoginFeature.State(
        email: "blob@example.com",
        password: <redacted>,
        isLoading: false,
        errorMessage: nil,
        twoFactor: nil
      )

      """
    )
    let row = try await self.trace.run([
      "state", "FILE", "--session", "1", "--at", "14", "--path", "todos.todos[id: 100].title",
    ])
    #expect(row.stdout == "\"Record a trace\"\n")
    // Without --at: after the session's last action; without --session: the latest session.
    let last = try await self.trace.run(["state", "FILE", "--session", "1", "--path", "path"])
    let explicit = try await self.trace.run([
      "state", "FILE", "--session", "1", "--at", "25", "--path", "path",
    ])
    #expect(last.status == 0)
    #expect(last.stdout == explicit.stdout)
    let latest = try await self.trace.run(["state", "FILE", "--path", "refreshCount"])
    #expect(latest.stdout == "2\n")
  }

  @Test func json() async throws {
    let result = try await self.trace.run([
      "state", "FILE", "--session", "1", "--at", "2", "--path", "login.email", "--format", "json",
    ])
    #expect(result.status == 0)
    #expect(
      result.stdout
        == #"[{"session":1,"after":2,"path":"login.email","rendered":"\"blob@example.com\"","tree":{"text":"\"blob@example.com\""},"json":null}]"#
        + "\n"
    )
  }
  /// Where the state is `Encodable`, `json` holds its own JSON as a string, escaped as JSON
  /// escapes it: at a kept step as it was kept, and after any other action rebuilt from it;
  /// with `--path`, null.
  @Test func theStatesOwnJSON() async throws {
    let path = try self.trace.copy(
      named: "encodable.db",
      changedBy:
        #"UPDATE states SET json = '{"email":"blob' || char(27) || '"}' WHERE session_id = 1 AND seq = 0;"#
    )
    let kept = try await self.trace.run([
      "state", path, "--session", "1", "--at", "0", "--format", "json",
    ])
    #expect(kept.status == 0)
    #expect(kept.stdout.hasSuffix(#","json":"{\"email\":\"blob\u001b\"}"}]"# + "\n"))
    let between = try await self.trace.run([
      "state", "FILE", "--session", "1", "--at", "2", "--format", "json",
    ])
    #expect(between.status == 0)
    let output =
      try JSONSerialization.jsonObject(with: Data(between.stdout.utf8)) as? [[String: Any]]
    let json = try #require(output?.first?["json"] as? String)
    let state = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    #expect((state?["login"] as? [String: Any])?["email"] as? String == "blob@example.com")
    let atAPath = try await self.trace.run([
      "state", path, "--session", "1", "--at", "0", "--path", "login", "--format", "json",
    ])
    #expect(atAPath.stdout.hasSuffix(#","json":null}]"# + "\n"))
  }

  /// Changes to the state's JSON that do not apply to it (a damaged or edited file) are one
  /// line and exit 2, naming the action; the text form, which does not read them, still works.
  @Test func changesToTheJSONThatDoNotApply() async throws {
    for (name, sql) in [
      (
        "missing.db",
        #"UPDATE actions SET json_changes = '[["s",["nowhere","deeper"],1]]' WHERE session_id = 1 AND seq = 1;"#
      ),
      (
        "garbled.db",
        #"UPDATE actions SET json_changes = '[["s",["login"' WHERE session_id = 1 AND seq = 1;"#
      ),
    ] {
      let path = try self.trace.copy(named: name, changedBy: sql)
      let result = try await self.trace.run([
        "state", path, "--session", "1", "--at", "2", "--format", "json",
      ])
      #expect(result.status == 2)
      #expect(result.stdout == "")
      #expect(
        result.stderr.hasPrefix(
          "Error: '\(path)' holds a change to the state's JSON at action #1 of session 1 that "))
      #expect(result.stderr.filter { $0 == "\n" }.count == 1)
      let text = try await self.trace.run(["state", path, "--session", "1", "--at", "2"])
      #expect(text.status == 0)
    }
  }

  /// A kept JSON nested a hundred thousand levels deep is read only as deep as the changes
  /// reach, without recursion: balanced, the change applies; cut off, it is one line and exit 2.
  @Test func aDeeplyNestedJSONIsReadWithoutRecursion() async throws {
    let depth = 100_000
    let balanced = try self.trace.copy(
      named: "deep.db",
      changedBy: """
        UPDATE states SET json = '[' || replace(hex(zeroblob(\(depth / 2 - 1))), '00', '[') || replace(hex(zeroblob(\(depth / 2))), '00', ']')
        WHERE session_id = 1 AND seq = 0;
        UPDATE actions SET json_changes = '[["i",[0,0,0],7]]' WHERE session_id = 1 AND seq = 1;
        """
    )
    let applied = try await self.trace.run([
      "state", balanced, "--session", "1", "--at", "1", "--format", "json",
    ])
    #expect(applied.status == 0)
    #expect(applied.stdout.contains(#""json":"[[[7,[[["#))
    let cut = try self.trace.copy(
      named: "cut.db",
      changedBy: """
        UPDATE states SET json = replace(hex(zeroblob(\(depth / 2))), '00', '[') WHERE session_id = 1 AND seq = 0;
        UPDATE actions SET json_changes = '[["i",[0,0,0],7]]' WHERE session_id = 1 AND seq = 1;
        """
    )
    let refused = try await self.trace.run([
      "state", cut, "--session", "1", "--at", "1", "--format", "json",
    ])
    #expect(refused.status == 2)
    #expect(
      refused.stderr.hasSuffix(
        "holds a change to the state's JSON at action #1 of session 1 that is not JSON: the file is damaged (truncated or overwritten); record it again\n"
      ))
  }

  @Test func badInputIsOneLineAndExit2() async throws {
    let cases: [([String], String)] = [
      (
        ["--session", "1", "--at", "99"],
        "Error: 'demo.db' has no action #99 in session 1, which has 25 actions: ask for 0 (the state before the first) to 25\n"
      ),
      (
        ["--session", "1", "--path", "login.nope"],
        "Error: 'login.nope' is not a path in the state after action #25 of session 1: paths name properties with dots and elements in brackets, as in 'login.email' or 'todos[id: 3]'; 'tcatrace state' without --path shows the whole state\n"
      ),
      (
        ["--session", "9"],
        "Error: 'demo.db' has no session 9: 'tcatrace sessions demo.db' lists them\n"
      ),
      (
        ["--session", "all"],
        "Error: --session takes one session: its id, or 'latest'; see 'tcatrace state --help'.\n"
      ),
      (
        ["--at=-1"],
        "Error: --at is a seq, 0 or more (0: the state before the first action); see 'tcatrace state --help'.\n"
      ),
    ]
    for (arguments, message) in cases {
      let result = try await self.trace.run(["state", "FILE"] + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout.isEmpty, "\(arguments)")
      #expect(
        result.stderr == message.replacingOccurrences(of: "demo.db", with: self.trace.path),
        "\(arguments)")
    }
  }

  /// Kept states and changes that do not fit together are a damaged file: one line, exit 2.
  @Test func damagedStatesAreOneLineAndExit2() async throws {
    let cases: [(String, String)] = [
      (
        #"UPDATE states SET tree = '["x"]' WHERE session_id = 1"#,
        "holds a state of session 1, after action #0, that holds a node of an unknown kind 'x'"
      ),
      (
        "UPDATE states SET tree = 'nope' WHERE session_id = 1",
        "holds a state of session 1, after action #0, that is not JSON"
      ),
      // In a part no change before action #3 reaches, which is printed from the kept JSON.
      (
        #"UPDATE states SET tree = replace(tree, '["struct","TodosFeature.State"]', '["strut","TodosFeature.State"]') WHERE session_id = 1"#,
        "holds a state of session 1, after action #0, that holds a container of an unknown kind"
      ),
      (
        #"UPDATE states SET tree = replace(tree, '["todos","todos",["c",["collection"],[]]]', '["todos","todos",["c",["collection"],[]]') WHERE session_id = 1"#,
        "holds a state of session 1, after action #0, that is not JSON"
      ),
      // Nested deeper than a tree may be, in a part printed from the kept JSON.
      (
        #"""
        UPDATE states SET tree = replace(
          tree, '["notificationsEnabled","notificationsEnabled",["t","false"]]',
          '["notificationsEnabled","notificationsEnabled",' || replace(hex(zeroblob(2500)), '00', '["c",["tuple"],[[null,"",')
            || '["t","false"]' || replace(hex(zeroblob(2500)), '00', ']]]') || ']'
        ) WHERE session_id = 1
        """#,
        "holds a state of session 1, after action #0, that nests deeper than 2000 levels"
      ),
      // Arrays nested deeper than any tree, which are not one.
      (
        "UPDATE states SET tree = replace(hex(zeroblob(7000)), '00', '[') || replace(hex(zeroblob(7000)), '00', ']') WHERE session_id = 1",
        "holds a state of session 1, after action #0, that nests deeper than 2000 levels"
      ),
      (
        #"UPDATE state_changes SET rebuild = '{"node":5}' WHERE action_id = (SELECT id FROM actions WHERE session_id = 1 AND seq = 1)"#,
        "holds a state change of action #1 of session 1 that holds a node that is not an array with a tag"
      ),
    ]
    for (index, (sql, message)) in cases.enumerated() {
      let name = "damaged-\(index).db"
      _ = try self.trace.copy(named: name, changedBy: sql)
      let result = try await Product.tcatrace.run(
        ["state", name, "--session", "1", "--at", "3"], in: self.trace.directory.url)
      #expect(result.status == 2, "\(sql)")
      #expect(result.stdout.isEmpty)
      #expect(
        result.stderr
          == "Error: '\(name)' \(message): the file is damaged (truncated or overwritten); record it again\n",
        "\(sql)"
      )
    }
  }

  /// A change the state has no place for says nothing of the file, which SQLite and the schema
  /// found whole (issue #71: TCA's alerts were recorded by their stored properties, which the
  /// state's printing does not have, and every step after one was refused as damaged). It is
  /// left out and named, and the rest of the state is shown, by each way `state` reads one.
  @Test func aChangeTheStateHasNoPlaceForIsLeftOutAndNamed() async throws {
    let name = "unplaced.db"
    _ = try self.trace.copy(
      named: name,
      changedBy:
        "UPDATE state_changes SET path = 'nowhere.at.all' WHERE action_id = (SELECT id FROM actions WHERE session_id = 1 AND seq = 1)"
    )
    let warning =
      "warning: the change of action #1 at 'nowhere.at.all' names a value the state does not have: it is left out of the state shown\n"
    let whole = try await Product.tcatrace.run(
      ["state", name, "--session", "1", "--at", "3"], in: self.trace.directory.url)
    #expect(whole.status == 0)
    #expect(whole.stderr == warning)
    #expect(whole.stdout.hasPrefix("AppFeature.State("))
    let original = try await self.trace.run(["state", "FILE", "--session", "1", "--at", "3"])
    // NB: Action #1 typed the email: the rest is as recorded.
    #expect(whole.stdout != original.stdout)
    #expect(
      whole.stdout.replacingOccurrences(of: "email: \"\"", with: "email: \"blob@example.com\"")
        == original.stdout)
    let part = try await Product.tcatrace.run(
      ["state", name, "--session", "1", "--at", "3", "--path", "todos"],
      in: self.trace.directory.url)
    #expect(part.status == 0)
    #expect(part.stderr == warning)
    #expect(part.stdout.hasPrefix("TodosFeature.State("))
  }

  /// A file from before schema version 2 still opens; it has no states to show.
  @Test func aVersion1FileHasNoStates() async throws {
    let name = "version1.db"
    _ = try self.trace.copy(named: name, changedBy: RecordedTrace.version1SQL)

    let replay = try await Product.tcatrace.run(
      ["replay", name, "--session", "1"], in: self.trace.directory.url)
    #expect(replay.status == 0)
    let state = try await Product.tcatrace.run(
      ["state", name, "--session", "1", "--at", "3"], in: self.trace.directory.url)
    #expect(state.status == 2)
    #expect(
      state.stderr
        == "Error: '\(name)' holds no states for session 1: it was recorded by a TCATrace older than schema version 2, which kept only changes; record it again to see its state at each step\n"
    )
  }
}
