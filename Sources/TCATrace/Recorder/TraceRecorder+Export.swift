import Foundation
import TCATraceFile

extension TraceRecorder {
  /// Writes the session this recorder records, as far as it is recorded, into a new trace file
  /// at `url`: a small, self-contained file (no WAL beside it, none of the file's other
  /// sessions) for a bug report, which a share sheet or a crash reporter can attach and every
  /// `tcatrace` command reads. It is what `tcatrace export FILE --format trace --session …`
  /// writes; `tcatrace sessions` says which file and session it came from.
  ///
  /// ```swift
  /// let url = FileManager.default.temporaryDirectory.appending(path: "bug-report.db")
  /// try await recorder.exportSession(to: url, last: .seconds(300))
  /// ```
  ///
  /// The store goes on meanwhile: what is pending is written first, then the trace is read and
  /// the export written on a task of its own, never on the caller's actor.
  ///
  /// - Parameters:
  ///   - url: A file URL where there is no file yet; its folder must exist.
  ///   - last: Keep only the actions that began in the session's last stretch of this length
  ///     (counted back from the end of its last action), and the state before them, from which
  ///     every later state rebuilds; the session counts the rest as trimmed. Default: `nil`, the
  ///     whole session.
  /// - Throws: `TraceFileError`: of kind `.notWritable` when `url` holds a file already or
  ///   cannot be written (nothing is left there); `.notInFile` when the recorder has written no
  ///   session (it could not write its file); the errors of a trace that cannot be read.
  public func exportSession(to url: URL, last: Duration? = nil) async throws {
    let destination = url.path
    guard let writer = self.writer else {
      throw TraceFileError(
        kind: .notInFile, path: self.path,
        message: "holds no session of this recorder: the recorder could not write to it")
    }
    await writer.flushed()
    guard let session = writer.writtenSessionID else {
      throw TraceFileError(
        kind: .notInFile, path: self.path,
        message:
          "holds no session of this recorder yet: it writes one once a store records with it")
    }
    if FileManager.default.fileExists(atPath: destination) {
      throw TraceFileError(
        kind: .notWritable, path: destination,
        message: "exists: an export writes a new trace; give a path where there is no file")
    }
    let stretch = last.map { Int64(clamping: $0.clampedNanoseconds) }
    let source = self.path
    try await Task.detached(priority: .utility) {
      try Self.export(session: session, of: source, to: destination, keepingLast: stretch)
    }.value
  }

  /// Copies `session` of the trace at `source` into a new trace at `destination`, keeping its
  /// last `stretch` nanoseconds when given; see ``exportSession(to:last:)``.
  private static func export(
    session: Int64, of source: String, to destination: String, keepingLast stretch: Int64?
  ) throws(TraceFileError) {
    let name = URL(fileURLWithPath: destination).lastPathComponent
    let temporary = URL(fileURLWithPath: destination).deletingLastPathComponent()
      .appendingPathComponent(".\(name).tcatrace-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: temporary) }
    // NB: The merge's connection is closed before the file is moved into place.
    do {
      let merge = try TraceMerge(path: temporary, destination: destination)
      try merge.append(source, as: source, sessions: [session])
      if let stretch { try merge.keepLast(nanoseconds: stretch) }
      try merge.compact()
    }
    do {
      // NB: The merge writes without syncs: the file is synced once, complete. A hard link puts
      // it in place only where there is no file, which a move would replace.
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
      try handle.synchronize()
      try handle.close()
      try FileManager.default.linkItem(atPath: temporary, toPath: destination)
    } catch {
      throw TraceFileError(
        kind: .notWritable, path: destination,
        message: "cannot be written (\(error.localizedDescription)): nothing was written there")
    }
  }
}
