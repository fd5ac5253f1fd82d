import CSQLite
import CustomDump
import Foundation
import TestSupport
import Testing

/// Issue #20, item 4: a trace's text reaches the terminal with the characters a terminal acts
/// on shown as escapes: it cannot clear the screen, retitle the window, forge lines or reorder
/// what follows.
@Suite(.hangGuard)
struct TerminalInjectionTests {
  let trace: RecordedTrace
  let hostile: String

  init() async throws {
    self.trace = try await RecordedTrace()
    self.hostile = self.trace.directory.path("hostile.db")
    try FileManager.default.copyItem(atPath: self.trace.path, toPath: self.hostile)
    var db: OpaquePointer?
    guard sqlite3_open(self.hostile, &db) == SQLITE_OK else { throw Failed() }
    defer { sqlite3_close(db) }
    let statements = """
      UPDATE sessions SET name = 'app' || char(27) || '[2J' || char(10) || '9  forged', \
        root_feature = 'AppFeature' || char(8238) || 'evil';
      UPDATE actions SET payload = char(27) || ']0;pwned' || char(7) || 'x' || char(155) || '31m' \
        WHERE seq = 1;
      UPDATE actions SET feature = 'login' || char(13) || 'todos' || char(8) WHERE seq = 2;
      UPDATE state_changes SET new_value = 'a' || char(27) || '[31m' || char(10) || 'b' || char(13);
      UPDATE leaks SET detail = char(27) || '[2J' || char(27) || '[32mNo leaks.';
      INSERT INTO session_sources VALUES (1, 'qa' || char(27) || '[2J.db', 1);
      UPDATE state_changes SET new_value = '"z' || char(8238) || '"' WHERE rebuild IS NULL AND action_id = (
        SELECT max(action_id) FROM state_changes WHERE rebuild IS NULL
          AND action_id IN (SELECT id FROM actions WHERE session_id = 1));
      """
    guard sqlite3_exec(db, statements, nil, nil, nil) == SQLITE_OK else { throw Failed() }
  }

  struct Failed: Error {}

  /// The characters the file holds that a terminal would act on.
  static let controls: Set<UInt32> = [0x07, 0x08, 0x0D, 0x1B, 0x9B, 0x202E]

  private func expectNothingActsOnTheTerminal(
    _ output: String, _ command: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    // NB: Counted and named in hex, so that a failure does not print them raw into the log.
    let found = output.unicodeScalars.filter { Self.controls.contains($0.value) }.map {
      String($0.value, radix: 16)
    }
    let count = found.count
    #expect(count == 0, "\(command): \(found)", sourceLocation: sourceLocation)
  }

  @Test func textOutputShowsThemAsEscapes() async throws {
    let commands = [
      ["sessions"], ["replay"], ["leaks"], ["stats"], ["state", "--session", "1"],
      ["export", "--format", "perfetto"], ["export", "--format", "otlp"],
      [
        "sql",
        "SELECT s.name, s.root_feature, a.feature, a.payload FROM sessions s JOIN actions a ON a.session_id = s.id WHERE a.seq <= 2",
      ],
    ]
    for command in commands {
      let result = try await Product.tcatrace.run(
        [command[0], self.hostile] + command.dropFirst(), in: self.trace.directory.url
      )
      #expect(result.status == 0 || result.status == 1, "\(command)")
      self.expectNothingActsOnTheTerminal(result.stdout, command)
      self.expectNothingActsOnTheTerminal(result.stderr, command)
      // A state's text beyond ASCII is checked too: the override is shown as an escape.
      if command[0] == "state" { #expect(result.stdout.contains(#"name: "z\u{202E}""#)) }
      // A newline in a session name cannot forge a row.
      #expect(
        !result.stdout.split(separator: "\n").contains { $0.hasPrefix("9  forged") }, "\(command)")
    }
    let replay = try await Product.tcatrace.run(
      ["replay", self.hostile], in: self.trace.directory.url)
    #expect(
      replay.stdout.contains(#"Session 1 · app\u{1B}[2J\n9  forged · AppFeature\u{202E}evil · "#))
    #expect(replay.stdout.contains(#"\u{1B}]0;pwned\u{7}x\u{9B}31m"#))
    #expect(replay.stdout.contains(#"login\rtodos\u{8}"#))
    #expect(replay.stdout.contains(#"+ a\u{1B}[31m"#))
    #expect(replay.stdout.contains(#"\u{1B}[2J\u{1B}[32mNo leaks."#))
    // Where a merged session came from (issue #45).
    let sessions = try await Product.tcatrace.run(
      ["sessions", self.hostile], in: self.trace.directory.url)
    #expect(sessions.stdout.contains(#"qa\u{1B}[2J.db #1"#))
  }

  @Test func jsonOutputEscapesThemAsJSONDoes() async throws {
    for command in [
      ["replay", "--format", "jsonl"], ["sessions", "--format", "json"],
      ["leaks", "--format", "json"],
    ] {
      let result = try await Product.tcatrace.run(
        [command[0], self.hostile] + command.dropFirst(), in: self.trace.directory.url
      )
      self.expectNothingActsOnTheTerminal(result.stdout, command)
      for line in result.stdout.split(separator: "\n") {
        #expect(
          (try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(command): \(line)")
      }
    }
    let replay = try await Product.tcatrace.run(
      ["replay", self.hostile, "--format", "jsonl"], in: self.trace.directory.url)
    #expect(replay.stdout.contains(#"\u001b]0;pwned\u0007x\u009b31m"#))
    let sessions = try await Product.tcatrace.run(
      ["sessions", self.hostile, "--format", "json"], in: self.trace.directory.url)
    #expect(sessions.stdout.contains(#""root_feature":"AppFeature\u202eevil""#))
  }

  /// A state's text is checked sixteen bytes at a time: a control is found at any place in a
  /// chunk, and beside a character that is not ASCII.
  @Test func aControlAnywhereInAStatesTextIsShownAsAnEscape() async throws {
    let cases: [(before: String, control: Int, escaped: String)] =
      (0..<17).flatMap { count in
        let before = String(repeating: "a", count: count)
        return [(before, 27, #"\u{1B}"#), (before, 127, #"\u{7F}"#), (before, 13, #"\r"#)]
      } + [("é", 27, #"\u{1B}"#), ("aaaaaaaaaaaaaé", 7, #"\u{7}"#)]
    for (index, (before, control, escaped)) in cases.enumerated() {
      let path = self.trace.directory.path("control-\(index).db")
      try FileManager.default.copyItem(atPath: self.trace.path, toPath: path)
      var db: OpaquePointer?
      guard sqlite3_open(path, &db) == SQLITE_OK else { throw Failed() }
      let update = """
        UPDATE state_changes SET new_value = '"' || '\(before)' || char(\(control)) || '"' WHERE rebuild IS NULL AND action_id = (
          SELECT max(action_id) FROM state_changes WHERE rebuild IS NULL
            AND action_id IN (SELECT id FROM actions WHERE session_id = 1));
        """
      let status = sqlite3_exec(db, update, nil, nil, nil)
      sqlite3_close(db)
      guard status == SQLITE_OK else { throw Failed() }
      let result = try await Product.tcatrace.run(
        ["state", path, "--session", "1"], in: self.trace.directory.url)
      #expect(result.status == 0, "\(index)")
      #expect(!result.stdout.unicodeScalars.contains { $0.value == control }, "\(index)")
      #expect(result.stdout.contains("\"\(before)\(escaped)\""), "\(index)")
    }
  }

  @Test func errorsShowThemAsEscapes() async throws {
    let name = "no\u{1B}[2Jsuch.db"
    let result = try await Product.tcatrace.run(["replay", name], in: self.trace.directory.url)
    #expect(result.status == 2)
    expectNoDifference(
      result.stderr, #"Error: 'no\u{1B}[2Jsuch.db' does not exist: check the path"# + "\n")
    // Issue #20, item 9: an error is one line, whatever the path holds.
    let newline = try await Product.tcatrace.run(
      ["replay", "no\nsuch.db"], in: self.trace.directory.url)
    #expect(newline.status == 2)
    expectNoDifference(
      newline.stderr, #"Error: 'no\nsuch.db' does not exist: check the path"# + "\n")
  }
}
