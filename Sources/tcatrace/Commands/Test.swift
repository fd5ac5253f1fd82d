import ArgumentParser
import ToolSupport
import TCATraceFile
import TestGeneration

extension TCATraceCommand {
  /// `tcatrace test FILE --session S`: a recorded session as a `TestStore` test.
  struct Test: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "test",
      abstract:
        "Print a Swift Testing test that replays a session through a TestStore, asserting every state change.",
      discussion: """
        Each action sent to the store is a 'send' with the state changes it caused; each action \
        an effect sent is a 'receive' of its case key path, with its changes. The store starts \
        from the recorded initial state, decoded from the JSON the trace kept of it (or \
        --initial-state). Values are written as Swift literals, enum cases, and structs through \
        their memberwise initializers (.init(…)); an action whose payload has no such literal is \
        decoded from the trace's JSON. A trace is untrusted: its strings, numbers and ids are \
        written anew from their values (every character outside printable ASCII as \\u{…}), its \
        names only where a member goes, and the test is checked by tcatrace-lint against the \
        grammar tcatrace test writes before it is printed. Values redacted when recorded are placeholders to fill in \
        (<#redacted#>); a change that cannot be written is left out, its action asserted \
        non-exhaustively, and a comment names it. The trace does not know the dependencies \
        effects used: give them with --dependencies. Notes on what to fill in go to the \
        standard error.
        """
    )

    @OptionGroup var trace: TraceFileArguments

    @OptionGroup var session: OneSessionArguments

    @Option(
      name: .long,
      help: ArgumentHelp(
        "The test function's name. Default: 'session' and the session's id.", valueName: "name")
    )
    var name: String?

    @Option(
      name: .customLong("import"),
      help: ArgumentHelp(
        "A module the test imports with '@testable import' (repeat for several): the app's.",
        valueName: "module")
    )
    var imports: [String] = []

    @Option(
      name: .long,
      help: ArgumentHelp(
        "Swift code for the store's withDependencies closure, as in '$0.apiClient = .mock'.",
        valueName: "code"
      )
    )
    var dependencies: String?

    @Option(
      name: .customLong("initial-state"),
      help: ArgumentHelp(
        "A Swift expression of the initial state, as in 'AppFeature.State()'. Default: decoded from the trace.",
        valueName: "code"
      )
    )
    var initialState: String?

    @Option(
      name: .long,
      help: ArgumentHelp(
        "A Swift expression of the reducer. Default: the root feature's initializer, as in 'AppFeature()'.",
        valueName: "code")
    )
    var reducer: String?

    func validate() throws {
      if let name = self.name, !SwiftLiteral.isIdentifier(name) {
        throw ValidationError(
          "--name is a Swift function name: letters, digits and '_', not starting with a digit")
      }
      for module in self.imports where !SwiftLiteral.isIdentifier(module) {
        throw ValidationError(
          "--import takes a module's name, as in 'MyApp': '\(module.terminalSafe)' is not one")
      }
    }

    func run() async throws {
      let written = try self.trace.read(checking: [
        "sessions", "actions", "state_changes", "states",
      ]) { reader in
        let session = try self.session.session(in: reader)
        let options = TestStoreTest.Options(
          name: self.name ?? "session\(session.id)", imports: self.imports,
          dependencies: self.dependencies, initialState: self.initialState, reducer: self.reducer
        )
        return try TestStoreTest.written(
          session: session, from: reader, file: self.trace.file, options: options)
      }
      try await Self.check(written.checked.source)
      print(written.test.source, terminator: "")
      for note in written.test.notes {
        printError("note: \(note).")
      }
      if let note = TestStoreTest.unplacedNote(written.unplaced) {
        printError("note: \(note).")
      }
      if let note = TestStoreTest.journalNote(written.fromJournal) {
        printError("note: \(note).")
      }
      if let note = TestStoreTest.jumpNote(written.jump) {
        printError("note: \(note).")
      }
    }

    /// Refuses to print `source` unless it is in the grammar `tcatrace test` writes: checked by
    /// `tcatrace-lint`, which holds Swift's parser (see `GeneratedTestGrammar`). It says what is
    /// wrong itself.
    static func check(_ source: String) async throws {
      let name = "tcatrace-lint"
      let program = try await TCATraceCommand.companion(name, runBy: "test")
      let status = try await runProgram(
        program, [name, "--generated-test"], input: Array(source.utf8))
      guard status == 0 else {
        if status == 2 { throw ExitCode(2) }
        throw CLIError(
          message:
            "\(name) could not check the test (exit status \(status)), so it is not printed: check that \(program) runs"
        )
      }
    }
  }
}
