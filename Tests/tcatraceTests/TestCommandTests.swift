import CustomDump
import Foundation
import TestSupport
import Testing

/// Issue #19: `tcatrace test` turns a recorded session into a `TestStore` test.
@Suite(.hangGuard)
struct TestCommandTests {
  /// The test generated from the demo's app session is kept in the suite, where it compiles and
  /// passes (`TCATraceExamplesTests/Generated`): generating it again gives the same file.
  @Test func generatingTheDemosTestGivesTheFileKeptInTheSuite() async throws {
    let trace = try await RecordedTrace(redacted: false)
    let kept = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("TCATraceExamplesTests/Generated/DemoAppSessionTest.swift")
    let result = try await trace.run([
      "test", "demo.db", "--session", "1", "--name", "replaysDemoAppSession",
      "--import", "TCATraceExamples", "--dependencies", "DemoScript.immediateDependencies(&$0)",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    expectNoDifference(result.stdout, try String(contentsOf: kept, encoding: .utf8))
  }

  /// Without options: values redacted when recorded are placeholders, the dependencies a
  /// comment, and the notes on the standard error say what to fill in.
  @Test func whatTheTraceCannotKnowIsSaid() async throws {
    let trace = try await RecordedTrace()
    let result = try await trace.run(["test", "FILE", "--session", "1"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(lines.contains("func session1() async throws {"))
    #expect(!lines.contains { $0.hasPrefix("@testable import") })
    for expected in [
      // A closure that ignores its argument does not compile: it has a name.
      "  } withDependencies: { dependencies in",
      "    // The trace does not know the dependencies the effects used: set them here, as in",
      "    // `dependencies.continuousClock = ImmediateClock()`.",
      "    // Effects of #3, #6, #7, #8, #10, #15, #24 sent actions.",
      "  }",
    ] {
      #expect(lines.contains(expected), "\(expected)")
    }
    #expect(
      result.stdout.contains(
        """
          await store.send(._internal(.login(.view(.passwordChanged(<#redacted#>))))) {
            $0.login.password = <#redacted#>
          }
        """))
    expectNoDifference(
      result.stderr.split(separator: "\n").map(String.init),
      [
        // NB: A marked path reads "<redacted>" in the kept states' JSON even where it was empty
        // (issue #58): the password, before it is typed.
        #"note: the initial state holds values redacted when it was recorded: they decode as "<redacted>"."#,
        "note: the effects of 7 actions sent actions: give the test their dependencies with --dependencies.",
        "note: 6 values were redacted when recorded or cannot be written: fill in the placeholders (<#…#>).",
      ]
    )
  }

  /// A change whose value has no Swift source (here a date) is left out, its action asserted
  /// non-exhaustively, and the test says so.
  @Test func aValueWithNoSwiftSourceIsNotAsserted() async throws {
    let trace = try await RecordedTrace(redacted: false)
    _ = try trace.copy(
      named: "dated.db",
      changedBy: """
        UPDATE state_changes SET new_value = 'Date(2026-11-25T16:00:00.000Z)'
        WHERE path = 'login.email' AND action_id = (SELECT id FROM actions WHERE session_id = 1 AND seq = 1);
        """
    )
    let result = try await trace.run(["test", "dated.db", "--session", "1"])
    #expect(result.status == 0)
    #expect(
      result.stdout.contains(
        """

          // #1: not asserted, as tcatrace cannot write it in Swift: login.email.
          await store.withExhaustivity(.off) {
            _ = await store.send(._internal(.login(.view(.emailChanged("blob@example.com")))))
          }

          await store.send(._internal(.login(.view(.passwordChanged("hunter2"))))) {
        """))
    #expect(
      result.stderr.contains(
        "note: 1 change is not asserted, as tcatrace cannot write its value in Swift: login.email.\n"
      ))
  }

  /// An `IndexSet`, in an action (`.onDelete(IndexSet)`, as SwiftUI's `onDelete` gives one) or
  /// in the state, is written as the array literal of its integers, as TCA's tests write one;
  /// one too large to read is left a placeholder.
  @Test func anIndexSetIsWrittenAsItsIntegers() async throws {
    let trace = try await RecordedTrace(redacted: false)
    _ = try trace.copy(
      named: "indexed.db",
      changedBy: """
        UPDATE actions SET payload = 'IndexSet(ranges: [[0]: 1..<3, [1]: 5..<6])', payload_json = NULL
        WHERE session_id = 1 AND seq = 17;
        UPDATE actions SET payload = 'IndexSet(ranges: [[0]: 0..<65])', payload_json = NULL
        WHERE session_id = 1 AND seq = 18;
        UPDATE state_changes SET new_value = 'IndexSet(
          ranges: [
            [0]: 4..<5
          ]
        )'
        WHERE path = 'todos.todos[id: 100].isComplete';
        """
    )
    let result = try await trace.run(["test", "indexed.db", "--session", "1"])
    #expect(result.status == 0)
    #expect(
      result.stdout.contains(
        """
          await store.send(._internal(.todos(._internal(.rows(.element(id: 100, action: .view(.toggleCompleted))))))) {
            $0.todos.todos[id: 100]?.isComplete = [4]
          }
        """))
    #expect(
      result.stdout.contains(
        "await store.send(._internal(.todos(._internal(.rows(.element(id: 1, action: .view(.titleChanged([1, 2, 5])))))))) {\n"
      ))
    #expect(result.stdout.contains("await store.send(<#action #18#>) {\n"))
    #expect(!result.stderr.contains("not asserted"))
  }

  /// Options replace what the trace says: the initial state, the reducer, the dependencies.
  @Test func theInitialStateTheReducerAndTheDependenciesCanBeGiven() async throws {
    let trace = try await RecordedTrace()
    // The leaky example's state is not Encodable: the trace keeps no JSON of it.
    let refused = try await trace.run(["test", "FILE", "--session", "2"])
    #expect(refused.status == 2)
    #expect(refused.stdout.isEmpty)
    #expect(
      refused.stderr
        == "Error: the trace holds no JSON of session 2's initial state that a test can decode (its type is not Encodable, the trace is older than schema version 3, or the JSON is damaged): give it with --initial-state, as in --initial-state 'LeakyParentFeature.State()'\n"
    )
    let result = try await trace.run([
      "test", "FILE", "--session", "2", "--name", "leaky", "--import", "TCATraceExamples",
      "--initial-state", "LeakyParentFeature.State()", "--reducer",
      "LeakyParentFeature()._printChanges()",
      "--dependencies", "$0.continuousClock = ImmediateClock()\n$0.uuid = .incrementing",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(
      result.stdout.hasPrefix(
        """
        // Generated from session 2 (leaky) of demo.db by:
        //   tcatrace test demo.db --session 2 --name leaky --import TCATraceExamples --dependencies '$0.continuousClock = ImmediateClock()\\n$0.uuid = .incrementing' --initial-state 'LeakyParentFeature.State()' --reducer 'LeakyParentFeature()._printChanges()'
        // On Linux, link IssueReportingTestSupport into its test target, or a failed assertion
        // will not fail it.

        import Composable
        import Foundation
        import Testing
        @testable import TCATraceExamples

        @MainActor
        @Test
        func leaky() async throws {
          let store = TestStore(initialState: LeakyParentFeature.State()) {
            LeakyParentFeature()._printChanges()
          } withDependencies: {
            $0.continuousClock = ImmediateClock()
            $0.uuid = .incrementing
          }

          await store.send(.view(.onAppear))
        """))
  }

  /// A trace is untrusted: what it holds is written as literals or kept in a raw string, never
  /// as code, and its controls never reach the output.
  /// A session recorded on pointfreeco's TCA (its recorder's version says so) gets a test that
  /// imports TCA; any other, one that imports `Composable` (#41).
  @Test func aSessionRecordedOnTCAGetsATestThatImportsIt() async throws {
    let trace = try await RecordedTrace(redacted: false)
    _ = try trace.copy(
      named: "tca.db",
      changedBy:
        "UPDATE sessions SET recorder_version = '0.1.0+ComposableArchitecture' WHERE id = 1;"
    )
    _ = try trace.copy(
      named: "other.db",
      changedBy:
        "UPDATE sessions SET recorder_version = '0.1.0+ComposableArchitecture; x' WHERE id = 1;"
    )
    let onTCA = try await trace.run(["test", "tca.db", "--session", "1"])
    #expect(onTCA.status == 0)
    #expect(onTCA.stdout.contains("\nimport ComposableArchitecture\nimport Foundation\n"))
    #expect(!onTCA.stdout.contains("\nimport Composable\n"))
    for file in ["demo.db", "other.db"] {
      let onComposable = try await trace.run(["test", file, "--session", "1"])
      #expect(onComposable.stdout.contains("\nimport Composable\nimport Foundation\n"), "\(file)")
    }
  }

  @Test func aHostileTraceStaysData() async throws {
    let trace = try await RecordedTrace(redacted: false)
    _ = try trace.copy(
      named: "hostile.db",
      changedBy: #"""
        UPDATE actions SET payload = '"x")))); fatalError(); _ = ((("',
          payload_json = '{"_internal":{"_0":"\"###)); fatalError(); ((###\""}'
        WHERE session_id = 1 AND seq = 1;
        UPDATE actions SET payload = '"a" + String(fatalError())', payload_json = NULL
        WHERE session_id = 1 AND seq = 17;
        UPDATE actions SET path = '_internal.login.view.x(fatalError())', case_name = 'x(fatalError())',
          payload_json = NULL
        WHERE session_id = 1 AND seq = 3;
        UPDATE actions SET path = '_internal.login._internal.fatalError().loginResponse'
        WHERE session_id = 1 AND seq = 4;
        UPDATE state_changes SET new_value = '#"a"# + fatalError() + #"b"#'
        WHERE path = 'login.email';
        UPDATE state_changes SET new_value = '"' || char(27) || '[2J"'
        WHERE path = 'todos.nextID';
        UPDATE state_changes SET new_value = CASE new_value WHEN '1' THEN '1e5e3' ELSE '3-2' END
        WHERE path = 'todos.secondsOnScreen';
        UPDATE sessions SET name = 'app' || char(10) || 'fatalError()' || char(27) || '[2J', root_feature = 'AppFeature(); fatalError()'
        WHERE id = 1;
        """#
    )
    let result = try await trace.run(["test", "hostile.db", "--session", "1"])
    #expect(result.status == 0)
    #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B })
    // Outside raw strings, nothing from the file is code: the only `fatalError` are in the
    // raw string that holds the first action's JSON, which its delimiter's number signs keep
    // in: it has more than any run of them inside.
    var hashes: String?
    var outside: [String] = []
    var rawStrings = 0
    for line in result.stdout.split(separator: "\n").map(String.init) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if let delimiter = hashes {
        if trimmed == "\"\"\"" + delimiter {
          hashes = nil
        } else {
          #expect(!line.contains(delimiter), "\(line)")
        }
      } else if trimmed.hasSuffix("\"\"\""), trimmed.dropLast(3).allSatisfy({ $0 == "#" }),
        !trimmed.dropLast(3).isEmpty
      {
        hashes = String(trimmed.dropLast(3))
        rawStrings += 1
      } else {
        outside.append(line)
      }
    }
    #expect(rawStrings == 2, "the initial state's JSON and the first action's")
    let leaks = outside.filter {
      $0.contains("fatalError") && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
    }
    expectNoDifference(leaks, [])
    // What only looks like a number is not one: an exponent is written once, a sign only after it.
    #expect(!result.stdout.contains("1e5e3") && !result.stdout.contains("3-2"))
    let source = outside.joined(separator: "\n")
    #expect(
      source.contains(
        """
          // #3 _internal.login.view.x(fatalError()): tcatrace cannot write this action in Swift.
          await store.send(<#action #3#>)
        """))
    #expect(source.contains("await store.receive(<#action #4#>)"))
    #expect(source.contains("  <#root feature#>()\n"))
    #expect(
      source.contains(
        "// Generated from session 1 (app\\nfatalError()\\u{1B}[2J) of hostile.db by:"))
    #expect(
      result.stderr.contains(
        "note: 3 changes are not asserted, as tcatrace cannot write their values in Swift: login.email, todos.secondsOnScreen, todos.secondsOnScreen.\n"
      ))
    // A control in a string is data: written escaped, never as it is.
    #expect(source.contains(#"    $0.todos.nextID = "\u{1B}[2J""#))
  }

  @Test func badInputIsOneLineAndExit2() async throws {
    let trace = try await RecordedTrace()
    let version1 = try trace.copy(named: "v1.db", changedBy: RecordedTrace.version1SQL)
    let gap = try trace.copy(
      named: "gap.db",
      changedBy: """
        DELETE FROM state_changes WHERE action_id = (SELECT id FROM actions WHERE session_id = 1 AND seq = 5);
        DELETE FROM actions WHERE session_id = 1 AND seq = 5;
        """
    )
    for (arguments, message) in [
      (["test", "missing.db"], "Error: 'missing.db' does not exist: check the path"),
      (
        ["test", "FILE", "--session", "9"],
        "Error: '\(trace.path)' has no session 9: 'tcatrace sessions \(trace.path)' lists them"
      ),
      (
        ["test", "FILE", "--session", "all"],
        "Error: --session takes one session: its id, or 'latest'"
      ),
      (
        ["test", "FILE", "--name", "9lives"],
        "Error: --name is a Swift function name: letters, digits and '_', not starting with a digit"
      ),
      (
        ["test", "FILE", "--import", "My App"],
        "Error: --import takes a module's name, as in 'MyApp': 'My App' is not one"
      ),
      (
        ["test", gap, "--session", "1"],
        "Error: session 1 lacks action #5 (the recorder dropped it, or the file was changed): a test needs every action"
      ),
      (
        ["test", version1, "--session", "1"],
        "Error: '\(version1)' holds no states for session 1: it was recorded by a TCATrace older than schema version 2"
      ),
    ] {
      let result = try await trace.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout.isEmpty, "\(arguments)")
      #expect(result.stderr.hasPrefix(message), "\(arguments)")
      if !["all", "9lives", "My App"].contains(arguments.last!) {
        #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments)")
      }
    }
  }
}
