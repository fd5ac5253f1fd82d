import ArgumentParser
import ToolSupport
import TCATraceFile

extension TCATraceCommand {
  /// `tcatrace debug FILE`: steps through a session, back and forth, in the terminal.
  struct Debug: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "debug",
      abstract:
        "Step through a session in the terminal: back and forth, to any action, with the state at each step.",
      discussion: """
        The screen shows the actions around the current one, and under them what the current \
        action did (its payload, the action whose effect sent it, the actions its effects \
        sent, its state changes and leaks), or the whole state after it, or one value of \
        that state. Actions a recorder appends to the session appear as it writes them.

        Keys: j/↓ next, k/↑ previous, g first, G last, :N go to #N, / search, ! next leak, \
        f next of a feature, c next of a category, n/N search again, h/← the cause, \
        l/→ the first consequence, d what changed, s the state, p a path, Space/b scroll, \
        ? all keys, q quit.
        """
    )

    @OptionGroup var trace: TraceFileArguments

    @OptionGroup var session: OneSessionArguments

    func run() throws {
      // NB: The file is opened and its session found before the terminal is taken over, so
      // that a bad file or session ends with the usual one line.
      let reader = try self.trace.openChecked([
        "sessions", "actions", "state_changes", "states", "leaks",
      ])
      // NB: The debugger reads as the keys ask, for as long as it runs: a large file's check,
      // begun beside it, is waited for before the terminal is taken over.
      try reader.verifyRead()
      let session = try self.session.session(in: reader)
      let debugger = try Debugger(reader: reader, session: session)
      let terminal: RawTerminal
      do {
        terminal = try RawTerminal()
      } catch {
        throw CLIError(
          message:
            "'debug' is interactive and needs a terminal for its input and output: to print a session, use 'tcatrace replay \(self.trace.file)', and its state at a step, 'tcatrace state \(self.trace.file) --at N'"
        )
      }
      defer { terminal.giveBack() }
      var drawn: (rows: Int, columns: Int)?
      while !debugger.quits {
        let size = terminal.size
        if drawn == nil || drawn! != size {
          let screen = DebuggerScreen(
            debugger: debugger, terminal: .standard, rows: size.rows, columns: size.columns)
          RawTerminal.show(try screen.rendered())
          drawn = size
        }
        let keys = try terminal.keys(waiting: 250)
        if keys.isEmpty {
          if try debugger.refresh() { drawn = nil }
          continue
        }
        for key in keys where !debugger.quits { try debugger.handle(key) }
        drawn = nil
      }
    }
  }
}
