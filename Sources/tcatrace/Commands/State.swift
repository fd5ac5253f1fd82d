import ArgumentParser
import ToolSupport
import TCATraceFile
import TraceFormats

extension TCATraceCommand {
  /// `tcatrace state FILE --at N`: the whole state after an action.
  struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "state",
      abstract: "Print the whole state of a session after an action, as CustomDump printed it.",
      discussion: """
        The state is rebuilt from the nearest state the recorder kept before the action and the \
        changes since; so is its JSON, when it is Encodable. Sessions recorded before trace \
        schema version 2 kept only changes, and have no states to show.
        """
    )

    @OptionGroup var trace: TraceFileArguments

    @OptionGroup var session: OneSessionArguments

    // NB: `.unconditional`: `--at -1` is a wrong step, not a missing one.
    @Option(
      name: .long, parsing: .unconditional,
      help: ArgumentHelp(
        "The action after which to show the state: its seq, or 0 for the state before the first action. Default: the last action.",
        valueName: "seq"
      )
    )
    var at: Int?

    @Option(
      name: .long,
      help: ArgumentHelp(
        "Show only the value at this path of the state, as state changes name it: 'login.email', 'todos[id: 3]'.",
        valueName: "path"
      )
    )
    var path: String?

    @Option(
      help:
        "Output format: text, or json (the rendering, the state as a tree, and the state's own JSON when it is Encodable)."
    )
    var format: OutputFormat = .text

    func validate() throws {
      if let at = self.at, at < 0 {
        throw ValidationError("--at is a seq, 0 or more (0: the state before the first action)")
      }
      if self.format == .jsonl {
        throw ValidationError("--format is text or json for 'state'")
      }
    }

    func run() throws {
      // NB: Changes the state has no place for are left out of the state shown, and named.
      var unplaced: [UnplacedChange] = []
      defer { Self.warn(unplaced) }
      let (sessionID, seq, kept) = try self.trace.read(checking: [
        "sessions", "actions", "state_changes", "states",
      ]) { reader in
        // NB: Not `session(id:)`, whose counts are a pass over every action of the session.
        let session = try reader.sessionExtent(id: self.session.id)
        let seq = self.at ?? session.lastSeq
        // NB: The whole state as text is printed from the kept state's JSON where no change
        // since reaches, without building those parts into nodes.
        if self.format == .text && self.path == nil {
          return (
            session.id, seq,
            State.Kept.rendered(
              try reader.renderedStateBytes(session: session.id, after: seq) {
                unplaced.append($0)
              })
          )
        }
        let state = try reader.state(session: session.id, after: seq) { unplaced.append($0) }
        let json =
          self.format == .json && self.path == nil
          ? try reader.stateJSON(session: session.id, after: seq) : nil
        return (session.id, seq, State.Kept.tree(state, json: json))
      }
      var node: StateNode
      let json: String?
      switch kept {
      case let .rendered(rendered):
        // NB: Written as it is when it is ASCII that needs no escaping: a state of a
        // megabyte is not checked and copied once more to make it a `String`.
        if rendered.withUnsafeBufferPointer({ String.isTerminalSafeLineByLine(ascii: $0) }) == true
        {
          rendered.withUnsafeBufferPointer(writeOutput)
          print()
        } else {
          Self.printTerminalSafe(String(decoding: rendered, as: UTF8.self))
        }
        return
      case let .tree(state, stateJSON):
        // NB: The process ends after printing: a state of 100,000 nodes is left for the exit
        // to reclaim, where taking it apart node by node cost a sixth of the command's time.
        _ = Unmanaged.passRetained(KeptUntilExit(state))
        (node, json) = (state, stateJSON)
      }
      if let path = self.path {
        guard let found = node.node(at: path) else {
          throw CLIError(
            message:
              "'\(path)' is not a path in the state after action #\(seq) of session \(sessionID): paths name properties with dots and elements in brackets, as in 'login.email' or 'todos[id: 3]'; 'tcatrace state' without --path shows the whole state"
          )
        }
        node = found
      }
      switch self.format {
      case .text, .jsonl:
        Self.printTerminalSafe(node.rendered())
      case .json:
        printJSON(
          [
            StateNode.stateJSON(
              session: sessionID, after: seq, path: self.path, node: node, json: json)
          ],
          format: .json
        )
      }
    }

    /// What was read: the whole state rendered, or its tree and its JSON.
    private enum Kept {
      case rendered([UInt8])
      case tree(StateNode, json: String?)
    }

    /// Says on the standard error which recorded changes the state had no place for, and were
    /// left out of the state shown: the first five, and how many more.
    static func warn(_ unplaced: [UnplacedChange]) {
      for change in unplaced.prefix(5) {
        printError("warning: \(change): it is left out of the state shown")
      }
      if unplaced.count > 5 {
        printError("warning: and \(unplaced.count - 5) more changes the state has no place for")
      }
    }

    /// Prints `rendered`, with what would act on a terminal escaped.
    private static func printTerminalSafe(_ rendered: String) {
      // NB: Printed whole when nothing in it needs escaping (a line break does not): one
      // write of a large state, where a print per line cost more than rendering it.
      if rendered.isTerminalSafeLineByLine {
        print(rendered)
      } else {
        for line in rendered.split(separator: "\n", omittingEmptySubsequences: false) {
          print(String(line).terminalSafe)
        }
      }
    }
  }
}

/// A value the process keeps until it exits.
private final class KeptUntilExit<Value> {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
