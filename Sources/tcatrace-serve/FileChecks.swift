import Dispatch
import Foundation
import TCATraceFile

/// SQLite's `integrity_check` of each file served, run once for each version of the file (its
/// and its `-wal`'s size and times), where the commands run one each time they read.
///
/// A file of up to ``TraceReader/checkedWholeUpTo`` bytes is checked whole before its first
/// read, as the commands check it: a damaged one is never read from. A larger one is checked in
/// the background from its first read on, and read meanwhile (SQLite still refuses a page it
/// reads that is damaged): checking 400 MB takes seconds, and a request for one page of the log
/// must not wait for it. Once a check fails, every request for that version of the file gets
/// its one line. A file a recorder is writing changes version as it is written: it is checked
/// again, one check at a time.
final class FileChecks: @unchecked Sendable {
  /// A version of a file: the file's and its `-wal`'s snapshots.
  private struct Version: Equatable {
    var file: FileSnapshot?
    var wal: FileSnapshot?

    init(_ path: String) {
      self.file = FileSnapshot(path)
      self.wal = FileSnapshot(path + "-wal")
    }

    /// Whether the file and its `-wal` hold more than ``TraceReader/checkedWholeUpTo``
    /// bytes, as ``TraceFile/size(_:)`` counts them.
    var isLarge: Bool {
      Int(clamping: (self.file?.size ?? 0) + (self.wal?.size ?? 0))
        > TraceReader.checkedWholeUpTo
    }
  }

  private enum Outcome {
    case checking(Version)
    case passed(Version)
    case failed(Version, TraceFileError)
  }

  private let lock = NSLock()
  private var outcomes: [String: Outcome] = [:]

  /// Throws what the check of this version of `path` found; checks a small file first, and
  /// starts checking a large one.
  func verify(_ path: String) throws(TraceFileError) {
    let version = Version(path)
    let isLarge = version.isLarge
    let outcome = self.lock.withLock { self.outcomes[path] }
    switch outcome {
    case let .passed(checked) where checked == version:
      return
    case let .failed(checked, error) where checked == version:
      throw error
    case let .checking(checked) where checked == version || isLarge:
      // NB: This version or an older one of a large file is being checked; a newer one is
      // checked after. A file that is small now is checked before it is read, as any small one.
      return
    default:
      break
    }
    guard isLarge else {
      try self.check(path, version)
      return
    }
    self.record(path, .checking(version))
    DispatchQueue.global(qos: .utility).async {
      do throws(TraceFileError) {
        try self.check(path, version)
      } catch  where error.kind == .corrupt {
        // NB: Recorded by `check`: the next request gets it.
      } catch {
        // NB: Not damage (the file went away, or was locked): the next read checks it again.
        self.lock.withLock { self.outcomes[path] = nil }
      }
    }
  }

  /// Checks `version` of `path` whole, and records what it found when that is damage or none.
  private func check(_ path: String, _ version: Version) throws(TraceFileError) {
    do throws(TraceFileError) {
      try TraceFileAccess(file: path).open().checkIntegrity()
      self.record(path, .passed(version))
    } catch  where error.kind == .corrupt {
      self.record(path, .failed(version, error))
      throw error
    }
  }

  private func record(_ path: String, _ outcome: Outcome) {
    self.lock.withLock { self.outcomes[path] = outcome }
  }
}
