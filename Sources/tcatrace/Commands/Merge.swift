import ArgumentParser
import ToolSupport
import TCATraceFile

extension TCATraceCommand {
  /// `tcatrace merge OUT FILE…`: the sessions of many traces in one.
  struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "merge",
      abstract: "Copy the sessions of several traces into a new one.",
      discussion: """
        OUT, a new trace, gets every session of each FILE, in the order given, with new ids \
        (sessions from 1, in each file's order); 'tcatrace sessions OUT' shows the file each \
        came from and its id there. Then 'leaks', 'stats' and 'sql' read a fleet's sessions \
        at once, and every other command reads each as in its own file.

        Each FILE is checked whole before anything is copied from it; a damaged one stops the \
        merge with what is wrong. The FILEs are read only, and OUT appears only once complete. \
        A FILE a recorder is still writing gives what it held when its turn came.

        A session OUT holds already is skipped, and the output says which: one reached twice, \
        as when a merged trace and one of the traces it was merged from are both given. It is \
        the same session when it was recorded in the same file with the same id (as each \
        file's sources say; a file is the same when the names given are, or lead to the same \
        file) and has the same name and start.
        """
    )

    @Argument(
      help: ArgumentHelp("The trace to write: a path where there is no file yet.", valueName: "out")
    )
    var out: String

    @Argument(help: ArgumentHelp("The traces to copy the sessions of.", valueName: "file"))
    var files: [String]

    @Option(
      name: .customLong("memory-limit"),
      help: ArgumentHelp(
        "Stop with an error when SQLite needs more than this many megabytes of memory.",
        valueName: "MB"
      )
    )
    var memoryLimit: Int = 1024

    func validate() throws {
      guard self.memoryLimit >= 16, self.memoryLimit <= 1 << 30 else {
        throw ValidationError("--memory-limit is a number of megabytes, from 16 to \(1 << 30)")
      }
    }

    func run() throws {
      SQLiteConnection.limitMemory(toBytes: Int64(self.memoryLimit) * 1_048_576)
      try self.checkPaths()
      let temporary = try TemporaryFile(beside: self.out)
      defer { temporary.discard() }
      var sessions: Int64 = 0
      var actions: Int64 = 0
      var notes: [String] = []
      // NB: The merge's connection is closed before the file is moved into place.
      do {
        let merge = try TraceMerge(path: temporary.path, destination: self.out)
        for file in self.files {
          let copied = try merge.append(file, as: file)
          sessions += copied.sessions
          actions += copied.actions
          for skipped in copied.skipped {
            notes.append(
              "Skipped session \(skipped.id) of '\(file.terminalSafe)': it is session \(skipped.copy) of '\(self.out.terminalSafe)' already."
            )
          }
        }
      }
      try temporary.commit(replacing: false)
      print(
        """
        Merged \(sessions) session\(sessions == 1 ? "" : "s") (\(actions) action\(actions == 1 ? "" : "s")) \
        from \(self.files.count) file\(self.files.count == 1 ? "" : "s") into '\(self.out.terminalSafe)'.
        """
      )
      for note in notes { print(note) }
    }

    /// Refuses an OUT that exists, and a trace given twice.
    private func checkPaths() throws {
      var status = stat()
      if FileName.withCString(self.out, { lstat($0, &status) }) == 0 {
        throw CLIError(
          message:
            "'\(self.out)' exists: merge writes a new trace; give a path where there is no file"
        )
      }
      var seen: [FileStatus.Identity: String] = [:]
      for file in self.files {
        guard let identity = FileStatus(file)?.identity else { continue }
        if let first = seen[identity] {
          throw CLIError(
            message: first == file
              ? "'\(file)' is given twice: give each trace once"
              : "'\(file)' and '\(first)' are the same trace: give each trace once"
          )
        }
        seen[identity] = file
      }
    }
  }
}
