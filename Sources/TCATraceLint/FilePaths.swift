import Foundation

/// The path arithmetic the linter and its program share: absolute paths, the nearest file of a
/// name above a folder, a path from a folder.
package enum FilePaths {
  /// `path` made absolute (from the working directory) and standardized.
  package static func standardized(_ path: String) -> String {
    let absolute =
      path.hasPrefix("/")
      ? path
      : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    return URL(fileURLWithPath: absolute).standardizedFileURL.path
  }

  /// The nearest `name` at or above `directory`, or `nil`.
  package static func nearest(_ name: String, atOrAbove directory: String) -> String? {
    var url = URL(fileURLWithPath: Self.standardized(directory), isDirectory: true)
    while true {
      let candidate = url.appendingPathComponent(name).path
      if FileManager.default.fileExists(atPath: candidate) { return candidate }
      let parent = url.deletingLastPathComponent()
      if parent.path == url.path { return nil }
      url = parent
    }
  }

  /// `absolute` (standardized) from `folder` (absolute, standardized), with `/`; as given when
  /// it is outside `folder`.
  package static func relative(_ absolute: String, to folder: String) -> String {
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
  }
}
