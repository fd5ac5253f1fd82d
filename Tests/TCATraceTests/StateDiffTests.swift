import Foundation
import Composable
import CustomDump
import Synchronization
import TCATrace
import TCATraceExamples
import Testing
import TestSupport

private struct Row: Equatable, Identifiable {
  var id: Int
  var title: String
  var isComplete = false
}

private struct Profile: Equatable {
  var name = ""
  var tags: [String] = []
  var scores: [String: Int] = [:]
  var labels: Set<String> = []
}

private enum Phase: Equatable {
  case idle
  case loading(progress: Int)
  case loaded([Int])
}

private struct Root: Equatable {
  var count = 0
  var profile = Profile()
  var rows: IdentifiedArrayOf<Row> = []
  var sheet: Profile?
  var phase = Phase.idle
}

/// Counts the `==` calls made on it, to show that equal subtrees are not looked into.
private struct Probe: Equatable {
  static let comparisons = Mutex(0)
  var value: Int
  static func == (lhs: Self, rhs: Self) -> Bool {
    comparisons.withLock { $0 += 1 }
    return lhs.value == rhs.value
  }
}

/// What TCA's `@ObservableState` adds to a struct: a registrar that equals every other, and
/// whose bytes may differ between copies of one value.
private struct Registrar: Equatable {
  var generation = 0
  static func == (_: Self, _: Self) -> Bool { true }
}

/// A row as TCA's `@ObservableState` stores one, counting the `==` calls made on it.
private struct ObservedRow: Equatable, Identifiable {
  static let comparisons = Mutex(0)
  var _id: Int
  var _title: String
  var _$observationRegistrar = Registrar()
  var id: Int { self._id }
  init(id: Int, title: String) {
    (self._id, self._title) = (id, title)
  }
  static func == (lhs: Self, rhs: Self) -> Bool {
    comparisons.withLock { $0 += 1 }
    return lhs._id == rhs._id && lhs._title == rhs._title
  }
}

@Suite(.hangGuard)
struct StateDiffTests {
  @Test func equalStatesHaveNoChanges() {
    #expect(StateChange.diff(from: Root(), to: Root()).isEmpty)
  }

  @Test func changedLeavesHaveDottedPaths() {
    var new = Root()
    new.count = 2
    new.profile.name = "Blob"
    expectNoDifference(
      StateChange.diff(from: Root(), to: new),
      [
        StateChange(path: "count", kind: .changed, old: "0", new: "2"),
        StateChange(path: "profile.name", kind: .changed, old: #""""#, new: #""Blob""#),
      ]
    )
  }

  @Test func identifiedElementsAreMatchedById() {
    let old = Root(rows: [Row(id: 1, title: "a"), Row(id: 2, title: "b"), Row(id: 3, title: "c")])
    var new = old
    new.rows[id: 3]?.isComplete = true
    new.rows.remove(id: 1)
    new.rows.append(Row(id: 4, title: "d"))
    expectNoDifference(
      StateChange.diff(from: old, to: new),
      [
        StateChange(path: "rows[id: 3].isComplete", kind: .changed, old: "false", new: "true"),
        StateChange(
          path: "rows[id: 4]", kind: .added, old: nil,
          new: """
            Row(
              id: 4,
              title: "d",
              isComplete: false
            )
            """
        ),
        StateChange(
          path: "rows[id: 1]", kind: .removed,
          old: """
            Row(
              id: 1,
              title: "a",
              isComplete: false
            )
            """,
          new: nil
        ),
      ]
    )
  }

  @Test func reorderingIdentifiedElementsIsAChangeOfOrder() {
    let old = Root(rows: [
      Row(id: 1, title: "a"), Row(id: 2, title: "b", isComplete: true), Row(id: 3, title: "c"),
    ])
    var new = old
    new.rows.sort { !$0.isComplete && $1.isComplete }
    new.rows[id: 1]?.title = "A"
    expectNoDifference(
      StateChange.diff(from: old, to: new),
      [
        StateChange(path: "rows", kind: .changed, old: "[1, 2, 3]", new: "[1, 3, 2]"),
        StateChange(path: "rows[id: 1].title", kind: .changed, old: #""a""#, new: #""A""#),
      ]
    )
  }

  @Test func identifiedElementsThatAreNotEquatableAreMatchedByIdToo() {
    struct Item: Identifiable {
      var id: Int
      var name: String
    }
    let old: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    var new = old
    new[id: 2]?.name = "B"
    new.remove(id: 1)
    expectNoDifference(
      StateChange.diff(from: old, to: new),
      [
        StateChange(path: "[id: 2].name", kind: .changed, old: #""b""#, new: #""B""#),
        StateChange(
          path: "[id: 1]", kind: .removed,
          old: """
            StateDiffTests.Item(
              id: 1,
              name: "a"
            )
            """,
          new: nil
        ),
      ]
    )
  }

  @Test func arraysAreMatchedByIndex() {
    let old = Root(profile: Profile(tags: ["a", "b"]))
    var new = old
    new.profile.tags = ["a", "c", "d"]
    expectNoDifference(
      StateChange.diff(from: old, to: new),
      [
        StateChange(path: "profile.tags[1]", kind: .changed, old: #""b""#, new: #""c""#),
        StateChange(path: "profile.tags[2]", kind: .added, old: nil, new: #""d""#),
      ]
    )
  }

  /// Issue #71: Search's `results: [GeocodingSearch.Result]` holds `Identifiable` values in a
  /// plain array, which has no `[id:]` subscript; a test can only say `$0.results[0]`.
  @Test func anArrayOfIdentifiableValuesIsMatchedByIndex() {
    struct Results: Equatable {
      var results: [Row] = []
    }
    let old = Results(results: [Row(id: 1, title: "a"), Row(id: 2, title: "b")])
    var new = old
    new.results = [Row(id: 2, title: "B"), Row(id: 1, title: "a")]
    expectNoDifference(
      StateChange.diff(from: old, to: new).map(\.path),
      ["results[0].id", "results[0].title", "results[1].id", "results[1].title"]
    )
    var longer = old
    longer.results.append(Row(id: 3, title: "c"))
    expectNoDifference(StateChange.diff(from: old, to: longer).map(\.path), ["results[2]"])
  }

  @Test func dictionariesAndSetsAreMatchedByKey() {
    let old = Root(profile: Profile(scores: ["a": 1, "b": 2], labels: ["x", "y"]))
    var new = old
    new.profile.scores = ["a": 5, "c": 3]
    new.profile.labels = ["y", "z"]
    expectNoDifference(
      StateChange.diff(from: old, to: new),
      [
        StateChange(path: #"profile.scores["a"]"#, kind: .changed, old: "1", new: "5"),
        StateChange(path: #"profile.scores["c"]"#, kind: .added, old: nil, new: "3"),
        StateChange(path: #"profile.scores["b"]"#, kind: .removed, old: "2", new: nil),
        StateChange(path: #"profile.labels["z"]"#, kind: .added, old: nil, new: #""z""#),
        StateChange(path: #"profile.labels["x"]"#, kind: .removed, old: #""x""#, new: nil),
      ]
    )
  }

  @Test func optionalsAppearAndGoAway() {
    var presented = Root()
    presented.sheet = Profile(name: "s")
    expectNoDifference(
      StateChange.diff(from: Root(), to: presented).map(\.kind),
      [.added]
    )
    expectNoDifference(StateChange.diff(from: presented, to: Root()).map(\.path), ["sheet"])
    var edited = presented
    edited.sheet?.name = "t"
    expectNoDifference(
      StateChange.diff(from: presented, to: edited),
      [StateChange(path: "sheet.name", kind: .changed, old: #""s""#, new: #""t""#)]
    )
  }

  @Test func enumsDiffTheirPayloadWhenTheCaseStaysTheSame() {
    let old = Root(phase: .loading(progress: 10))
    var new = old
    new.phase = .loading(progress: 60)
    expectNoDifference(
      StateChange.diff(from: old, to: new),
      [StateChange(path: "phase.loading", kind: .changed, old: "10", new: "60")]
    )
    new.phase = .loaded([1])
    expectNoDifference(
      StateChange.diff(from: old, to: new),
      [
        StateChange(
          path: "phase", kind: .changed, old: "Phase.loading(progress: 10)",
          new: """
            Phase.loaded(
              [
                [0]: 1
              ]
            )
            """
        )
      ]
    )
  }

  @Test func equalSubtreesAreNotLookedInto() {
    struct Big: Equatable {
      var probes: [Probe]
      var flag = false
    }
    let old = Big(probes: (0..<10_000).map { Probe(value: $0) })
    var new = old
    new.flag = true
    // NB: Once a shared value exists in the process, a collection whose `==` cannot be trusted
    // (its elements may hold a shared value) is walked; an array of probes cannot hold one.
    _ = Shared(value: 0)
    Probe.comparisons.withLock { $0 = 0 }
    expectNoDifference(
      StateChange.diff(from: old, to: new),
      [StateChange(path: "flag", kind: .changed, old: "false", new: "true")]
    )
    // The untouched array shares its storage, so comparing it compares no element.
    #expect(Probe.comparisons.withLock { $0 } == 0)
  }

  @Test func aTypeThatHoldsAnArrayOfItselfIsDiffed() {
    struct Tree: Equatable {
      var name: String
      var children: [Tree] = []
    }
    _ = Shared(value: 0)
    let old = Tree(name: "root", children: [Tree(name: "a"), Tree(name: "b")])
    var new = old
    new.children[1].children.append(Tree(name: "c"))
    let changes = StateChange.diff(from: old, to: new)
    #expect(changes.map(\.path) == ["children[1].children[0]"])
  }

  @Test func leavesRenderAsCustomDumpRendersThem() {
    struct Leaves: Equatable {
      var int = 0
      var bool = false
      var double = 0.0
      var string = ""
    }
    let values: [(Int, Bool, Double, String)] = [
      (-42, true, 0.5, "plain text"),
      (Int.max, false, 1e20, #"with "quotes""#),
      (7, true, -0.0001, "back\\slash"),
      (0, false, 3.0, "two\nlines"),
      (1, true, 1e300, "café ☕️"),
      (-1, false, 10, "9"),
      (123_456_789, true, 100, "-10"),
      (Int.min + 1, false, -2, ""),
    ]
    for (int, bool, double, string) in values {
      let old = Leaves(int: int &+ 1, bool: !bool, double: double * 2 + 1, string: string + "!")
      let new = Leaves(int: int, bool: bool, double: double, string: string)
      let changes = StateChange.diff(from: old, to: new)
      expectNoDifference(
        changes,
        [
          StateChange(
            path: "int", kind: .changed, old: String(customDumping: old.int),
            new: String(customDumping: int)),
          StateChange(
            path: "bool", kind: .changed, old: String(customDumping: old.bool),
            new: String(customDumping: bool)),
          StateChange(
            path: "double", kind: .changed, old: String(customDumping: old.double),
            new: String(customDumping: double)),
          StateChange(
            path: "string", kind: .changed, old: String(customDumping: old.string),
            new: String(customDumping: string)),
        ]
      )
    }
  }

  @Test func aCustomEqualityDecidesWhetherAStructChanged() {
    struct Cached: Equatable {
      var value = 0
      var hits = 0
      // Hits are bookkeeping, not part of the value.
      static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
    }
    struct Holder: Equatable {
      var cached = Cached()
      var other = 0
    }
    var new = Holder()
    new.cached.hits = 5
    #expect(StateChange.diff(from: Holder(), to: new).isEmpty)
    new.cached.value = 1
    expectNoDifference(
      StateChange.diff(from: Holder(), to: new),
      [
        StateChange(path: "cached.value", kind: .changed, old: "0", new: "1"),
        StateChange(path: "cached.hits", kind: .changed, old: "0", new: "5"),
      ]
    )
  }

  @Test func structsThatAreNotEquatableAreComparedFieldByField() {
    struct Plain {
      var number = 0
      var text = "x"
    }
    struct Outer {
      var plain = Plain()
      var count = 0
    }
    var new = Outer()
    new.plain.text = "y"
    expectNoDifference(
      StateChange.diff(from: Outer(), to: new),
      [StateChange(path: "plain.text", kind: .changed, old: #""x""#, new: #""y""#)]
    )
    #expect(StateChange.diff(from: Outer(), to: Outer()).isEmpty)
  }

  @Test func valuesWithDifferentBytesThatCompareEqualAreNotChanges() {
    struct Signs: Equatable {
      var zero = 0.0
      var text = "same"
    }
    // Different bytes, equal values: -0.0 == 0.0, and a string built at run time.
    let new = Signs(zero: -0.0, text: String(["s", "a", "m", "e"]))
    #expect(StateChange.diff(from: Signs(), to: new).isEmpty)
  }

  @Test func rowsThatDifferOnlyInTheirObservationRegistrarAreNotComparedWithEquals() {
    // NB: Not `Equatable`, so that the rows are compared by the identified collection's diff,
    // not by the state's `==`.
    struct List {
      var rows: IdentifiedArrayOf<ObservedRow>
    }
    let old = List(
      rows: IdentifiedArray(
        uniqueElements: (0..<100).map { ObservedRow(id: $0, title: "row \($0)") }))
    var new = old
    for id in new.rows.ids { new.rows[id: id]?._$observationRegistrar.generation += 1 }
    #expect(StateChange.diff(from: old, to: new).isEmpty)

    new.rows[id: 3]?._title = "changed"
    ObservedRow.comparisons.withLock { $0 = 0 }
    expectNoDifference(
      StateChange.diff(from: old, to: new),
      [StateChange(path: "rows[id: 3].title", kind: .changed, old: #""row 3""#, new: #""changed""#)]
    )
    // NB: The changed row's `==`, and its diff's: the other 99 are told apart by their bytes.
    #expect(ObservedRow.comparisons.withLock { $0 } <= 2)
  }

  @Test func registrarsAmongFieldsAndInNestedStructsAreLeftOutOfTheBytesCompared() {
    struct Inner: Equatable {
      var x = 0
      var _$observationRegistrar = Registrar()
      var y = 0
    }
    struct NestedRow: Equatable, Identifiable {
      static let comparisons = Mutex(0)
      var id: Int
      var _$observationRegistrar = Registrar()
      var inner = Inner()
      var title = "row"
      static func == (lhs: Self, rhs: Self) -> Bool {
        comparisons.withLock { $0 += 1 }
        return lhs.id == rhs.id && lhs.inner == rhs.inner && lhs.title == rhs.title
      }
    }
    struct List {
      var rows: IdentifiedArrayOf<NestedRow>
    }
    let old = List(rows: IdentifiedArray(uniqueElements: (0..<50).map { NestedRow(id: $0) }))
    var new = old
    for id in new.rows.ids {
      new.rows[id: id]?._$observationRegistrar.generation += 1
      new.rows[id: id]?.inner._$observationRegistrar.generation += 2
    }
    NestedRow.comparisons.withLock { $0 = 0 }
    #expect(StateChange.diff(from: old, to: new).isEmpty)
    #expect(NestedRow.comparisons.withLock { $0 } == 0)

    new.rows[id: 7]?.inner.y = 1
    new.rows[id: 9]?.inner.x = 2
    new.rows[id: 11]?.title = "changed"
    expectNoDifference(
      StateChange.diff(from: old, to: new),
      [
        StateChange(path: "rows[id: 7].inner.y", kind: .changed, old: "0", new: "1"),
        StateChange(path: "rows[id: 9].inner.x", kind: .changed, old: "0", new: "2"),
        StateChange(path: "rows[id: 11].title", kind: .changed, old: #""row""#, new: #""changed""#),
      ]
    )
  }

  @Test func changedRowsAreNamedByTheirIdsWhateverTheirType() {
    struct Tagged: Equatable, Identifiable {
      var id: String
      var count = 0
    }
    struct Keyed: Equatable, Identifiable {
      var id: UUID
      var count = 0
    }
    struct Small: Equatable, Identifiable {
      var id: Int8
      var count = 0
    }
    struct Lists {
      var tagged: IdentifiedArrayOf<Tagged>
      var keyed: IdentifiedArrayOf<Keyed>
      var small: IdentifiedArrayOf<Small>
      var numbered: IdentifiedArrayOf<Row>
    }
    let uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    let old = Lists(
      tagged: [Tagged(id: "a"), Tagged(id: "b c")], keyed: [Keyed(id: uuid)],
      small: [Small(id: -7)],
      numbered: [Row(id: 1, title: "x"), Row(id: -2, title: "y")]
    )
    var new = old
    new.tagged[id: "b c"]?.count = 1
    new.keyed[id: uuid]?.count = 2
    new.small[id: -7]?.count = 3
    new.numbered[id: -2]?.isComplete = true
    expectNoDifference(
      StateChange.diff(from: old, to: new).map(\.path),
      [
        #"tagged[id: "b c"].count"#, "keyed[id: 00000000-0000-0000-0000-000000000001].count",
        "small[id: -7].count", "numbered[id: -2].isComplete",
      ]
    )
  }

  @MainActor @Test func aStoresObserverSeesTheSameChangesAsTheDiffOfItsStates() {
    final class Collector: @unchecked Sendable {
      var pairs: [([StateChange], [StateChange])] = []
    }
    let collector = Collector()
    let store = Store(
      initialState: AppFeature.State(),
      observer: { event in
        collector.pairs.append(
          (
            ActionAnalysis(event).changes,
            StateChange.diff(from: event.stateBefore, to: event.stateAfter)
          )
        )
      }
    ) {
      AppFeature()
    }
    store.send(._internal(.login(.view(.emailChanged("blob@example.com")))))
    store.send(.view(.settingsButtonTapped))
    store.send(._internal(.todos(.view(.onAppear))))
    #expect(collector.pairs.count >= 2)
    #expect(collector.pairs.contains { !$0.0.isEmpty })
    for (typed, boxed) in collector.pairs {
      expectNoDifference(typed, boxed)
    }
  }

  @Test func exampleAppStatePaths() {
    var old = AppFeature.State()
    old.login.twoFactor = TwoFactorFeature.State(token: "t")
    old.todos.todos = [TodoRowFeature.State(id: 3, title: "x")]
    var new = old
    new.login.twoFactor?.code = "42"
    new.todos.todos[id: 3]?.isComplete = true
    expectNoDifference(
      StateChange.diff(from: old, to: new).map(\.path),
      ["login.twoFactor.code", "todos.todos[id: 3].isComplete"]
    )
  }
}
