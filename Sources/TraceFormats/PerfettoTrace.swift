import ToolSupport
import TCATraceFile

/// A trace's sessions in the Trace Event JSON format that ui.perfetto.dev and chrome://tracing
/// open, written as the actions are read.
///
/// Each session is a process (its id, named with the session's name, root feature, start and
/// recorder); each feature a thread of it (a track, named by its path; the root by its type).
/// Each action is a slice of its reducer time on its feature's track (`B` and `E`), named by
/// its category and case, with its seq, path, origin, payload and changed state paths as
/// arguments. An effect is an async slice from the end of the action that returned it to the
/// last action it sent; each action an effect sent has a flow arrow from the action whose
/// effect sent it. A leak is an instant event on the leaking feature's track, at the end of
/// the action that showed it, named by its rule.
///
/// Times are microseconds, exact to the nanosecond. A damaged or hostile file cannot make the
/// output malformed: times are clamped so that a track's slices never go back in time or
/// overlap, a cause that is not an earlier action of the session draws no arrow, and every
/// text is a JSON string escaped as `JSONValue` escapes it (no control characters).
package struct PerfettoTrace: SessionExporter {
  private let output: any ExportDestination
  private var buffer: [UInt8] = []
  private var isFirstEvent = true

  // The session being written.
  private var sessionID: Int64 = 0
  private var rootFeature = ""
  /// The thread of each feature, from 1, in the order they first appear.
  private var tracks: [String: Int] = [:]
  /// Where each track's last slice or instant ended, in nanoseconds.
  private var trackEnds: [Int64] = [0]
  /// Each action's track and extent, by seq; the case's index in `caseNames`.
  private var actions: [Int: (track: Int, start: Int64, end: Int64, caseName: Int32)] = [:]
  private var caseNames: [String] = []
  private var caseIndices: [String: Int32] = [:]
  /// The effects of each action that sent some, by the action's seq: from its end to the last
  /// action sent.
  private var effects: [Int: (start: Int64, end: Int64)] = [:]
  private var effectOrder: [Int] = []
  private var nextFlowID = 1

  package init(output: any ExportDestination) {
    self.output = output
    self.buffer.reserveCapacity(1 << 16)
    self.buffer += #"{"displayTimeUnit":"ns","traceEvents":["#.utf8
  }

  /// Starts a session: its process, named.
  package mutating func begin(_ session: TraceSession) throws(CLIError) {
    self.sessionID = session.id
    self.rootFeature = session.rootFeature
    self.tracks = [:]
    self.trackEnds = [0]
    self.actions = [:]
    self.effects = [:]
    self.effectOrder = []
    let name =
      "\(session.name) — \(session.rootFeature) (session \(session.id), recorded \(session.startedAt) by TCATrace \(session.recorderVersion))"
    self.metadata("process_name", track: 0, value: .string(name))
    self.metadata("process_sort_index", key: "sort_index", track: 0, value: .integer(session.id))
    try self.flushIfFull()
  }

  /// Writes an action: its slice, the arrow from its cause, and its leaks.
  package mutating func write(_ action: TracedAction) throws(CLIError) {
    let track = self.track(action.feature)
    let start = max(action.timeNs, self.trackEnds[track])
    let (sum, overflow) = start.addingReportingOverflow(max(action.durationNs, 0))
    let end = overflow ? Int64.max : sum
    self.trackEnds[track] = end
    let caseName = self.caseIndex(action.caseName)
    self.actions[action.seq] = (track, start, end, caseName)

    self.beginEvent("B", track: track, at: start)
    self.buffer += #","name":"#.utf8
    JSONValue.appendQuoted("\(action.category.rawValue) \(action.caseName)", to: &self.buffer)
    self.buffer += #","cat":"#.utf8
    JSONValue.appendQuoted(action.category.rawValue, to: &self.buffer)
    self.buffer += #","args":"#.utf8
    var cause: Int?
    if case let .effect(seq) = action.origin { cause = seq }
    JSONValue.object([
      ("seq", .integer(Int64(action.seq))),
      ("path", .string(action.path)),
      ("feature", .string(action.feature)),
      ("category", .string(action.category.rawValue)),
      ("case", .string(action.caseName)),
      ("origin", .string(action.origin.name)),
      ("cause_seq", JSONValue(cause)),
      ("payload", JSONValue(action.payload)),
      ("state_paths_changed", .array(action.changes.map { .string($0.path) })),
    ]).append(to: &self.buffer)
    self.buffer += "}".utf8
    self.beginEvent("E", track: track, at: end)
    self.buffer += "}".utf8

    // NB: Only a cause earlier in the session draws an arrow: a damaged file's may not be.
    if let cause, cause < action.seq, let sender = self.actions[cause] {
      let id = self.nextFlowID
      self.nextFlowID += 1
      self.flow("s", id: id, track: sender.track, at: sender.start)
      self.flow("f", id: id, track: track, at: start)
      if let effect = self.effects[cause] {
        self.effects[cause] = (effect.start, max(effect.end, start))
      } else {
        self.effects[cause] = (sender.end, max(sender.end, start))
        self.effectOrder.append(cause)
      }
    }

    for leak in action.leaks {
      let leakTrack = self.track(leak.feature)
      let at = max(end, self.trackEnds[leakTrack])
      self.trackEnds[leakTrack] = at
      self.beginEvent("i", track: leakTrack, at: at)
      self.buffer += #","s":"t","name":"#.utf8
      JSONValue.appendQuoted(leak.rule.rawValue, to: &self.buffer)
      self.buffer += #","cat":"leak","args":"#.utf8
      JSONValue.object([
        ("rule", .string(leak.rule.rawValue)),
        ("feature", .string(leak.feature)),
        ("seq", .integer(Int64(action.seq))),
        ("detail", .string(leak.detail)),
      ]).append(to: &self.buffer)
      self.buffer += "}".utf8
    }
    try self.flushIfFull()
  }

  /// Ends a session: the slices of its effects.
  package mutating func end() throws(CLIError) {
    for (index, cause) in self.effectOrder.enumerated() {
      guard let effect = self.effects[cause], let sender = self.actions[cause] else { continue }
      let name = "effect of #\(cause) \(self.caseNames[Int(sender.caseName)])"
      let id = "\(self.sessionID).\(cause)"
      for (phase, time) in [("b", effect.start), ("e", effect.end)] {
        self.beginEvent(phase, track: sender.track, at: time)
        self.buffer += #","cat":"effect","id":"#.utf8
        JSONValue.appendQuoted(id, to: &self.buffer)
        self.buffer += #","name":"#.utf8
        JSONValue.appendQuoted(name, to: &self.buffer)
        self.buffer += "}".utf8
      }
      if index % 1024 == 0 { try self.flushIfFull() }
    }
    try self.flushIfFull()
  }

  /// Ends the document and writes what is left.
  package mutating func finish() throws(CLIError) {
    self.buffer += "]}\n".utf8
    try self.output.write(self.buffer)
    self.buffer.removeAll(keepingCapacity: true)
  }

  // MARK: - Events

  private mutating func track(_ feature: String) -> Int {
    if let track = self.tracks[feature] { return track }
    let track = self.tracks.count + 1
    self.tracks[feature] = track
    self.trackEnds.append(0)
    self.metadata(
      "thread_name", track: track, value: .string(feature.isEmpty ? self.rootFeature : feature))
    self.metadata(
      "thread_sort_index", key: "sort_index", track: track, value: .integer(Int64(track)))
    return track
  }

  private mutating func caseIndex(_ name: String) -> Int32 {
    if let index = self.caseIndices[name] { return index }
    let index = Int32(self.caseNames.count)
    self.caseNames.append(name)
    self.caseIndices[name] = index
    return index
  }

  private mutating func metadata(_ name: String, key: String = "name", track: Int, value: JSONValue)
  {
    self.separator()
    self.buffer += #"{"ph":"M","pid":"#.utf8
    self.buffer += String(self.sessionID).utf8
    self.buffer += #","tid":"#.utf8
    self.buffer += String(track).utf8
    self.buffer += #","name":""#.utf8
    self.buffer += name.utf8
    self.buffer += #"","args":{""#.utf8
    self.buffer += key.utf8
    self.buffer += #"":"#.utf8
    value.append(to: &self.buffer)
    self.buffer += "}}".utf8
  }

  /// Opens an event with its phase, process, thread and time; the caller adds the rest and
  /// closes it.
  private mutating func beginEvent(_ phase: String, track: Int, at time: Int64) {
    self.separator()
    self.buffer += #"{"ph":""#.utf8
    self.buffer += phase.utf8
    self.buffer += #"","pid":"#.utf8
    self.buffer += String(self.sessionID).utf8
    self.buffer += #","tid":"#.utf8
    self.buffer += String(track).utf8
    self.buffer += #","ts":"#.utf8
    Self.appendMicroseconds(time, to: &self.buffer)
  }

  private mutating func flow(_ phase: String, id: Int, track: Int, at time: Int64) {
    self.beginEvent(phase, track: track, at: time)
    self.buffer += #","cat":"cause","name":"sent by effect","id":"#.utf8
    self.buffer += String(id).utf8
    if phase == "f" { self.buffer += #","bp":"e""#.utf8 }
    self.buffer += "}".utf8
  }

  private mutating func separator() {
    if self.isFirstEvent {
      self.isFirstEvent = false
    } else {
      self.buffer.append(UInt8(ascii: ","))
    }
  }

  /// Nanoseconds as microseconds, exactly: `1234567` is `1234.567`.
  static func appendMicroseconds(_ nanoseconds: Int64, to output: inout [UInt8]) {
    let nanoseconds = max(nanoseconds, 0)
    output += String(nanoseconds / 1000).utf8
    let fraction = nanoseconds % 1000
    output.append(UInt8(ascii: "."))
    output.append(UInt8(ascii: "0") + UInt8(fraction / 100))
    output.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
    output.append(UInt8(ascii: "0") + UInt8(fraction % 10))
  }

  private mutating func flushIfFull() throws(CLIError) {
    guard self.buffer.count >= 1 << 16 else { return }
    try self.output.write(self.buffer)
    self.buffer.removeAll(keepingCapacity: true)
  }
}
