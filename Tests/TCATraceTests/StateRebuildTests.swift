import Composable
import CustomDump
import IdentifiedCollections
@testable import TCATrace
import TCATraceFile
import TestSupport
import Testing

/// Issue #18: a state rebuilt from the one before it and the changes the diff recorded renders
/// as CustomDump renders the state itself, step after step, over nested optionals, identified
/// arrays, enums with payloads, presented children and stacks.
@Suite(.hangGuard) struct StateRebuildTests {
  /// The changes the recorder's diff finds, on the values where they lie.
  private static func recorderChanges<T>(_ old: T, _ new: T) -> [StateChange] {
    withUnsafePointer(to: old) { old in
      withUnsafePointer(to: new) { new in
        StateDiff.changes(
          from: UnsafeRawPointer(old), to: UnsafeRawPointer(new), kind: NodeKind.of(T.self)
        ).list
      }
    }
  }

  @Test(arguments: [false, true])
  func aRebuiltStateRendersAsTheStateAtEveryStep(inPlace: Bool) throws {
    var random = SeededGenerator(seed: inPlace ? 18 : 81)
    var state = RandomState()
    var tree = StateTree.node(of: state)
    for step in 1...2_000 {
      let before = state
      for _ in 0..<Int.random(in: 1...3, using: &random) { state.mutate(&random) }
      let changes =
        inPlace ? Self.recorderChanges(before, state) : StateChange.diff(from: before, to: state)
      let previous = tree
      tree = try tree.applying(changes)
      let expected = String(customDumping: state)
      guard tree.rendered() == expected else {
        let nodes = changes.map { "\($0.path): \(String(describing: previous.node(at: $0.path)))" }
        Issue.record(
          "step \(step): \(changes)\nbefore: \(nodes)\n\(diff(tree.rendered(), expected) ?? "")")
        return
      }
    }
  }

  /// Issue #71: TCA's `AlertState` (swift-navigation's) prints as `title`, `actions` and
  /// `message` (`CustomDumpReflectable`) and stores `id`, `buttons` and a `TextState` whose
  /// text is in `storage` (`CustomDumpRepresentable`), with no `CustomReflectable`. Replacing
  /// one alert with another was recorded by the stored properties (`alert.id`,
  /// `alert.title.storage.verbatim`), which the rebuilt state, its printing, does not have.
  @Test(arguments: [false, true])
  func aValuePrintedItsOwnWayIsDiffedAsItPrints(inPlace: Bool) throws {
    let old = Screen(
      alert: PrintedAlert(id: 1, title: Text(storage: .verbatim("Delete?")), buttons: ["OK"]))
    var new = old
    new.alert = PrintedAlert(
      id: 2, title: Text(storage: .verbatim("Deleted")), buttons: ["OK", "Undo"])
    let changes =
      inPlace ? Self.recorderChanges(old, new) : StateChange.diff(from: old, to: new)
    #expect(
      changes.map(\.path) == ["alert.title", "alert.actions[1]"],
      "the paths CustomDump's printing has")
    let rebuilt = try StateTree.node(of: old).applying(changes)
    #expect(rebuilt.rendered() == String(customDumping: new))
  }
}

/// A state that holds a value which prints otherwise than it is stored, as TCA's alerts do.
private struct Screen: Equatable {
  var count = 0
  var alert: PrintedAlert?
}

/// Stored as `id`, `storedTitle` and `storedButtons`; printed as `title` and `actions`.
private struct PrintedAlert: Equatable, CustomDumpReflectable {
  var id: Int
  var storedTitle: Text
  var storedButtons: [String]

  init(id: Int, title: Text, buttons: [String]) {
    (self.id, self.storedTitle, self.storedButtons) = (id, title, buttons)
  }

  var customDumpMirror: Mirror {
    Mirror(
      self,
      children: [("title", self.storedTitle as Any), ("actions", self.storedButtons as Any)]
        as [(label: String?, value: Any)],
      displayStyle: .struct)
  }
}

/// Stored as an enum; printed as its string.
private struct Text: Equatable, CustomDumpRepresentable {
  enum Storage: Equatable { case verbatim(String) }
  var storage: Storage
  var customDumpValue: Any {
    switch self.storage {
    case let .verbatim(string): string
    }
  }
}
