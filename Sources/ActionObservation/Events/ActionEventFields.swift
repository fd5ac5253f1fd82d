/// Where `ActionEvent<State, Action>`'s stored properties lie, so that code that is not
/// specialized writes an event, reads it, and destroys it a property at a time.
///
/// Such code looks the event type's generic metadata up at each use of the type (about 340
/// instructions each time); the properties' own types are the store's, whose metadata it has.
/// `Composable`'s observed reduce writes its events this way, and so does TCATrace's reducer
/// modifier; TCATrace's recorder reads them this way.
///
/// Every stored property of `ActionEvent` has its offset here: a writer writes them all, and
/// ``deinitialize(_:_:_:)`` destroys those that hold references (the others are trivial, which
/// `init` asserts). `ObserverTests.theEventHoldsEveryPropertyAndIsDestroyed` checks that
/// `ActionEvent` has no other stored property, and that each is written and destroyed.
package struct ActionEventFields: Sendable {
  package let id: Int
  package let action: Int
  package let origin: Int
  package let stateBefore: Int
  package let stateAfter: Int
  package let route: Int
  package let ownEffectCounts: Int
  package let timestamp: Int
  package let duration: Int

  package init<State, Action>(_: ActionEvent<State, Action>.Type) {
    typealias Event = ActionEvent<State, Action>
    self.id = MemoryLayout<Event>.offset(of: \.id)!
    self.action = MemoryLayout<Event>.offset(of: \.action)!
    self.origin = MemoryLayout<Event>.offset(of: \.origin)!
    self.stateBefore = MemoryLayout<Event>.offset(of: \.stateBefore)!
    self.stateAfter = MemoryLayout<Event>.offset(of: \.stateAfter)!
    self.route = MemoryLayout<Event>.offset(of: \.route)!
    self.ownEffectCounts = MemoryLayout<Event>.offset(of: \.ownEffectCounts)!
    self.timestamp = MemoryLayout<Event>.offset(of: \.timestamp)!
    self.duration = MemoryLayout<Event>.offset(of: \.duration)!
    // NB: What `deinitialize` leaves alone needs no destroying.
    assert(_isPOD(ActionOrigin.self))
  }

  /// Destroys the event at `event`, as `deinitialize(count: 1)` would.
  package func deinitialize<State, Action>(
    _ event: UnsafeMutableRawPointer, _: State.Type, _: Action.Type
  ) {
    (event + self.action).assumingMemoryBound(to: Action.self).deinitialize(count: 1)
    (event + self.stateBefore).assumingMemoryBound(to: State.self).deinitialize(count: 1)
    (event + self.stateAfter).assumingMemoryBound(to: State.self).deinitialize(count: 1)
    (event + self.route).assumingMemoryBound(to: [ActionRoute].self).deinitialize(count: 1)
    (event + self.ownEffectCounts).assumingMemoryBound(to: [Int].self).deinitialize(count: 1)
  }
}
