import Composable
import CustomDump
import Foundation
import IdentifiedCollections
@testable import TCATrace
import TCATraceExamples
import TCATraceFile
import Testing
import TestSupport

/// Issue #18: a state's tree renders exactly as CustomDump renders the state, whatever its
/// shape, and a change's path names the node it changed.
@Suite(.hangGuard) struct StateTreeTests {
  fileprivate struct Counter: Equatable { var count = 3 }
  fileprivate struct Wrapper: Equatable { var value: Int? = 5 }
  fileprivate struct Texts: Equatable {
    var plain = "hello"
    var quoted = #"say "hi" \ bye"#
    var hashed = ##"a "# b"##
    var lines = "one\ntwo\n\"\"\"three"
    var tab = "a\tb"
    var unicode = "café ✓ \u{202E}"
    var empty = ""
  }
  fileprivate enum Status: Equatable {
    case idle, loading, failed(String), moved(from: Int, to: Int), pair(Int, String)
  }
  fileprivate enum Described: Equatable, CustomStringConvertible {
    case on
    var description: String { "ON" }
  }
  fileprivate struct Row: Equatable, Identifiable {
    var id: Int; var title: String; var done = false
  }
  fileprivate struct Everything: Equatable {
    var counter = Counter()
    var wrapper = Wrapper()
    var missing: Counter? = nil
    var present: Counter? = Counter(count: 1)
    var texts = Texts()
    var status = Status.idle
    var failed = Status.failed("boom")
    var moved = Status.moved(from: 1, to: 2)
    var pair = Status.pair(1, "x")
    var described = Described.on
    var numbers = [1, 2, 3]
    var noNumbers: [Int] = []
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "a"), Row(id: 2, title: "b\nc")]
    var plainRows = [Row(id: 7, title: "z")]
    var scores = ["b": 2, "a": 1, "c\"": 3]
    var noScores: [String: Int] = [:]
    var tags: Set<Int> = [3, 1, 2]
    var point = (x: 1, y: 2)
    var anonymous = (1, "two")
    var double = 1.5
    var flag = true
    var date = Date(timeIntervalSince1970: 0)
    var url = URL(string: "https://example.com/a")!
    var uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    var type: Any.Type = Int.self

    static func == (lhs: Everything, rhs: Everything) -> Bool { false }
  }

  @Test func everyShapeRendersAsCustomDumpRendersIt() {
    let value = Everything()
    #expect(StateTree.node(of: value).rendered() == String(customDumping: value))
  }

  @Test func rootsRenderAsCustomDumpRendersThem() {
    let roots: [Any] = [
      Status.idle, Status.failed("x"), Status.moved(from: 1, to: 2), Counter(), [1, 2], ["a": 1],
      "one\ntwo", "plain", Optional<Int>.none as Any, Optional(Counter()) as Any, (1, 2),
      Set(["x"]),
    ]
    for root in roots {
      #expect(StateTree.node(of: root).rendered() == String(customDumping: root))
    }
  }

  @Test func theDemosStatesRenderAsCustomDumpRendersThem() {
    var state = AppFeature.State()
    #expect(StateTree.node(of: state).rendered() == String(customDumping: state))
    state.path.append(.settings(SettingsFeature.State(displayName: "Blob")))
    state.user = User(id: 1, name: "Blob")
    state.todos.todos.append(TodoRowFeature.State(id: 1, title: "Milk"))
    state.todos.alert = AlertState { TextState("Failed") }
    #expect(StateTree.node(of: state).rendered() == String(customDumping: state))
  }

  @Test func pathsNameTheNodesTheDiffNames() throws {
    let value = Everything()
    let tree = StateTree.node(of: value)
    #expect(tree.node(at: "counter.count") == .text("3"))
    #expect(tree.node(at: "present.count") == .text("1"))
    #expect(tree.node(at: "rows[id: 2].title") == .multilineString("b\nc", hashes: 0))
    // NB: An array of `Identifiable` rows has no `[id:]` subscript: its rows go by index.
    #expect(tree.node(at: "plainRows[0].title") == .text(#""z""#))
    #expect(tree.node(at: "plainRows[id: 7].title") == nil)
    #expect(tree.node(at: "numbers[1]") == .text("2"))
    #expect(tree.node(at: #"scores["a"]"#) == .text("1"))
    #expect(tree.node(at: "failed.failed") == .text(#""boom""#))
    #expect(tree.node(at: "moved.moved.from") == .text("1"))
    #expect(tree.node(at: "pair.pair..1") == .text(#""x""#))
    #expect(tree.node(at: "point.y") == .text("2"))
    #expect(tree.node(at: "counter.missing") == nil)
    #expect(tree.node(at: "count") == nil)
  }

  @Test func hashesAreCountedAsCustomDumpCountsThem() {
    #expect(StateTree.hashCount(##"a "# b"##, multiline: false) == 2)
    #expect(StateTree.hashCount(#"a " b"#, multiline: false) == 1)
    #expect(StateTree.hashCount("x", multiline: false) == 0)
    #expect(StateTree.hashCount("a\n\"\"\"## b", multiline: true) == 3)
    #expect(StateTree.hashCount("a\n\"\" b", multiline: true) == 0)
  }
  @Test func aTreeSurvivesItsJSON() throws {
    let tree = StateTree.node(of: Everything())
    #expect(try StateNode(json: tree.json) == tree)
    let odd = StateNode.container(
      StateContainer(
        kind: .dictionary(sorted: true),
        children: [
          StateChild(
            label: "\u{0}\u{1F}\"\\/", key: "[é ✓ 😀]", node: .multilineString("a\r\n\tb", hashes: 3)
          ),
          StateChild(label: nil, key: "", node: .some(.enumCase(type: "T", description: "x"))),
        ]
      )
    )
    #expect(try StateNode(json: odd.json) == odd)
    #expect(try StateNode(json: #" ["t" , "\u00e9\ud83d\ude00\n"] "#) == .text("é😀\n"))
    for bad in [
      #"["t","x"#, #"["t",x]"#, #"["t","\ud83d"]"#, #"["m","x",99999999999999999999]"#,
      "[\"t\",\"a\u{1}\"]", "[] []",
    ] {
      #expect(throws: StateJSONError.self, "\(bad)") { try StateNode(json: bad) }
    }
  }
}
