import Foundation

/// Reads a child process's output line by line, as it arrives, each read on a thread of its own
/// and with a deadline.
///
/// NB: A read that blocked the test's own thread (the main actor, for store tests) held every
/// other test waiting on it, and one that never ended held the run; a line that does not come
/// now fails the test with what did come.
public final class LineReader: @unchecked Sendable {
  // NB: `@unchecked`: one test reads, one call after another; a call's thread has ended its
  // work on `buffer` before the call returns.
  private let handle: FileHandle
  private var buffer = Data()

  /// A line that did not come in time.
  public struct TimedOut: Error, CustomStringConvertible {
    public let description: String
  }

  public init(_ handle: FileHandle) {
    self.handle = handle
  }

  /// The next line, or `nil` at the end of the output.
  ///
  /// - Throws: ``TimedOut`` when neither came within `seconds`.
  public func next(within seconds: Double = 60) async throws -> String? {
    let deadline = Date(timeIntervalSinceNow: seconds)
    return try await onThreadOfItsOwn { [self] in
      try self.nextLine(before: deadline, seconds: seconds)
    }
  }

  /// The next `count` lines; fewer if the output ends first.
  ///
  /// - Throws: ``TimedOut`` when they did not come within `seconds`.
  public func next(_ count: Int, within seconds: Double = 60) async throws -> [String] {
    let deadline = Date(timeIntervalSinceNow: seconds)
    return try await onThreadOfItsOwn { [self] in
      var lines: [String] = []
      while lines.count < count, let line = try self.nextLine(before: deadline, seconds: seconds) {
        lines.append(line)
      }
      return lines
    }
  }

  private func nextLine(before deadline: Date, seconds: Double) throws -> String? {
    while true {
      if let newline = self.buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: self.buffer[..<newline], as: UTF8.self)
        self.buffer.removeSubrange(...newline)
        return line
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else {
        throw TimedOut(
          description:
            "No line came within \(seconds) s; since the last: \(String(decoding: self.buffer, as: UTF8.self).debugDescription)"
        )
      }
      var descriptor = pollfd(fd: self.handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(min(remaining, 1) * 1_000) + 1)
      guard ready > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = chunk.withUnsafeMutableBytes {
        read(self.handle.fileDescriptor, $0.baseAddress, $0.count)
      }
      if count > 0 {
        self.buffer.append(contentsOf: chunk[..<count])
      } else if count == 0 || errno != EINTR {
        return nil
      }
    }
  }
}
