import Foundation

/// Reads a child process's output line by line, as it arrives.
public final class LineReader {
  private let handle: FileHandle
  private var buffer = Data()

  public init(_ handle: FileHandle) {
    self.handle = handle
  }

  /// The next line, or `nil` at the end of the output.
  public func next() -> String? {
    while true {
      if let newline = self.buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: self.buffer[..<newline], as: UTF8.self)
        self.buffer.removeSubrange(...newline)
        return line
      }
      let data = self.handle.availableData
      guard !data.isEmpty else { return nil }
      self.buffer.append(data)
    }
  }

  /// The next `count` lines; fewer if the output ends first.
  public func next(_ count: Int) -> [String] {
    var lines: [String] = []
    while lines.count < count, let line = self.next() {
      lines.append(line)
    }
    return lines
  }
}
