import TCATraceFile
import ToolSupport

extension TestStoreTest {
  /// A session's test as `tcatrace test` and `tcatrace serve` write it.
  package struct Written {
    /// The test, with the user's code in it.
    package var test: TestStoreTest
    /// The same test with an Xcode placeholder for each piece of code the user gave: the one
    /// whose grammar is checked (`GeneratedTestGrammar`), since that code is theirs, not the
    /// trace's. The test itself when they gave none.
    package var checked: TestStoreTest
    /// The recorded changes the states have no place for, left out of what the test asserts.
    package var unplaced: [UnplacedChange]
    /// The session's actions copied from its flight journal, which the test ends before: their
    /// state changes are not known.
    package var fromJournal: [TracedAction] = []
    /// The debugger's jump the test ends before, and the actions after it: a `TestStore` cannot
    /// take another state.
    package var jump: (event: TraceDebuggerEvent, actionsAfter: Int)?
  }

  /// Writes the test of `session` from the trace `reader` reads.
  ///
  /// - Parameter file: The trace's file name, for the test's header.
  /// - Throws: `CLIError` when the session has no actions, or lacks one (a test needs every
  ///   action: one the recorder dropped changed the state unseen); the reader's errors.
  package static func written(
    session: TraceSession, from reader: TraceReader, file: String, options: Options
  ) throws -> Written {
    // NB: The actions a recorder copied from the session's flight journal end it; what they
    // changed is not known, so the test ends before them.
    let recorded = try reader.actions(matching: TraceFilter(session: session.id))
    var actions = recorded.filter { $0.flight == nil }
    // NB: So do those after a debugger's first jump (`tcatrace serve --live`): the store then
    // took a state its actions did not make.
    let jump = try reader.debuggerEvents(session: session.id).first {
      $0.kind == .jump || $0.kind == .back
    }
    var actionsAfterJump = 0
    if let jump {
      let kept = actions.filter { $0.seq <= jump.afterSeq }
      actionsAfterJump = actions.count - kept.count
      actions = kept
    }
    guard !actions.isEmpty else {
      if let jump {
        throw CLIError(
          message:
            "session \(session.id)'s debugger jumped the app before its first action (\(jump.summary)): there is nothing to test"
        )
      }
      throw CLIError(message: "session \(session.id) has no actions: there is nothing to test")
    }
    // NB: A session whose first actions were trimmed starts from the state kept after them.
    let base = try reader.firstStep(session: session.id)
    if let gap = actions.indices.first(where: { actions[$0].seq != base + $0 + 1 }) {
      throw CLIError(
        message:
          "session \(session.id) lacks action #\(base + gap + 1) (the recorder dropped it, or the file was changed): a test needs every action"
      )
    }
    var unplaced: [UnplacedChange] = []
    var states: [StateNode] = []
    try reader.forEachState(
      session: session.id, from: base, through: base + actions.count,
      unplaced: { unplaced.append($0) }
    ) { _, state in
      states.append(state)
    }
    let initialJSON =
      options.initialState == nil ? try reader.stateJSON(session: session.id, after: base) : nil
    let name = String(file.split(separator: "/").last ?? "")
    func test(_ options: Options) throws(CLIError) -> TestStoreTest {
      try TestStoreTest(
        file: name, session: session, actions: actions, states: states,
        initialJSON: initialJSON, options: options
      )
    }
    let written = try test(options)
    return Written(
      test: written, checked: try options.withPlaceholdersForCode.map { try test($0) } ?? written,
      unplaced: unplaced, fromJournal: recorded.filter { $0.flight != nil },
      jump: jump.map { ($0, actionsAfterJump) }
    )
  }

  /// The note that says which actions the test ends before, being from the flight journal, when
  /// there are any.
  package static func journalNote(_ actions: [TracedAction]) -> String? {
    guard let first = actions.first, let last = actions.last else { return nil }
    let which =
      first.seq == last.seq
      ? "action #\(first.seq) is" : "actions #\(first.seq) to #\(last.seq) are"
    let ended =
      actions.first { $0.flight == .endedProcess }.map {
        ", and the process ended in the reducer of #\($0.seq) \($0.caseName.singleLine)"
      } ?? ""
    return
      "the test ends before the session's last \(actions.count == 1 ? "action" : "\(actions.count) actions"): \(which) from the flight journal, whose state changes are not known\(ended)"
  }

  /// The note that says the test ends before the debugger's first jump, when it does.
  package static func jumpNote(_ jump: (event: TraceDebuggerEvent, actionsAfter: Int)?) -> String? {
    guard let (event, after) = jump else { return nil }
    return
      "the test ends at action #\(event.afterSeq), where the debugger of tcatrace serve --live jumped the app (\(event.summary)); the \(after == 1 ? "action" : "\(after) actions") after it are left out: a TestStore cannot take another state"
  }

  /// The note that says which recorded changes the states had no place for, when there are any.
  package static func unplacedNote(_ unplaced: [UnplacedChange]) -> String? {
    guard !unplaced.isEmpty else { return nil }
    let list = unplaced.prefix(5).map(\.description).joined(separator: "; ")
    return
      "the states have no place for \(unplaced.count) recorded change\(unplaced.count == 1 ? "" : "s"), left out of what the test asserts: \(list)\(unplaced.count > 5 ? "; …" : "")"
  }
}

extension TestStoreTest.Options {
  /// The options with an Xcode placeholder for each piece of code the user gave; `nil` when
  /// they gave none.
  var withPlaceholdersForCode: Self? {
    var options = self
    var gaveCode = false
    if options.dependencies != nil { options.dependencies = "<#dependencies#>"; gaveCode = true }
    if options.initialState != nil { options.initialState = "<#initial state#>"; gaveCode = true }
    if options.reducer != nil { options.reducer = "<#reducer#>"; gaveCode = true }
    return gaveCode ? options : nil
  }
}
