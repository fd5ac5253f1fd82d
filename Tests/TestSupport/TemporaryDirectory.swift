import Foundation

/// A fresh directory under the system's temporary directory, removed when the test ends.
public final class TemporaryDirectory {
  public let url: URL

  public init() throws {
    self.url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tcatrace-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: self.url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: self.url)
  }

  /// The path of `name` inside the directory.
  public func path(_ name: String) -> String {
    self.url.appendingPathComponent(name).path
  }
}
