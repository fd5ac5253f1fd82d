import ToolSupport
import TCATraceFile

/// A file written beside its destination under a temporary name and moved there once
/// complete, so that a command that fails (damaged input, a full disk) leaves no partial file
/// and what was at the destination as it was.
final class TemporaryFile {
  /// The file's temporary path: `.NAME.tcatrace-XXXXXX` beside the destination.
  let path: String
  /// Where it goes.
  let destination: String
  /// The file, open for writing until it is committed or discarded.
  let descriptor: Int32
  private var isOpen = true

  /// Creates an empty file beside `destination`, whose folder must exist.
  init(beside destination: String) throws(CLIError) {
    self.destination = destination
    let slash = destination.lastIndex(of: "/")
    let folder = slash.map { String(destination[..<$0]) } ?? "."
    let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
    var template = FileName.bytes("\(folder.isEmpty ? "/" : folder)/.\(name).tcatrace-XXXXXX")
    template.append(0)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
    }
    guard descriptor >= 0 else {
      throw CLIError(
        message:
          "cannot write '\(destination)' (\(String(cString: strerror(errno)))): check that its folder exists and can be written"
      )
    }
    self.path = FileName.decode(template.dropLast())
    // NB: `mkstemp` makes the file for its owner alone; the result is as readable as any file
    // the user writes.
    let mask = umask(0)
    umask(mask)
    fchmod(descriptor, 0o666 & ~mask)
    self.descriptor = descriptor
  }

  deinit {
    self.discard()
  }

  /// Removes the file: the command failed.
  func discard() {
    guard self.isOpen else { return }
    self.isOpen = false
    close(self.descriptor)
    FileName.withCString(self.path) { _ = unlink($0) }
  }

  /// Writes what was written to the disk, and moves the file to its destination.
  ///
  /// - Parameter replacing: Whether a file at the destination is replaced; otherwise one that
  ///   is there (made since the command began) fails the commit, and is left as it is.
  func commit(replacing: Bool) throws(CLIError) {
    guard self.isOpen else { return }
    let synced = fsync(self.descriptor) == 0
    let reason = String(cString: strerror(errno))
    guard synced else {
      self.discard()
      throw CLIError(
        message: "cannot write '\(self.destination)' (\(reason)): nothing was written there")
    }
    let moved = FileName.withCString(self.path) { from in
      FileName.withCString(self.destination) { to in
        // NB: A link fails where a file is; rename would replace it. Where links cannot be
        // made (some file systems), the file is renamed once nothing is seen there.
        guard !replacing else { return rename(from, to) == 0 }
        if link(from, to) == 0 { return true }
        guard errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP || errno == EMLINK else {
          return false
        }
        var status = stat()
        guard lstat(to, &status) != 0, errno == ENOENT else {
          errno = EEXIST
          return false
        }
        return rename(from, to) == 0
      }
    }
    let error = errno
    self.discard()
    guard moved else {
      if error == EEXIST {
        throw CLIError(
          message:
            "'\(self.destination)' was made while this command ran: nothing was written there")
      }
      throw CLIError(
        message:
          "cannot write '\(self.destination)' (\(String(cString: strerror(error)))): nothing was written there"
      )
    }
  }
}
