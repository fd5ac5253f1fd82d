import ArgumentParser
import ToolSupport
import TCATraceFile
import TraceFormats

extension TCATraceCommand {
  /// `tcatrace export FILE --format perfetto`: a trace for a timeline viewer.
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Write a trace's sessions in a timeline viewer's format.",
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

        The output goes to standard output, or with --out to a file, which appears only once \
        complete; with --endpoint (otlp), each line is POSTed to an OTLP/HTTP receiver.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
      /// Trace Event JSON, for Perfetto and chrome://tracing.
      case perfetto
      /// OpenTelemetry traces in OTLP's JSON encoding, a request per line.
      case otlp
    }

    @OptionGroup var trace: TraceFileArguments
    @OptionGroup var sessionOptions: SessionOptions

    @Option(help: "The format: perfetto or otlp.")
    var format: Format

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
        }
      }
      try output?.commit()
      if let output, let url = output.endpointURL {
        let requests = output.requestsSent
        print("Sent \(requests) request\(requests == 1 ? "" : "s") to \(url).")
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
