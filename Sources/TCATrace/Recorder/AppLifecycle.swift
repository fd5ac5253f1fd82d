import ActionObservation
import Foundation
import RuntimeSupport

/// The notifications that tell a recorder its app is leaving the foreground and coming back.
///
/// When the app leaves, the recorder writes what is pending, folds the WAL into the file and
/// closes it (see ``TraceRecorder``): a trace copied off a device then is complete, and the app
/// holds no SQLite lock while it is suspended — an app that does, in a container it shares with
/// an extension or another app (an App Group), is killed by iOS (`0xdead10cc`). When it comes
/// back, the recorder opens the file again and goes on.
///
/// NB: Package-level, so that tests post the notifications through a center of their own.
package struct AppLifecycle {
  /// Where the notifications are posted.
  package var center: NotificationCenter
  /// Posted as the app leaves the foreground, or ends.
  package var leaving: [Notification.Name]
  /// Posted as it comes back.
  package var returning: [Notification.Name]

  package init(
    center: NotificationCenter, leaving: [Notification.Name], returning: [Notification.Name]
  ) {
    self.center = center
    self.leaving = leaving
    self.returning = returning
  }

  /// The platform's: UIKit's `didEnterBackgroundNotification` and `willTerminateNotification`,
  /// and `willEnterForegroundNotification`, on iOS (Mac Catalyst too, whose apps quit without
  /// entering the background), tvOS and visionOS; AppKit's `willTerminateNotification` on
  /// macOS, whose apps are not suspended, so that a trace of an app that quits is complete.
  /// None elsewhere (Linux, watchOS).
  ///
  /// NB: By the names the notifications are posted under, which UIKit and AppKit declare as
  /// the values of `UIApplicationDidEnterBackgroundNotification` and the rest: their Swift
  /// names are members of `@MainActor` classes, which this nonisolated code could read only
  /// where the SDK marks them `nonisolated` (UIKit's are; AppKit's may not be).
  package static var platform: Self {
    #if os(iOS) || os(tvOS) || os(visionOS)
      Self(
        center: .default,
        leaving: [
          Notification.Name("UIApplicationDidEnterBackgroundNotification"),
          Notification.Name("UIApplicationWillTerminateNotification"),
        ],
        returning: [Notification.Name("UIApplicationWillEnterForegroundNotification")]
      )
    #elseif os(macOS)
      Self(
        center: .default, leaving: [Notification.Name("NSApplicationWillTerminateNotification")],
        returning: [])
    #else
      Self(center: .default, leaving: [], returning: [])
    #endif
  }

  /// Calls `leave` and `return` as the notifications come, on the thread that posts them, until
  /// the returned observation is stopped.
  func observe(
    leave: @escaping @Sendable () -> Void, return comeBack: @escaping @Sendable () -> Void
  ) -> Observation {
    var tokens: [any NSObjectProtocol] = []
    for name in self.leaving {
      tokens.append(
        self.center.addObserver(forName: name, object: nil, queue: nil) { _ in leave() })
    }
    for name in self.returning {
      tokens.append(
        self.center.addObserver(forName: name, object: nil, queue: nil) { _ in comeBack() })
    }
    return Observation(center: self.center, tokens: tokens)
  }

  /// The observers ``observe(leave:return:)`` added; removed when it is stopped.
  final class Observation: Sendable {
    private let state: Locked<(center: NotificationCenter, tokens: [any NSObjectProtocol])>

    init(center: NotificationCenter, tokens: [any NSObjectProtocol]) {
      self.state = Locked((center, tokens))
    }

    func stop() {
      self.state.withLock { state in
        for token in state.tokens { state.center.removeObserver(token) }
        state.tokens = []
      }
    }

    deinit { self.stop() }
  }
}
