import Foundation

/// Where a recorder's file goes.
///
/// NB: A relative path resolves against the working directory, which in an iOS app is `/`,
/// where nothing can be written: the README's `TraceRecorder(path: "session.db")` recorded
/// nothing there. In an app, a relative path is in its Documents directory instead, which the
/// app may write, and which Xcode's and `simctl`'s container commands copy off.
package enum TracePath {
  /// `path` as a recorder opens it: an absolute path as it is; a relative one inside
  /// `directory`, or as it is (against the working directory) when `directory` is `nil`.
  package static func resolve(_ path: String, in directory: String?) -> String {
    guard let directory, !path.isEmpty, !path.hasPrefix("/") else { return path }
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
  }

  /// Where a relative path resolves on this platform: the app's Documents directory on iOS,
  /// watchOS and visionOS, and in a macOS app (a process run from an `.app` bundle); its Caches
  /// directory on tvOS, where an app has no Documents directory it may write (the system may
  /// empty Caches while the app is not running); `nil` for a command-line program, a test, and
  /// on Linux, whose working directory is meant.
  package static var platformDirectory: String? {
    #if os(tvOS)
      return FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?.path
    #elseif os(iOS) || os(watchOS) || os(visionOS)
      return FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first?.path
    #elseif os(macOS)
      guard Bundle.main.bundleURL.pathExtension == "app" else { return nil }
      return FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first?.path
    #else
      return nil
    #endif
  }
}
