import TCATraceFile
import ToolSupport

/// Where an export's bytes go: `tcatrace export`'s file, standard output or OTLP/HTTP receiver,
/// or the answer `tcatrace serve` sends.
package protocol ExportDestination: AnyObject {
  /// Writes the next bytes of the export.
  func write(_ bytes: [UInt8]) throws(CLIError)
}

/// A format `tcatrace export` writes, session by session, as the actions are read.
package protocol SessionExporter {
  init(output: any ExportDestination)
  /// Starts a session.
  mutating func begin(_ session: TraceSession) throws(CLIError)
  /// Writes one of its actions, in seq order.
  mutating func write(_ action: TracedAction) throws(CLIError)
  /// Ends the session.
  mutating func end() throws(CLIError)
  /// Ends the output and writes what is left.
  mutating func finish() throws(CLIError)
}

extension SessionExporter {
  /// Writes `sessions`, as `reader` reads their actions, to `output`.
  package static func export(
    _ sessions: [TraceSession], from reader: TraceReader, to output: any ExportDestination
  ) throws {
    var exporter = Self(output: output)
    for session in sessions {
      try exporter.begin(session)
      try reader.forEachAction(matching: TraceFilter(session: session.id)) { action in
        try exporter.write(action)
      }
      try exporter.end()
    }
    try exporter.finish()
  }
}

/// An export kept in memory, whole: what `tcatrace serve` answers with.
package final class ExportBuffer: ExportDestination {
  package private(set) var bytes: [UInt8] = []

  package init() {}

  package func write(_ bytes: [UInt8]) throws(CLIError) {
    self.bytes += bytes
  }
}
