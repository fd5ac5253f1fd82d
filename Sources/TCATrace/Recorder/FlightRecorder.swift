import Foundation
import RuntimeSupport
import TCATraceAtomicsShims
import TCATraceFile

/// Writes a recorder's flight journal (see `FlightJournal`): the store's thread writes each
/// action into its slot before the reducer runs and marks it returned after; the writer's
/// thread writes the seq it committed. Nothing here calls the system: a store into mapped
/// memory is all an action costs.
final class FlightRecorder: @unchecked Sendable {
  // NB: `@unchecked`: the slots are written on the store's thread only, the header's committed
  // seq and end on the writer's only; the memory is the mapping's.
  private let base: UnsafeMutableRawPointer
  /// The journal's file.
  let path: String
  private let slotCount = FlightJournal.slotCount
  private let slotSize = FlightJournal.slotSize

  /// The file the journal is mapped from, to remove it only while it is the one at ``path``.
  private let identity: FileStatus.Identity?

  private init(base: UnsafeMutableRawPointer, path: String) {
    self.base = base
    self.path = path
    self.identity = FileStatus(path)?.identity
  }

  deinit {
    tcatrace_flight_unmap(self.base, FlightJournal.fileSize)
  }

  /// The journals this process's recorders write, until they end.
  private static let openPaths = Locked(Set<String>())

  /// The journal beside `tracePath`, made anew; `nil` when it cannot be made (the recorder
  /// then records without one), or when another recorder of this process writes the one there.
  ///
  /// A journal left there by a process that ended without closing its session, holding actions
  /// the trace lacks, is kept beside it as `<trace>-flight-<session id>`, where `tcatrace` reads
  /// it until the recorder's writer copies it into the trace
  /// (`TraceFile.foldFlightJournals(_:)`). The journal there is then removed and a new file
  /// made: a process still writing the old one (another app recording the same file) writes
  /// into its own.
  static func open(tracePath: String) -> FlightRecorder? {
    let path = FlightJournal.path(forTrace: tracePath)
    // NB: Told apart by this process's own list, not by its pid: a process that ended had the
    // same pid as this one where pids are few (a container's).
    guard Self.openPaths.withLock({ $0.insert(path).inserted }) else { return nil }
    if let existing = FlightJournal.read(tracePath: tracePath), !existing.hasEnded {
      if !existing.uncommitted.isEmpty, let session = existing.sessionID {
        _ = FileName.withCString(path) { from in
          FileName.withCString(FlightJournal.path(forTrace: tracePath, session: session)) { to in
            rename(from, to)
          }
        }
      }
    }
    _ = FileName.withCString(path) { unlink($0) }
    let fd = FileName.withCString(path) { tcatrace_flight_create($0, FlightJournal.fileSize) }
    guard fd >= 0 else {
      Self.openPaths.withLock { _ = $0.remove(path) }
      return nil
    }
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      // NB: Written while the device is locked: a file of the `complete` protection class (an
      // app's default when its entitlement says so) cannot be, and its mapped pages would
      // fault. Set before the file is mapped. Foundation's `FileAttributeKey.protectionKey` and
      // `FileProtectionType.completeUntilFirstUserAuthentication` (NSFileManager.h,
      // NSFileProtectionCompleteUntilFirstUserAuthentication: iOS 5, tvOS 9, watchOS 2).
      try? FileManager.default.setAttributes(
        [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication],
        ofItemAtPath: path)
    #endif
    guard let base = tcatrace_flight_map(fd, FlightJournal.fileSize) else {
      _ = FileName.withCString(path) { unlink($0) }
      Self.openPaths.withLock { _ = $0.remove(path) }
      return nil
    }
    // NB: A new file is zeros: the header says what the file is last, so that a journal that
    // ends here, half made, is not read as one.
    base.storeBytes(
      of: UInt32(FlightJournal.slotCount), toByteOffset: FlightJournal.Header.slotCount,
      as: UInt32.self)
    base.storeBytes(
      of: UInt32(FlightJournal.slotSize), toByteOffset: FlightJournal.Header.slotSize,
      as: UInt32.self)
    base.storeBytes(
      of: Int64(getpid()), toByteOffset: FlightJournal.Header.pid, as: Int64.self)
    for (index, byte) in FlightJournal.magic.enumerated() {
      base.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
    }
    return FlightRecorder(base: base, path: path)
  }

  // MARK: - The store's thread

  /// Writes action `seq` into its slot, as its reducer is about to run.
  func begin(
    seq: Int, origin: ActionOrigin, timeNs: Int64, classification: PreparedClassification,
    payloadJSON: String?, withheld: Bool
  ) {
    let slot = self.slot(of: seq)
    // NB: The slot reads as being written until its last store: a process that ends in
    // between leaves no half-written entry.
    Self.storeWord(0, at: slot + FlightJournal.Slot.state)
    tcatrace_signal_fence()
    slot.storeBytes(of: Int64(seq), toByteOffset: FlightJournal.Slot.seq, as: Int64.self)
    var flags: UInt32 = withheld ? FlightJournal.flagWithheld : 0
    var cause: Int64 = 0
    if case let .effect(causeSeq) = origin {
      flags |= FlightJournal.flagEffect
      cause = Int64(causeSeq)
    }
    slot.storeBytes(of: cause, toByteOffset: FlightJournal.Slot.causeSeq, as: Int64.self)
    slot.storeBytes(of: timeNs, toByteOffset: FlightJournal.Slot.timeNs, as: Int64.self)
    // NB: Each text is copied straight into the slot: no array, no joined string; those of a
    // classification the classifier keeps were laid out once, and are copied in one go.
    var texts = SlotTexts(slot: slot, size: self.slotSize)
    if let fixed = classification.journalTexts, fixed.bytes.count <= texts.room {
      texts.write(fixed)
    } else {
      texts.write(classification.withoutPayload.path, field: 0)
      texts.write(classification.withoutPayload.rootCategory.rawValue, field: 1)
      texts.write(joining: classification.withoutPayload.feature, field: 2)
      texts.write(classification.withoutPayload.category.rawValue, field: 3)
      texts.write(classification.withoutPayload.caseName, field: 4)
    }
    let payload = withheld ? nil : classification.payload
    let json = withheld ? nil : payloadJSON
    let payloadBytes = payload?.utf8.count ?? 0
    if payloadBytes + (json?.utf8.count ?? 0) <= texts.room {
      texts.write(payload, field: 5)
      texts.write(json, field: 6)
    } else {
      // An action whose texts do not fit loses its payload JSON, then its payload.
      flags |= FlightJournal.flagTruncated
      texts.write(payloadBytes <= texts.room ? payload : nil, field: 5)
      texts.write(nil, field: 6)
    }
    slot.storeBytes(of: flags, toByteOffset: FlightJournal.Slot.flags, as: UInt32.self)
    Self.storeWord(
      UInt(FlightJournal.EntryState.inReducer.rawValue), at: slot + FlightJournal.Slot.state,
      release: true)
  }

  /// Marks action `seq` as returned from its reducer.
  func returned(seq: Int) {
    Self.storeWord(
      UInt(FlightJournal.EntryState.returned.rawValue),
      at: self.slot(of: seq) + FlightJournal.Slot.state, release: true)
  }

  /// The slot of action `seq`.
  private func slot(of seq: Int) -> UnsafeMutableRawPointer {
    self.base + FlightJournal.headerSize + (seq % self.slotCount) * self.slotSize
  }

  // MARK: - The writer's thread

  /// Says that the trace holds session `sessionID`'s actions up to `seq`; `stamp` ties the
  /// journal to the session's row.
  func committed(sessionID: Int64, stamp: UInt64, seq: Int?) {
    self.base.storeBytes(
      of: stamp, toByteOffset: FlightJournal.Header.sessionStamp, as: UInt64.self)
    self.base.storeBytes(
      of: sessionID, toByteOffset: FlightJournal.Header.sessionID, as: Int64.self)
    if let seq {
      Self.storeWord(UInt(seq), at: self.base + FlightJournal.Header.committedSeq, release: true)
    }
  }

  /// Leaves the journal as it is, holding actions the trace lacks: the writer failed.
  func letGo() {
    Self.openPaths.withLock { _ = $0.remove(self.path) }
  }

  /// Says that the recorder closed its session, and removes the journal: the trace holds
  /// everything it did. Marked first, in case the file cannot be removed.
  func end() {
    Self.storeWord(1, at: self.base + FlightJournal.Header.ended, release: true)
    defer { Self.openPaths.withLock { _ = $0.remove(self.path) } }
    // NB: Only while it is this journal's file: another recorder may have made a new one.
    if let identity = self.identity { FlightJournal.remove(self.path, identity: identity) }
  }

  private static func storeWord(
    _ value: UInt, at address: UnsafeMutableRawPointer, release: Bool = false
  ) {
    let word = address.assumingMemoryBound(to: UInt.self)
    if release {
      tcatrace_atomic_store_release(word, value)
    } else {
      tcatrace_atomic_store_relaxed(word, value)
    }
  }
}

/// The texts of a classification that the flight journal writes as an action's first five
/// fields (its path, its categories, its feature and its case's name), laid out once as a slot
/// holds them: the classifier keeps them with each chain of cases it keeps, so that an action
/// of the chain copies them in one go (`FlightRecorder.begin`).
final class FlightTexts: Sendable {
  /// The five texts' UTF-8, one after the other.
  fileprivate let bytes: [UInt8]
  /// Each text's length in bytes, as a slot's lengths hold them.
  fileprivate let lengths: [UInt32]

  init(_ classification: ActionClassification) {
    var bytes: [UInt8] = []
    var lengths: [UInt32] = []
    for text in [
      classification.path, classification.rootCategory.rawValue,
      classification.feature.joined(separator: "."), classification.category.rawValue,
      classification.caseName,
    ] {
      bytes.append(contentsOf: text.utf8)
      lengths.append(UInt32(text.utf8.count))
    }
    self.bytes = bytes
    self.lengths = lengths
  }
}

/// Writes an entry's texts into its slot, one after another, each with its length.
private struct SlotTexts {
  let slot: UnsafeMutableRawPointer
  let size: Int
  var offset = FlightJournal.Slot.text

  init(slot: UnsafeMutableRawPointer, size: Int) {
    self.slot = slot
    self.size = size
  }

  /// The bytes left in the slot.
  var room: Int { self.size - self.offset }

  /// Writes `text` as field `field`, cut at the slot's end; `nil` as no text.
  mutating func write(_ text: String?, field: Int) {
    guard let text else {
      self.setLength(UInt32.max, field: field)
      return
    }
    let start = self.offset
    self.copy(text)
    self.setLength(UInt32(self.offset - start), field: field)
  }

  /// Writes the texts of a classification laid out once as fields 0 to 4: what ``write(_:field:)``
  /// and ``write(joining:field:)`` write of it, when they fit.
  mutating func write(_ fixed: FlightTexts) {
    fixed.bytes.withUnsafeBufferPointer { self.copy($0) }
    // NB: The five lengths lie one after the other in the slot, as in the array.
    fixed.lengths.withUnsafeBytes { lengths in
      (self.slot + FlightJournal.Slot.lengths).copyMemory(
        from: lengths.baseAddress!, byteCount: lengths.count)
    }
  }

  /// Writes `parts` joined by dots as field `field`.
  mutating func write(joining parts: [String], field: Int) {
    let start = self.offset
    for (index, part) in parts.enumerated() {
      if index > 0, self.room > 0 {
        self.slot.storeBytes(of: UInt8(ascii: "."), toByteOffset: self.offset, as: UInt8.self)
        self.offset += 1
      }
      self.copy(part)
    }
    self.setLength(UInt32(self.offset - start), field: field)
  }

  /// Copies `text`'s UTF-8, as much as the slot has room for.
  private mutating func copy(_ text: String) {
    // NB: A native string lends its bytes; another (bridged) one is copied out first.
    if text.utf8.withContiguousStorageIfAvailable({ self.copy($0) }) == nil {
      Array(text.utf8).withUnsafeBufferPointer { self.copy($0) }
    }
  }

  private mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
    let count = min(bytes.count, self.room)
    guard count > 0, let source = bytes.baseAddress else { return }
    (self.slot + self.offset).copyMemory(from: source, byteCount: count)
    self.offset += count
  }

  private func setLength(_ length: UInt32, field: Int) {
    self.slot.storeBytes(
      of: length, toByteOffset: FlightJournal.Slot.lengths + 4 * field, as: UInt32.self)
  }
}
