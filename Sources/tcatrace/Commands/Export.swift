import ArgumentParser
import ToolSupport
import TCATraceFile
import TraceFormats

extension TCATraceCommand {
  /// `tcatrace export FILE --format perfetto`: a trace for a timeline viewer.
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Write sessions as a timeline or a new trace.",
      discussion: """
        --format perfetto writes Trace Event JSON, which ui.perfetto.dev and chrome://tracing \
        open: each session a process, each feature a track, each action a slice of its \
        reducer time named by its category and case; effects as async slices from the action \
        that returned them to the last action they sent, with an arrow to each action they \
        sent; leaks as instant events on the feature that leaked, named by the rule. Values \
        redacted when recorded stay redacted.

        --format otlp writes OpenTelemetry traces in OTLP's JSON encoding: a trace per \
        session (service.name: its root feature), a span per action with the action whose \
        effect sent it as its parent, its category, feature, case, origin, payload and changed \
        state paths as attributes, its leaks as events. Each line is one \
        ExportTraceServiceRequest of up to 1,000 spans, as an OpenTelemetry Collector's \
        otlpjsonfile receiver reads them. Ids are derived from the session and the action, so \
        exporting a session again gives the same ids.

        --format trace writes a trace file of its own (SQLite, as a recorder writes) with the \
        sessions chosen, for a bug report: every command reads it, and 'tcatrace sessions' \
        says which file and session each came from. With --last, each keeps only its actions \
        of that last stretch of time (from the end of its last action) and the state before \
        them, rebuilt from the trace (where it cannot be rebuilt, the session starts at the \
        next whole state the recorder kept, a few actions later); 'tcatrace sessions' counts \
        those trimmed.

        The output goes to standard output, or with --out to a file, which appears only once \
        complete; with --endpoint (otlp), each line is POSTed to an OTLP/HTTP receiver. A \
        trace goes only to a new file (--out), and the trace it comes from is read only.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
      /// Trace Event JSON, for Perfetto and chrome://tracing.
      case perfetto
      /// OpenTelemetry traces in OTLP's JSON encoding, a request per line.
      case otlp
      /// A trace file of its own, with the sessions chosen.
      case trace
    }

    @OptionGroup var trace: TraceFileArguments
    @OptionGroup var sessionOptions: SessionOptions

    @Option(help: "The format: perfetto, otlp or trace.")
    var format: Format

    @Option(
      help: ArgumentHelp(
        "With --format trace: keep only each session's last stretch of this long.",
        discussion: "A number with its unit: 500ms, 90s, 5m or 2h.",
        valueName: "duration"
      )
    )
    var last: Stretch?

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var out: String?

    @Option(
      help: ArgumentHelp(
        "With --format otlp: send to this OTLP/HTTP receiver instead, a POST per line.",
        discussion: "An http:// address; with no path, OTLP's /v1/traces: http://localhost:4318.",
        valueName: "url"
      )
    )
    var endpoint: String?

    @Option(
      help: ArgumentHelp(
        "With --endpoint: how long each request may take, in seconds.", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
      if self.format == .trace {
        guard self.out != nil, self.endpoint == nil else {
          throw ValidationError(
            "--format trace writes a trace file: give its path with --out (a new file)")
        }
      } else if self.last != nil {
        throw ValidationError(
          "--last keeps part of a session in a trace: use it with --format trace")
      }
      if self.endpoint != nil {
        guard self.format == .otlp else {
          throw ValidationError("--endpoint sends OTLP: use it with --format otlp")
        }
        guard self.out == nil else {
          throw ValidationError("--endpoint and --out both say where the export goes: give one")
        }
        do {
          _ = try HTTPEndpoint(self.endpoint!)
        } catch {
          throw ValidationError(error.message)
        }
      }
      guard self.timeout > 0, self.timeout.isFinite else {
        throw ValidationError("--timeout must be a number of seconds above 0")
      }
    }

    func run() throws {
      if self.format == .trace, let out = self.out {
        try self.exportTrace(to: out)
        return
      }
      // NB: The destination is prepared once the trace has opened, and a failure after that
      // (damage found while reading, a full disk) removes what was written of it.
      var output: ExportOutput?
      defer { output?.discard() }
      try self.trace.read(checking: ["sessions", "actions", "leaks", "state_changes"]) { reader in
        let selected = try self.sessionOptions.session.resolve(in: reader)
        let destination = try self.output()
        output = destination
        let sessions = try selected.map { [try reader.session(id: $0)] } ?? reader.sessions()
        switch self.format {
        case .perfetto:
          try PerfettoTrace.export(sessions, from: reader, to: destination)
        case .otlp: try OTLPTrace.export(sessions, from: reader, to: destination)
        // NB: Written by `exportTrace(to:)`, before the trace is read here.
        case .trace: break
        }
      }
      try output?.commit()
      if let output, let url = output.endpointURL {
        let requests = output.requestsSent
        print("Sent \(requests) request\(requests == 1 ? "" : "s") to \(url).")
      }
    }

    /// `--format trace`: the sessions chosen copied into a new trace at `out` (see `TraceMerge`),
    /// each cut to its last stretch with `--last`, and compacted.
    private func exportTrace(to out: String) throws {
      SQLiteConnection.limitMemory(toBytes: Int64(self.trace.memoryLimit) * 1_048_576)
      var status = stat()
      if FileName.withCString(out, { lstat($0, &status) }) == 0 {
        throw CLIError(
          message:
            "'\(out)' exists: export writes a new trace; give a path where there is no file"
        )
      }
      let selected = try self.sessionOptions.session.resolve(in: try self.trace.open())
      let temporary = try TemporaryFile(beside: out)
      defer { temporary.discard() }
      let copied: (sessions: Int64, actions: Int64)
      var trimmed = 0
      // NB: The merge's connection is closed before the file is moved into place.
      do {
        let merge = try TraceMerge(path: temporary.path, destination: out)
        let appended = try merge.append(
          self.trace.file, as: self.trace.file, sessions: selected.map { [$0] })
        copied = (appended.sessions, appended.actions)
        if let last = self.last { trimmed = try merge.keepLast(nanoseconds: last.nanoseconds) }
        try merge.compact()
      }
      try temporary.commit(replacing: false)
      let kept = copied.actions - Int64(trimmed)
      let plural = { (count: Int64, noun: String) in "\(count) \(noun)\(count == 1 ? "" : "s")" }
      print(
        "Exported \(plural(copied.sessions, "session")) (\(plural(kept, "action"))"
          + (trimmed > 0 ? "; \(trimmed) before them trimmed by --last" : "")
          + ") to '\(out.terminalSafe)'."
      )
    }

    /// A stretch of time given as `--last`: a number and its unit.
    struct Stretch: ExpressibleByArgument {
      var nanoseconds: Int64

      init?(argument: String) {
        let units: [(suffix: String, nanoseconds: Double)] = [
          ("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3_600e9),
        ]
        guard let unit = units.first(where: { argument.hasSuffix($0.suffix) }),
          let number = Double(argument.dropLast(unit.suffix.count)), number.isFinite, number > 0,
          number * unit.nanoseconds < 9e18
        else { return nil }
        self.nanoseconds = Int64(number * unit.nanoseconds)
      }
    }

    /// Where the export goes; refuses to write over the trace itself.
    private func output() throws -> ExportOutput {
      if let endpoint = self.endpoint {
        return ExportOutput(endpoint: try HTTPEndpoint(endpoint), timeout: self.timeout)
      }
      guard let out = self.out else { return ExportOutput() }
      if let trace = FileStatus(self.trace.file), let outStatus = FileStatus(out) {
        if trace.identity == outStatus.identity {
          throw CLIError(message: "--out '\(out)' is the trace itself: give another file")
        }
        if outStatus.isDirectory {
          throw CLIError(message: "--out '\(out)' is a folder: give a file's path")
        }
      }
      return try ExportOutput(path: out)
    }
  }
}
