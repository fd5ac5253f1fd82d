import Foundation
#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif
import IdentifiedCollections

/// What differs between two identified collections, in the order the diff reports it.
enum IdentifiedDifference {
  /// The elements both hold are in another order: their ids before and after.
  case order(old: [AnyHashable], new: [AnyHashable])
  /// An element that changed (`known`: its `==` says so), or may have: one that may hold a
  /// ``Shared`` value, which only a diff of it tells.
  case changed(id: AnyHashable, old: Any, new: Any, known: Bool = true)
  /// An element that was not there, at `index` in the new collection.
  case added(id: AnyHashable, new: Any, index: Int)
  case removed(id: AnyHashable, old: Any)
}

/// An identified collection whose elements can be compared with their own `==`.
///
/// NB: Through `Mirror`, an `IdentifiedArray` copies itself into an array of boxed elements,
/// and each element is then compared through casts: changing one row of 100,000 cost a third
/// of a second. Typed, the comparison is a loop over `==`, and only the differing elements are
/// handed to the diff.
protocol DiffableIdentifiedCollection {
  /// The differences from `self` to `new`, matched by id; the diff asks for them when
  /// ``visitChangedElements(in:elementKind:_:)`` visits nothing.
  func identifiedDifferences(to new: Self) -> [IdentifiedDifference]

  /// Hands `visit` each element that differs from `new`'s, or may (see
  /// ``IdentifiedDifference/changed(id:old:new:known:)``), where the two lie, with its id as a
  /// path shows it (``describeElementID(_:)``), and `elementKind`, its type's kind,
  /// when the two hold the same ids in the same order; returns `false`, and visits nothing, when
  /// they do not (then ``identifiedDifferences(to:)`` says what differs).
  func visitChangedElements(
    in new: Self, elementKind: NodeKind,
    _ visit: (_ id: String, _ old: UnsafeRawPointer, _ new: UnsafeRawPointer, _ known: Bool) -> Void
  ) -> Bool

  /// The type of its elements.
  static var elementType: Any.Type { get }
}

extension DiffableIdentifiedCollection {
  func visitChangedElements(
    in new: Self, elementKind: NodeKind,
    _ visit: (String, UnsafeRawPointer, UnsafeRawPointer, Bool) -> Void
  ) -> Bool {
    false
  }
}

extension IdentifiedArray: DiffableIdentifiedCollection where Element: Equatable {
  // NB: The diff asks for these when ``visitChangedElements(in:elementKind:_:)`` found that the
  // ids changed; they are not compared once more here.
  func identifiedDifferences(to new: Self) -> [IdentifiedDifference] {
    TCATrace.differences(
      oldIDs: Array(self.ids), newIDs: Array(new.ids), old: { self[id: $0] }, new: { new[id: $0] }
    )
  }

  static var elementType: Any.Type { Element.self }

  func visitChangedElements(
    in new: Self, elementKind kind: NodeKind,
    _ visit: (String, UnsafeRawPointer, UnsafeRawPointer, Bool) -> Void
  ) -> Bool {
    // NB: Most actions change elements in place, and the ids stay as they were: the elements
    // are then compared by position, without a lookup by id for each, where they lie: a
    // changed row is diffed there, not boxed on each side first.
    guard self.ids == new.ids else { return false }
    // NB: A loop over indices: in this generic code, an enumeration's tuples cost a lookup
    // of their type for each element.
    let ids = self.ids
    let old = self.elements
    let new = new.elements
    // NB: A shared value's bytes are its reference, the same while what it holds changes,
    // and `==` may not see it change (see `NodeKind.mayChangeUnseen`): each element is diffed.
    let unseen = kind.mayChangeUnseen
    // NB: An element whose bytes are the same on both sides did not change, and its `==`
    // (called through a witness table here) need not be asked: a tap on one row of many
    // compares the rest as memory. Where the bytes differ, they are compared again without the
    // fields that hold no value before `==` is asked: an `@ObservableState` row on
    // TCA holds a registrar whose bytes differ between copies of the same row (see
    // `NodeKind.FieldPlace.isObservationMachinery`). (`unseen` is false there: no field's bytes
    // can hide a shared value's change.)
    let size = MemoryLayout<Element>.size
    let stride = MemoryLayout<Element>.stride
    old.withUnsafeBytes { oldBytes in
      new.withUnsafeBytes { newBytes in
        guard let oldBase = oldBytes.baseAddress, let newBase = newBytes.baseAddress else { return }
        for index in 0..<old.count {
          let (oldElement, newElement) = (oldBase + index * stride, newBase + index * stride)
          if unseen {
            visit(describeElementID(ids[index]), oldElement, newElement, false)
            continue
          }
          if memcmp(oldElement, newElement, size) == 0
            || kind.hasSameValueBytes(oldElement, newElement)
          {
            continue
          }
          let isEqual =
            kind.equalsInPlace?(oldElement, newElement)
            ?? (oldElement.assumingMemoryBound(to: Element.self).pointee
              == newElement.assumingMemoryBound(to: Element.self).pointee)
          if !isEqual {
            visit(describeElementID(ids[index]), oldElement, newElement, true)
          }
        }
      }
    }
    return true
  }
}

/// A navigation stack diffs as its elements by id: `path[id: 3].count`.
extension StackState: DiffableIdentifiedCollection where Element: Equatable {
  static var elementType: Any.Type { Element.self }

  func identifiedDifferences(to new: Self) -> [IdentifiedDifference] {
    if self.ids == new.ids {
      let unseen = NodeKind.of(Element.self).mayChangeUnseen
      var differences: [IdentifiedDifference] = []
      for index in 0..<self.count where unseen || self[index] != new[index] {
        differences.append(
          .changed(
            id: AnyHashable(self.ids[index]), old: self[index], new: new[index], known: !unseen)
        )
      }
      return differences
    }
    return TCATrace.differences(
      oldIDs: Array(self.ids), newIDs: Array(new.ids), old: { self[id: $0] }, new: { new[id: $0] }
    )
  }
}

/// A collection whose elements are named by id, as its `[id:]` subscript names them: an
/// `IdentifiedArray` (`todos[id: 3]`) or a `StackState` (`path[id: 0]`), whatever their elements.
///
/// NB: Not any collection of `Identifiable` elements: a plain `[Result]` has no `[id:]`
/// subscript, so its elements are named by index (`results[0]`), which a test can write.
protocol ElementsIdentifiedByID {
  /// Its elements' ids, in order.
  var elementIDs: [AnyHashable] { get }
}

extension IdentifiedArray: ElementsIdentifiedByID {
  var elementIDs: [AnyHashable] { self.ids.map { AnyHashable($0) } }
}

extension StackState: ElementsIdentifiedByID {
  var elementIDs: [AnyHashable] { self.ids.map { AnyHashable($0) } }
}

/// An element's id as a path shows it: `3` in `rows[id: 3]` (see
/// `ActionRoute.ElementID.describe(_:)`). An `Int` is named without boxing it: `AnyHashable`'s
/// and the cast's conformance lookups were a twentieth of a recorded row's change at 10 rows.
func describeElementID<ID: Hashable>(_ id: ID) -> String {
  if ID.self == Int.self { return String(unsafeBitCast(id, to: Int.self)) }
  return ActionRoute.ElementID.describe(id)
}

/// The differences between two identified collections, given their ids in order and their
/// elements by id.
private func differences<ID: Hashable, Element: Equatable>(
  oldIDs: [ID], newIDs: [ID], old: (ID) -> Element?, new: (ID) -> Element?
) -> [IdentifiedDifference] {
  var differences: [IdentifiedDifference] = []
  let unseen = NodeKind.of(Element.self).mayChangeUnseen
  // Matched by id, in the new order, removals last; a move of kept elements first.
  let newIDSet = Set(newIDs)
  let oldIDSet = Set(oldIDs)
  let keptOld = oldIDs.filter { newIDSet.contains($0) }
  let keptNew = newIDs.filter { oldIDSet.contains($0) }
  if keptOld != keptNew {
    differences.append(
      .order(old: keptOld.map { AnyHashable($0) }, new: keptNew.map { AnyHashable($0) }))
  }
  for (index, id) in newIDs.enumerated() {
    guard let newElement = new(id) else { continue }
    if let oldElement = old(id) {
      if unseen || oldElement != newElement {
        differences.append(
          .changed(id: AnyHashable(id), old: oldElement, new: newElement, known: !unseen))
      }
    } else {
      differences.append(.added(id: AnyHashable(id), new: newElement, index: index))
    }
  }
  for id in oldIDs where !newIDSet.contains(id) {
    guard let oldElement = old(id) else { continue }
    differences.append(.removed(id: AnyHashable(id), old: oldElement))
  }
  return differences
}

// NB: Said so that an identified collection of elements that cannot hold a ``Shared`` value is
// trusted when its `==` says equal, and its rows compared as memory, also once shared values
// exist (see `NodeKind.mayHoldShared`); its ids are its elements', and no shared value is an id.
extension IdentifiedArray: ElementTyped {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension StackState: ElementTyped {
  static var elementTypes: [Any.Type] { [Element.self] }
}
