import CSQLite
import CustomDump
import Foundation
import GeneratedTestCheck
import TestSupport
import Testing

/// Issue #40: a trace stays data. Whatever a trace holds, `tcatrace test` writes only the
/// store's sends, receives and assignments of literals it writes itself; what the trace's
/// strings hold comes back exactly, as data.
@Suite(.hangGuard)
struct TestGenerationSafetyTests {
  /// Strings a real app holds, which a generated test must give back as they were.
  static let texts = [
    "e\u{301}milie@example.com",  // a decomposed accent
    "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467} family",  // a ZWJ sequence
    #"say "hi" \ back"#,
    ##"raw #"quoted"# and \#(x) and \(y)"##,
    "three \"\"\" quotes",
    "two\nlines",
    "\u{202E}reversed\u{202C} and \u{9B}C1",
  ]

  /// The test generated from a session of those strings is kept in the suite, where it
  /// compiles and passes (`TCATraceExamplesTests/Generated/TextSessionTest.swift`): the strings
  /// round-trip through the trace and the test.
  @Test func stringsOfEveryKindRoundTrip() async throws {
    let trace = try await RecordedTrace(fixture: "record-texts", Self.texts, name: "texts.db")
    let result = try await trace.run(
      [
        "test", "texts.db", "--session", "1", "--name", "replaysTextSession", "--import",
        "TCATraceExamples",
      ]
    )
    #expect(result.status == 0, "\(result.stderr)")
    expectNoDifference(result.stdout, try Self.kept("TextSessionTest.swift"))
    #expect(result.stdout.unicodeScalars.allSatisfy { $0.isASCII })
  }

  /// The three crafted traces of the issue, in one session: hidden quotes (a quote joined to a
  /// prepended or an extending mark), a struct whose type name is a function, and a comment
  /// tail. The test generated from it is kept in the suite
  /// (`TCATraceExamplesTests/Generated/CraftedSessionTest.swift`), where it compiles and runs
  /// inert: had any of them become code, its `exit(7)` would end the suite.
  @Test func craftedTracesStayData() async throws {
    let trace = try await RecordedTrace(redacted: false)
    _ = try trace.copy(named: "crafted.db", changedBy: Self.craftedSQL)
    let result = try await trace.run([
      "test", "crafted.db", "--session", "1", "--name", "replaysCraftedSession",
      "--import", "TCATraceExamples", "--dependencies", "DemoScript.immediateDependencies(&$0)",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    expectNoDifference(result.stdout, try Self.kept("CraftedSessionTest.swift"))
    let code = result.stdout.split(separator: "\n").filter {
      !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
    }
    for word in ["Process", "exit", "print", "Foundation.", "isEmpty"] {
      #expect(!code.contains { $0.contains(word) }, "\(word)")
    }
    #expect(result.stderr.contains("note: 3 changes are not asserted"), "\(result.stderr)")
  }

  static let hiddenQuotes =
    "\"blob@example.com\u{600}\" + { Foundation.exit(7); return \"\" }() + \"\u{200C}\""
  static let functionAsType =
    #"String(describing: Process.launchedProcess(launchPath: "/bin/sh", arguments: ["-c", "exit 7"]))"#
  static let commentTail = "\"\u{600}\".isEmpty; print(42); exit(7) //\""

  /// The three in a recording of the demo: in the rendering of the first action's payload and
  /// of the changes it and the third made, and of a todo's title.
  static var craftedSQL: String {
    let hidden = Self.hiddenQuotes.replacing("'", with: "''")
    return """
      UPDATE actions SET payload = '\(hidden)' WHERE session_id = 1 AND seq = 1;
      UPDATE state_changes SET new_value = '\(hidden)'
      WHERE path = 'login.email' AND action_id = (SELECT id FROM actions WHERE session_id = 1 AND seq = 1);
      UPDATE state_changes SET new_value = '\(Self.functionAsType)'
      WHERE path = 'todos.todos[id: 1].title';
      UPDATE state_changes SET new_value = '\(Self.commentTail)'
      WHERE path = 'login.isLoading' AND action_id = (SELECT id FROM actions WHERE session_id = 1 AND seq = 3);
      """
  }

  static func kept(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("TCATraceExamplesTests/Generated/\(name)")
    return try String(contentsOf: url, encoding: .utf8)
  }

  /// An initial state nested 20,000 levels deep is written in space that grows with its size:
  /// levels past ``TestStoreTest/deepestJSONLevel`` on one line, not two more spaces a level.
  @Test func aDeepStateIsWrittenInLinearSpace() async throws {
    let trace = try await RecordedTrace(redacted: false)
    let depth = 20_000
    let json =
      String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    _ = try trace.copy(
      named: "deep.db",
      changedBy: "UPDATE states SET json = '\(json)' WHERE session_id = 1 AND seq = 0;")
    let result = try await trace.run(["test", "deep.db", "--session", "1"])
    #expect(result.status == 0, "\(result.stderr)")
    // 20,000 levels of `{"a": ` are 120,000 bytes; at two spaces a level they were 400 MB.
    #expect(result.stdout.utf8.count < 300_000, "\(result.stdout.utf8.count) bytes")
    #expect(result.stdout.contains(String(repeating: #"{"a": "#, count: 100)))
  }

  // MARK: Fuzzing

  /// The scalars the fuzz test builds strings of: quotes, backslashes, number signs,
  /// interpolation, joiners and marks that join a quote to its neighbours, bidi and C0/C1
  /// controls, and plain letters.
  static let alphabet: [String] = [
    "\"", "\\", "#", "(", ")", "\\(", "\"\"\"", "#\"", "\"#", "//", "/*", "*/", ";", "\n", "\r",
    "\t",
    "\u{600}", "\u{601}", "\u{602}", "\u{603}", "\u{604}", "\u{605}", "\u{6DD}", "\u{200C}",
    "\u{200D}",
    "\u{FE0F}", "\u{300}", "\u{301}", "\u{36F}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}",
    "\u{1B}", "\u{7}", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}", "a", "Z", "0", " ", "é", "👩",
    "exit(7)",
  ]

  static let seeds: [UInt64] =
    ProcessInfo.processInfo.environment["TCATRACE_FUZZ_SEEDS"].flatMap { UInt64($0) }
    .map { Array(1...max(1, $0)) } ?? Array(1...6)

  /// Strings of random scalars, recorded by a real recorder: the test is in the grammar, and
  /// each string comes back as a literal that builds it. Then the same trace with random scalars
  /// written into its renderings, as a hostile file would: the test is in the grammar, or
  /// refused on one line.
  @Test(arguments: TestGenerationSafetyTests.seeds)
  func randomStringsStayData(seed: UInt64) async throws {
    var random = SeededGenerator(seed: seed)
    var texts: [String] = []
    for index in 0..<20 {
      var text = "\(index):"
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        text += Self.alphabet.randomElement(using: &random)!
      }
      texts.append(text)
    }
    let trace = try await RecordedTrace(fixture: "record-texts", texts, name: "texts.db")
    let result = try await trace.run(["test", "texts.db", "--session", "1"])
    #expect(result.status == 0, "seed \(seed): \(result.stderr)")
    #expect(GeneratedTestGrammar.violation(in: result.stdout) == nil, "seed \(seed)")
    #expect(result.stdout.unicodeScalars.allSatisfy { $0.isASCII }, "seed \(seed)")
    for (index, text) in texts.enumerated() {
      let email = result.stdout.contains("    $0.login.email = \(Self.literal(text))\n")
      let title = result.stdout.contains("title: \(Self.literal(text)),")
      // NB: CustomDump chooses a raw string's number signs by `Character`s: where a quote, a
      // backslash or a number sign is joined to a mark, its rendering ends elsewhere for the
      // compiler, and the change is not asserted rather than written wrong.
      if Self.isJoinedToAMark(text) {
        #expect(
          email
            || result.stdout.contains(
              "  // #\(2 * index + 1): not asserted, as tcatrace cannot write it in Swift: login.email."
            ),
          "seed \(seed): \(text.debugDescription)"
        )
      } else {
        #expect(email && title, "seed \(seed): \(text.debugDescription)")
      }
    }

    let mutated = try trace.copy(
      named: "mutated.db", changedBy: Self.mutationSQL(trace.path, &random))
    let hostile = try await trace.run(["test", mutated, "--session", "1"])
    #expect([0, 2].contains(hostile.status), "seed \(seed): \(hostile.stderr)")
    #expect(!hostile.stderr.contains("outside the grammar"), "seed \(seed): \(hostile.stderr)")
    #expect(
      GeneratedTestGrammar.violation(in: hostile.stdout) == nil || hostile.status == 2,
      "seed \(seed)")
    if hostile.status == 2 {
      #expect(
        hostile.stdout.isEmpty && hostile.stderr.split(separator: "\n").count == 1, "seed \(seed)")
    }
  }

  /// Whether a quote, a backslash or a number sign in `text` shares its `Character` with
  /// another scalar.
  static func isJoinedToAMark(_ text: String) -> Bool {
    text.contains { character in
      character.unicodeScalars.count > 1
        && character.unicodeScalars.contains { "\"\\#".unicodeScalars.contains($0) }
    }
  }

  /// A string literal of `text`, written as the issue asks: printable ASCII as it is, and
  /// every other scalar escaped.
  static func literal(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x5C: out += "\\\\"
      case 0x22: out += "\\\""
      case 0x0A: out += "\\n"
      case 0x0D: out += "\\r"
      case 0x09: out += "\\t"
      case 0x20...0x7E: out += String(scalar)
      default: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      }
    }
    return out + "\""
  }

  /// SQL that writes random scalars from ``alphabet`` into every rendering of the file's
  /// payloads and state changes, at random places.
  static func mutationSQL(_ path: String, _ random: inout SeededGenerator) throws -> String {
    var db: OpaquePointer?
    defer { sqlite3_close(db) }
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return "" }
    var sql = ""
    for (table, column) in [("actions", "payload"), ("state_changes", "new_value")] {
      var statement: OpaquePointer?
      sqlite3_prepare_v2(
        db, "SELECT id, \(column) FROM \(table) WHERE \(column) IS NOT NULL", -1, &statement, nil)
      defer { sqlite3_finalize(statement) }
      while sqlite3_step(statement) == SQLITE_ROW {
        let id = sqlite3_column_int64(statement, 0)
        var scalars = Array(String(cString: sqlite3_column_text(statement, 1)).unicodeScalars)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let insert = Array(Self.alphabet.randomElement(using: &random)!.unicodeScalars)
          scalars.insert(contentsOf: insert, at: Int.random(in: 0...scalars.count, using: &random))
        }
        let value = String(String.UnicodeScalarView(scalars)).replacing("'", with: "''")
        sql += "UPDATE \(table) SET \(column) = '\(value)' WHERE id = \(id);\n"
      }
    }
    return sql
  }
}
