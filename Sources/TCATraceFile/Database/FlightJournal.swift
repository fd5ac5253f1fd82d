// NB: Darwin declares what is called here as glibc does: `open` and `O_NONBLOCK` (<fcntl.h>),
// `fstat` and `S_IFREG` (<sys/stat.h>), `read`, `close`, `getpid` and `unlink` (<unistd.h>),
// `kill(pid_t, int)` (<signal.h>), `errno` and `EPERM` (<sys/errno.h>).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The flight journal: the file `<trace>-flight` beside a trace (kept as
/// `<trace>-flight-<session id>` by the next recorder when it holds a session's actions), where a recorder's store thread
/// writes each action before its reducer runs, so that the actions its writer had not committed
/// when the process died, and the one whose reducer it died in, are there after the process.
///
/// The recorder maps the file shared: its pages are the kernel's, and what the store's thread
/// stored in them is in the file however the process ends (a crash, `SIGKILL`), with no system
/// call per action. Its layout, in the byte order of the machine that wrote it:
///
/// - A header of 64 bytes: the magic `TCAFLIT1`; the number of slots and their size (`UInt32`
///   each); then `Int64`s: the recording process's id, the session's id in the trace (0 until
///   its row is committed), the seq of the last action committed, and 1 once the recorder
///   closed the session (the last two written as words, which are 32 bits on arm64_32: their
///   high half stays the zeros the file began with); then the session's stamp, a `UInt64` that
///   ties the journal to the session's row (``stamp(startedAt:)`` of its `started_at`), so that
///   a journal left beside another trace later put at the same path is not read as its.
/// - Slots: action `seq` is in slot `seq % slots`. A slot holds `Int64`s — its seq, its state
///   (0 while it is written, 1 while its reducer runs, 2 once it returned; a word, as above),
///   the seq of the
///   action whose effect sent it (0 for a send), its time in nanoseconds since the session
///   started — then `UInt32` flags (1: an effect sent it; 2: its payload is withheld, as the
///   recorder redacts values; 4: its payload did not fit), and the lengths of its texts
///   (`UInt32.max` for none), then their UTF-8: path, root category, feature, category, case
///   name, payload, payload JSON.
///
/// A journal is untrusted, as a trace is: ``read(tracePath:)`` checks every length against the
/// file's.
package struct FlightJournal: Sendable, Equatable {
  /// The file beside `tracePath`.
  package static func path(forTrace tracePath: String) -> String { tracePath + "-flight" }

  /// Where the next recorder keeps the journal of session `session`, whose process ended
  /// without closing it, until it is folded into the trace.
  package static func path(forTrace tracePath: String, session: Int) -> String {
    tracePath + "-flight-\(session)"
  }

  package static let magic: [UInt8] = Array("TCAFLIT1".utf8)
  package static let headerSize = 64
  /// The slots a recorder makes: the last 128 actions.
  package static let slotCount = 128
  /// The bytes of a slot: an action whose texts do not fit loses its payload JSON, then its
  /// payload.
  package static let slotSize = 2048
  /// The bytes of a recorder's journal.
  package static var fileSize: Int { Self.headerSize + Self.slotCount * Self.slotSize }

  /// Header offsets.
  package enum Header {
    package static let slotCount = 8
    package static let slotSize = 12
    package static let pid = 16
    package static let sessionID = 24
    package static let committedSeq = 32
    package static let ended = 40
    package static let sessionStamp = 48
  }

  /// Slot offsets.
  package enum Slot {
    package static let seq = 0
    package static let state = 8
    package static let causeSeq = 16
    package static let timeNs = 24
    package static let flags = 32
    package static let lengths = 36
    package static let textCount = 7
    package static let text = 36 + 4 * 7
  }

  /// A slot's state.
  package enum EntryState: UInt64, Sendable {
    /// Its reducer was running: the process ended in it, if it is the last.
    case inReducer = 1
    /// Its reducer returned; its state change is not in the journal.
    case returned = 2
  }

  /// Flags of an entry.
  package static let flagEffect: UInt32 = 1
  package static let flagWithheld: UInt32 = 2
  package static let flagTruncated: UInt32 = 4

  /// One action in the journal.
  package struct Entry: Sendable, Equatable {
    package var seq: Int
    package var state: EntryState
    /// The action whose effect sent it; `nil` for a send.
    package var causeSeq: Int?
    package var timeNs: Int64
    package var path: String
    package var rootCategory: String
    package var feature: String
    package var category: String
    package var caseName: String
    package var payload: String?
    package var payloadJSON: String?
    /// The payload is not in the journal: the recorder redacts values, which it can only do
    /// once the reducer has returned.
    package var isWithheld: Bool
    /// The payload did not fit in its slot.
    package var isTruncated: Bool
  }

  /// The process that recorded.
  package var pid: Int
  /// The session's id in the trace; `nil` when its row was not committed.
  package var sessionID: Int?
  /// ``stamp(startedAt:)`` of the session's `started_at`; 0 until its row is committed.
  package var sessionStamp: UInt64
  /// The last action committed to the trace; 0 for none.
  package var committedSeq: Int
  /// Whether the recorder closed the session: the journal then holds nothing the trace lacks.
  package var hasEnded: Bool
  /// The actions after ``committedSeq``, in order: those the trace lacks.
  package var uncommitted: [Entry]

  /// The action whose reducer the process ended in: the last entry, when its reducer had not
  /// returned.
  package var endedIn: Entry? {
    guard !self.hasEnded, let last = self.uncommitted.last, last.state == .inReducer else {
      return nil
    }
    return last
  }

  /// The journal beside `tracePath`, read; `nil` when there is none, or it is not a journal
  /// this version reads (a damaged or hostile file is left alone, as if it were not there).
  package static func read(tracePath: String) -> FlightJournal? {
    Self.read(path: Self.path(forTrace: tracePath))
  }

  /// The journal at `path`; `nil` as for ``read(tracePath:)``.
  package static func read(path: String) -> FlightJournal? {
    guard let bytes = Self.readFile(path) else { return nil }
    return Self.parse(bytes)
  }

  /// The journal in `bytes`; `nil` when they are not one.
  package static func parse(_ bytes: [UInt8]) -> FlightJournal? {
    guard bytes.count >= Self.headerSize, Array(bytes[0..<8]) == Self.magic else { return nil }
    return bytes.withUnsafeBytes { raw -> FlightJournal? in
      func int64(_ offset: Int) -> Int64 {
        raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)
      }
      func uint32(_ offset: Int) -> UInt32 {
        raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      }
      // NB: Counted in 64 bits, and each number checked before it is an `Int`, which is 32
      // bits on arm64_32: a damaged header is no journal, not a trap.
      let slotCount = Int64(uint32(Header.slotCount))
      let slotBytes = Int64(uint32(Header.slotSize))
      guard slotCount > 0, slotCount <= 1 << 16, slotBytes >= Int64(Slot.text),
        slotBytes <= 1 << 20, slotCount * slotBytes <= Int64(Self.largestSlots),
        Int64(bytes.count) >= Int64(Self.headerSize) + slotCount * slotBytes,
        let committedSeq = Int(exactly: max(0, int64(Header.committedSeq))),
        let pid = Int32(exactly: int64(Header.pid)),
        let sessionID = Int(exactly: max(0, int64(Header.sessionID)))
      else { return nil }
      let (slots, slotSize) = (Int(slotCount), Int(slotBytes))
      let committed = Int64(committedSeq)
      var entries: [Int: Entry] = [:]
      for index in 0..<slots {
        let base = Self.headerSize + index * slotSize
        let seq = int64(base + Slot.seq)
        guard seq > committed, seq < Int64(Int32.max),
          let cause = Int(exactly: int64(base + Slot.causeSeq)),
          let state = EntryState(rawValue: UInt64(bitPattern: int64(base + Slot.state)))
        else { continue }
        var texts: [String?] = []
        var offset = base + Slot.text
        for field in 0..<Slot.textCount {
          let length = uint32(base + Slot.lengths + 4 * field)
          if length == UInt32.max {
            texts.append(nil)
            continue
          }
          guard Int(length) <= base + slotSize - offset else { break }
          texts.append(String(decoding: raw[offset..<offset + Int(length)], as: UTF8.self))
          offset += Int(length)
        }
        guard texts.count == Slot.textCount, let path = texts[0], let rootCategory = texts[1],
          let feature = texts[2], let category = texts[3], let caseName = texts[4]
        else { continue }
        let flags = uint32(base + Slot.flags)
        entries[Int(seq)] = Entry(
          seq: Int(seq), state: state,
          causeSeq: flags & Self.flagEffect != 0 && cause > 0 ? cause : nil,
          timeNs: int64(base + Slot.timeNs), path: path, rootCategory: rootCategory,
          feature: feature, category: category, caseName: caseName, payload: texts[5],
          payloadJSON: texts[6], isWithheld: flags & Self.flagWithheld != 0,
          isTruncated: flags & Self.flagTruncated != 0
        )
      }
      return FlightJournal(
        pid: Int(pid), sessionID: sessionID > 0 ? sessionID : nil,
        sessionStamp: UInt64(bitPattern: int64(Header.sessionStamp)), committedSeq: committedSeq,
        hasEnded: int64(Header.ended) == 1,
        uncommitted: entries.keys.sorted().map { entries[$0]! }
      )
    }
  }

  /// Whether process `pid` runs on this machine: this one, or another (one this process may not
  /// signal runs too).
  package static func isRunning(pid: Int) -> Bool {
    guard pid > 0, let pid = Int32(exactly: pid) else { return false }
    return kill(pid, 0) == 0 || errno == EPERM
  }

  /// What ties a journal to its session: the 64-bit FNV-1a hash of the session's `started_at`,
  /// never 0.
  package static func stamp(startedAt: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in startedAt.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hash == 0 ? 1 : hash
  }

  /// Whether this journal is that of the session whose row has `id` and `startedAt`.
  package func isJournal(ofSession id: Int64, startedAt: String) -> Bool {
    self.sessionID.map(Int64.init) == id && self.sessionStamp == Self.stamp(startedAt: startedAt)
  }

  /// This process's id.
  package static var currentPID: Int { Int(getpid()) }

  /// Removes the file at `path`, while it is the file `identity` names: another may have been
  /// put there since it was read.
  package static func remove(_ path: String, identity: FileStatus.Identity) {
    guard FileStatus(path)?.identity == identity else { return }
    _ = FileName.withCString(path) { unlink($0) }
  }

  /// The most bytes of slots a journal read may have: 16 MiB.
  private static let largestSlots = 1 << 24

  /// The bytes of the regular file at `path`, up to a journal's largest size; `nil` when it
  /// cannot be read, or is not a regular file (a pipe would keep the reader waiting).
  private static func readFile(_ path: String) -> [UInt8]? {
    // NB: Opened without waiting, and checked as what was opened: a pipe put at the path after a
    // check of the path would keep the reader (a recorder's writer) waiting for ever.
    let descriptor = FileName.withCString(path) { open($0, O_RDONLY | O_NONBLOCK) }
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    let limit = Self.headerSize + Self.largestSlots
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while bytes.count < limit {
      let count = buffer.withUnsafeMutableBytes {
        readFromFile(descriptor, $0.baseAddress, $0.count)
      }
      if count <= 0 { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    return bytes
  }

}

/// `read(2)`, named apart from ``FlightJournal``'s own `read`s, which hide it inside the type.
private func readFromFile(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}
