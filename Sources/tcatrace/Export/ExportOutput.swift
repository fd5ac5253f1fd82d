import ToolSupport
import TraceFormats

/// Where an export goes: standard output, a file that appears whole or not at all, or an
/// OTLP/HTTP receiver.
///
/// A file is written beside its destination under a temporary name and moved over it once
/// complete, so that an export that fails (a damaged trace, a full disk) leaves no partial
/// file, and an earlier export at that path as it was.
final class ExportOutput: ExportDestination {
  private let destination: String?
  private var temporary: (file: TemporaryFile, stream: UnsafeMutablePointer<FILE>)?
  private var endpoint: (address: HTTPEndpoint, timeout: Double)?
  /// For an endpoint: what was written of a line not yet complete.
  private var pending: [UInt8] = []
  /// For an endpoint: the requests sent.
  private(set) var requestsSent = 0
  /// The receiver's address, for an endpoint.
  var endpointURL: String? { self.endpoint?.address.url }

  /// Standard output.
  init() {
    self.destination = nil
  }

  /// An OTLP/HTTP receiver: each line written is the body of one `POST`, sent once complete.
  init(endpoint: HTTPEndpoint, timeout: Double) {
    self.destination = nil
    self.endpoint = (endpoint, timeout)
  }

  /// A file at `path`; its folder must exist.
  init(path: String) throws(CLIError) {
    self.destination = path
    let temporary = try TemporaryFile(beside: path)
    // NB: A descriptor of its own, which closing the stream closes.
    guard let file = fdopen(dup(temporary.descriptor), "w") else {
      throw CLIError(message: "cannot write '\(path)' (\(String(cString: strerror(errno))))")
    }
    self.temporary = (temporary, file)
  }

  deinit {
    self.discard()
  }

  /// Removes what was written of a file not yet committed: the export failed.
  func discard() {
    guard let temporary = self.temporary else { return }
    self.temporary = nil
    fclose(temporary.stream)
    temporary.file.discard()
  }

  func write(_ bytes: [UInt8]) throws(CLIError) {
    if let endpoint = self.endpoint {
      self.pending += bytes
      var start = 0
      while let newline = self.pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
        try endpoint.address.post(self.pending[start..<newline], timeout: endpoint.timeout)
        self.requestsSent += 1
        start = newline + 1
      }
      self.pending.removeFirst(start)
      return
    }
    guard let temporary = self.temporary else {
      bytes.withUnsafeBufferPointer { writeOutput($0) }
      return
    }
    let written = bytes.withUnsafeBufferPointer {
      fwrite($0.baseAddress, 1, $0.count, temporary.stream)
    }
    guard written == bytes.count else {
      throw CLIError(
        message:
          "cannot write '\(self.destination ?? "")' (\(String(cString: strerror(errno)))): nothing was written there"
      )
    }
  }

  /// Moves a complete file into place; for standard output, flushes it.
  func commit() throws(CLIError) {
    if let endpoint = self.endpoint {
      if !self.pending.isEmpty {
        try endpoint.address.post(self.pending[...], timeout: endpoint.timeout)
        self.requestsSent += 1
        self.pending = []
      }
      return
    }
    guard let temporary = self.temporary, let destination = self.destination else {
      finishOutput()
      return
    }
    self.temporary = nil
    let flushed = fflush(temporary.stream) == 0
    let reason = String(cString: strerror(errno))
    fclose(temporary.stream)
    guard flushed else {
      temporary.file.discard()
      throw CLIError(
        message: "cannot write '\(destination)' (\(reason)): nothing was written there")
    }
    try temporary.file.commit(replacing: true)
  }
}
