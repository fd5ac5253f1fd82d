import Foundation
import TCATrace
import TCATraceFile
import TestSupport
import Testing

/// Issue #73: a recorder left on in every QA build keeps its file within a size limit.
@MainActor
@Suite(.hangGuard)
struct SizeLimitTests {
  /// Three sessions of 20,000 actions under a 1 MB limit: the file and its WAL are within it
  /// whenever the writer has caught up, the oldest sessions go first, the last action of the
  /// last session is there, and the state after every action kept rebuilds.
  @Test func threeLongSessionsStayWithinAMegabyte() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("qa.db")
    let limit = 1_000_000
    var largest = 0
    for _ in 1...3 {
      let recorder = try TraceRecorder(path: path, sizeLimit: limit, policy: .recordOnly)
      #expect(recorder.sizeLimit == limit)
      let store = RecordingStore(initialState: TapCounter.State(), recorder: recorder) {
        TapCounter()
      }
      for sent in 1...20_000 {
        store.send(.increment)
        if sent.isMultiple(of: 1_000) {
          await recorder.flush()
          largest = max(largest, TraceFile.size(path))
        }
      }
      try await recorder.close()
      largest = max(largest, TraceFile.size(path))
    }
    #expect(largest <= limit, "the file and its WAL reached \(largest) bytes")
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

    let reader = try TraceReader(path: path)
    let sessions = try reader.sessions()
    let last = try #require(sessions.last)
    #expect(last.id == 3)
    #expect(sessions.map(\.id) == Array(sessions.first!.id...3), "the oldest went first")
    #expect(last.droppedActions == 0)
    #expect(last.trimmedActions > 0)
    #expect(last.actionCount + last.trimmedActions == 20_000)
    #expect(try reader.lastSeq(session: 3) == 20_000)
    let first = try reader.firstStep(session: 3)
    #expect(first == last.trimmedActions)
    for seq in [first, first + 1] + Array(stride(from: first + 1_000, through: 20_000, by: 1_000)) {
      #expect(
        try reader.renderedState(session: 3, after: seq) == "TapCounter.State(count: \(seq))")
    }
    #expect(throws: TraceFileError.self) { try reader.renderedState(session: 3, after: first - 1) }
  }

  /// A file that grew without a limit is brought within one by the first recorder given it:
  /// its oldest sessions removed whole, the newer ones kept, and the file vacuumed once.
  @Test func aFileThatGrewWithoutALimitIsBroughtWithinIt() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("old.db")
    for _ in 1...12 {
      let recorder = try TraceRecorder(path: path, policy: .recordOnly)
      let store = RecordingStore(initialState: TapCounter.State(), recorder: recorder) {
        TapCounter()
      }
      for _ in 1...100 { store.send(.increment) }
      try await recorder.close()
    }
    let grown = TraceFile.size(path)
    let limit = 256 * 1024
    #expect(grown > limit)

    let recorder = try TraceRecorder(path: path, sizeLimit: limit, policy: .recordOnly)
    let store = RecordingStore(initialState: TapCounter.State(), recorder: recorder) {
      TapCounter()
    }
    for _ in 1...10 { store.send(.increment) }
    try await recorder.close()

    #expect(TraceFile.size(path) <= limit)
    let reader = try TraceReader(path: path)
    let sessions = try reader.sessions()
    #expect(sessions.last?.id == 13)
    #expect(sessions.last?.actionCount == 10)
    #expect(sessions.last?.trimmedActions == 0)
    // The sessions left are the newest, whole: the oldest went first.
    #expect(sessions.count >= 3 && sessions.count < 13, "\(sessions.count) sessions left")
    #expect(sessions.map(\.id) == Array(Int64(14 - sessions.count)...13))
    #expect(sessions.dropLast().allSatisfy { $0.actionCount == 100 && $0.trimmedActions == 0 })
    // The header says incremental vacuum (a non-zero big-endian integer at byte 64).
    let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(68)
    #expect(header.suffix(4) == Data([0, 0, 0, 1]))
  }

  @Test func aLimitBelowTheLeastIsRaisedToIt() throws {
    let directory = try TemporaryDirectory()
    let recorder = try TraceRecorder(path: directory.path("small.db"), sizeLimit: 1)
    #expect(recorder.sizeLimit == 256 * 1024)
  }
}
