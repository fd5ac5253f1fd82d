import ActionObservation
import Foundation
import RuntimeSupport

/// What a recorder knows of its store's types, found at the first action.
///
/// NB: A class: the recorder reads it under its lock for every action, and a reference is one
/// count to keep instead of one per member.
final class RecordedTypes: Sendable {
  let state: NodeKind
  /// Whether the state is `Encodable`: the writer then keeps its JSON at each action.
  let stateIsEncodable: Bool
  /// Whether actions are `Encodable`; `nil` when the action type is an existential, whose
  /// values' types vary.
  let actionIsEncodable: Bool?
  /// Classifies actions by their chain of cases; `nil` when the action type is not an enum.
  let actionClassifier: ActionClassifier?
  /// Where an event's values lie, read without generic code.
  let event: EventLayout

  let stateType: ObjectIdentifier
  let actionType: ObjectIdentifier

  init(
    stateType: Any.Type, actionType: Any.Type, state: NodeKind, actionIsEncodable: Bool?,
    actionClassifier: ActionClassifier?, event: EventLayout
  ) {
    self.stateType = ObjectIdentifier(stateType)
    self.actionType = ObjectIdentifier(actionType)
    self.state = state
    self.stateIsEncodable = stateType is any Encodable.Type
    self.actionIsEncodable = actionIsEncodable
    self.actionClassifier = actionClassifier
    self.event = event
  }

  /// Whether these are the types of events of `State` and `Action`.
  func isFor(_ state: Any.Type, _ action: Any.Type) -> Bool {
    self.stateType == ObjectIdentifier(state) && self.actionType == ObjectIdentifier(action)
  }
}

/// Where an `ActionEvent`'s values lie in it, so that code that is not generic (the analysis,
/// the diff, the keyframes) reads them in place, without copying them out, and without the
/// event type's generic metadata, which unspecialized code looks up at each use.
///
/// The recorder reads an event's memory by offset here and nowhere else (the reducer modifier,
/// `_RecordingReducer`, writes one by the same offsets, ``fields``). What makes it safe:
/// - the offsets are those of `ActionEvent<State, Action>` for the `State` and `Action` of the
///   event read (the callers of ``withValues(at:_:)`` assert it in debug builds, through
///   ``isLayout(of:)``);
/// - the pointers it lends point into that event, and are used only inside the closure, while
///   the event is alive and not changed.
///
/// NB: A class: the values it lends refer to it without a count (``Values``).
final class EventLayout: Sendable {
  /// The values of one event, in place: valid inside ``EventLayout/withValues(at:_:)`` only.
  ///
  /// NB: Read from the event as they are used, not copied out of it: a copy of its arrays, or
  /// of the layout's closure, is a retain and a release at each action.
  struct Values {
    private let place: UnsafeRawPointer
    // NB: Not retained: the layout outlives the call that lends the values.
    private unowned(unsafe) let layout: EventLayout

    fileprivate init(place: UnsafeRawPointer, layout: EventLayout) {
      self.place = place
      self.layout = layout
    }

    var id: Int { self.layout.id(at: self.place) }
    var origin: ActionOrigin { self.load(self.layout.fields.origin) }
    var timestamp: UInt64 { self.load(self.layout.fields.timestamp) }
    var duration: UInt64 { self.load(self.layout.fields.duration) }
    var route: [ActionRoute] {
      unsafeAddress { self.address(self.layout.fields.route) }
    }
    var ownEffectCounts: [Int] {
      unsafeAddress { self.address(self.layout.fields.ownEffectCounts) }
    }
    var action: UnsafeRawPointer { self.place + self.layout.fields.action }
    var stateBefore: UnsafeRawPointer { self.place + self.layout.fields.stateBefore }
    var stateAfter: UnsafeRawPointer { self.place + self.layout.fields.stateAfter }

    /// A copy of the action, boxed.
    func actionValue() -> Any { self.layout.loadAction(self.action) }

    private func load<Value>(_ offset: Int) -> Value {
      self.place.load(fromByteOffset: offset, as: Value.self)
    }

    private func address<Value>(_ offset: Int) -> UnsafePointer<Value> {
      (self.place + offset).assumingMemoryBound(to: Value.self)
    }
  }

  /// Where the event's stored properties lie.
  let fields: ActionEventFields
  private let loadAction: @Sendable (UnsafeRawPointer) -> Any
  private let eventType: ObjectIdentifier
  /// The event type's size and alignment, and how one is bound, moved and destroyed: for an
  /// event made in memory of its own (``allocate()``), or moved there (``move(from:)``), whose
  /// analysis may wait for the writer's thread.
  private let size: Int
  private let alignment: Int
  private let eventMetatype: Any.Type
  /// Memory of events destroyed, for the next events: an event is most often made on the
  /// store's thread and destroyed on the writer's, where memory freed by one thread and
  /// allocated by another took the allocator's slower path each time (on glibc, about 100
  /// instructions more an action, on the store's thread).
  private let spareMemory = RecycledWords(capacity: 32)

  init<State, Action>(_: ActionEvent<State, Action>.Type) {
    typealias Event = ActionEvent<State, Action>
    self.fields = ActionEventFields(Event.self)
    self.loadAction = { $0.load(as: Action.self) }
    self.eventType = ObjectIdentifier(Event.self)
    self.size = MemoryLayout<Event>.size
    self.alignment = MemoryLayout<Event>.alignment
    // NB: Kept as a value and opened where it is used: generic code handed it has the event
    // type's metadata, where a closure naming `ActionEvent<State, Action>` looked it up at each
    // call (about 340 instructions).
    self.eventMetatype = Event.self
  }

  /// The event at `place`, moved into memory of its own (``allocate()``'s), which
  /// ``destroy(_:)`` destroys and frees: `place` is left uninitialized. Its values are moved,
  /// not copied: nothing is retained.
  func move(from place: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
    let memory = self.allocate()
    func initialize<Event>(_: Event.Type) {
      memory.moveInitializeMemory(
        as: Event.self, from: place.assumingMemoryBound(to: Event.self), count: 1)
    }
    _openExistential(self.eventMetatype, do: initialize)
    return memory
  }

  deinit {
    while let spare = self.spareMemory.take() {
      self.freeMemory(UnsafeMutableRawPointer(bitPattern: spare)!)
    }
  }

  /// Memory for an event, uninitialized and bound to the event type, whose properties are then
  /// written at their offsets (``fields``): ``destroy(_:)`` destroys the event and frees it,
  /// ``deallocate(_:)`` frees it once the event is destroyed. Memory an event had before is
  /// taken first.
  func allocate() -> UnsafeMutableRawPointer {
    // NB: Bound to the event type already.
    if let spare = self.spareMemory.take() { return UnsafeMutableRawPointer(bitPattern: spare)! }
    // NB: `malloc` where its alignment is enough (16 bytes, on Linux and Apple's platforms
    // alike): Swift's `allocate(byteCount:alignment:)` asks for its default alignment through
    // `posix_memalign` on Linux, which costs an action about 200 instructions more.
    let memory =
      self.isMallocAligned
      ? malloc(max(self.size, 1))!
      : UnsafeMutableRawPointer.allocate(byteCount: max(self.size, 1), alignment: self.alignment)
    func bind<Event>(_: Event.Type) { _ = memory.bindMemory(to: Event.self, capacity: 1) }
    _openExistential(self.eventMetatype, do: bind)
    return memory
  }

  /// Destroys and frees an event in memory ``allocate()`` made.
  func destroy(_ event: UnsafeMutableRawPointer) {
    func deinitialize<Event>(_: Event.Type) {
      event.assumingMemoryBound(to: Event.self).deinitialize(count: 1)
    }
    _openExistential(self.eventMetatype, do: deinitialize)
    self.deallocate(event)
  }

  /// Frees memory ``allocate()`` made, whose event is destroyed, or was moved out: keeps it for
  /// the next event, when there is room.
  func deallocate(_ memory: UnsafeMutableRawPointer) {
    if self.spareMemory.give(UInt(bitPattern: memory)) { return }
    self.freeMemory(memory)
  }

  private func freeMemory(_ memory: UnsafeMutableRawPointer) {
    if self.isMallocAligned { free(memory) } else { memory.deallocate() }
  }

  /// Whether `malloc`'s memory is aligned enough for an event: it is for 16 bytes.
  private var isMallocAligned: Bool { self.alignment <= 16 }

  /// The bytes an event of this type takes.
  var byteCount: Int { self.size }

  /// Whether this is the layout of `ActionEvent<State, Action>`.
  func isLayout<State, Action>(of _: ActionEvent<State, Action>.Type) -> Bool {
    self.eventType == ObjectIdentifier(ActionEvent<State, Action>.self)
  }

  /// The id of the event at `place`, an event of the type this is the layout of.
  func id(at place: UnsafeRawPointer) -> Int {
    place.load(fromByteOffset: self.fields.id, as: Int.self)
  }

  /// Whether a reducer along the route of the event at `place` returned an effect: its counts
  /// add up to what the root returned (on `Composable`, whose scoping reducers count them; an
  /// effect that waits for a presented feature's dismissal counts as none).
  func returnedEffects(at place: UnsafeRawPointer) -> Bool {
    place.load(fromByteOffset: self.fields.ownEffectCounts, as: [Int].self).contains { $0 > 0 }
  }

  /// Calls `body` with the values of the event at `place`, an event of the type this is the
  /// layout of.
  func withValues<Result>(at place: UnsafeRawPointer, _ body: (Values) -> Result) -> Result {
    body(Values(place: place, layout: self))
  }
}
