import IdentifiedCollections

/// What differs between two identified collections, in the order the diff reports it.
enum IdentifiedDifference {
  /// The elements both hold are in another order: their ids before and after.
  case order(old: [AnyHashable], new: [AnyHashable])
  case changed(id: AnyHashable, old: Any, new: Any)
  case added(id: AnyHashable, new: Any)
  case removed(id: AnyHashable, old: Any)
}

/// An identified collection whose elements can be compared with their own `==`.
///
/// NB: Through `Mirror`, an `IdentifiedArray` copies itself into an array of boxed elements,
/// and each element is then compared through casts: changing one row of 100,000 cost a third
/// of a second. Typed, the comparison is a loop over `==`, and only the differing elements are
/// handed to the diff.
protocol DiffableIdentifiedCollection {
  /// The differences from `self` to `new`; `nil` when `new` is not of the same type.
  func identifiedDifferences(to new: Any) -> [IdentifiedDifference]?
}

extension IdentifiedArray: DiffableIdentifiedCollection where Element: Equatable {
  func identifiedDifferences(to new: Any) -> [IdentifiedDifference]? {
    guard let new = new as? Self else { return nil }
    var differences: [IdentifiedDifference] = []
    if self.ids == new.ids {
      for index in self.indices where self[index] != new[index] {
        differences.append(
          .changed(id: AnyHashable(self.ids[index]), old: self[index], new: new[index])
        )
      }
      return differences
    }
    // Matched by id, in the new order, removals last; a move of kept elements first.
    let keptOld = self.ids.filter { new.ids.contains($0) }
    let keptNew = new.ids.filter { self.ids.contains($0) }
    if keptOld != keptNew {
      differences.append(.order(old: keptOld.map { AnyHashable($0) }, new: keptNew.map { AnyHashable($0) }))
    }
    for (id, element) in zip(new.ids, new.elements) {
      if let old = self[id: id] {
        if old != element {
          differences.append(.changed(id: AnyHashable(id), old: old, new: element))
        }
      } else {
        differences.append(.added(id: AnyHashable(id), new: element))
      }
    }
    for (id, element) in zip(self.ids, self.elements) where new[id: id] == nil {
      differences.append(.removed(id: AnyHashable(id), old: element))
    }
    return differences
  }
}
