/// The parts of a kept state that rebuilding a later state from it left in its JSON, unread:
/// those no change since reaches. Each stands in the tree as a text (a *stub*) that the
/// renderer knows, and is printed straight from the JSON (`StateRenderer+JSON.swift`);
/// ``PartialStateReader`` makes them.
///
/// NB: A keyframe of a large state is mostly parts no change since reaches: building them into
/// nodes to print them cost most of the time of `tcatrace state`. A stub is a `.text` node, not
/// a case of its own, because ``StateNode`` is public: a new case would break every client's
/// exhaustive `switch`. Only a renderer given the stubs (``StateRenderer/stubs``, set by
/// `TraceReader.state(session:after:)` for the one render it does) looks for them; every other
/// render has none and checks nothing.
struct StateStubs {
  let bytes: UnsafeBufferPointer<UInt8>
  /// What a stub's text starts with: a control character no rendering starts with, and a
  /// number drawn for this read, which a file cannot forge.
  private let marker: [UInt8]
  /// Where each stub's node starts in `bytes`, and how deep in the tree it is.
  private var nodes: [(offset: Int, depth: Int)] = []
  /// The rests (see ``rest(depth:closers:)``), in the order they are printed: innermost first.
  private(set) var rests: [Rest] = []
  /// Where the JSON not read yet goes on: where reading stopped, then after each rest printed.
  let cursor = Cursor()

  /// The children of a container that were not read, from after the child within which reading
  /// stopped to the container's end.
  struct Rest {
    /// The container's depth in the tree.
    var depth: Int
    /// The `]`s that end the child within which reading stopped (and the containers within it
    /// that reading stopped in), before the rest's first `,`.
    var closers: Int
  }

  /// Where printing the JSON not read yet has got to.
  final class Cursor {
    /// The byte.
    var offset = 0
    /// How many rests have been printed.
    var printed = 0
  }

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    self.marker =
      [0x01] + Array(String(UInt64.random(in: .min ... .max), radix: 36).utf8) + [UInt8(ascii: ":")]
  }

  /// A stub for the container whose JSON starts at `offset`, `depth` levels down the tree,
  /// which has children.
  ///
  /// NB: Its text has a line break, so that its parent's layout (``StateNode/isAtomic``) takes
  /// it for a value with parts, as the container it stands for is.
  mutating func stub(at offset: Int, depth: Int) -> StateNode {
    let text = String(decoding: self.marker, as: UTF8.self) + String(self.nodes.count) + "\n"
    self.nodes.append((offset, depth))
    return .text(text)
  }

  /// The last child of a container `depth` levels down the tree in which reading stopped: it
  /// stands for the children not read, printed from where ``cursor`` is when it is reached.
  mutating func rest(depth: Int, closers: Int) -> StateChild {
    let text = String(decoding: self.marker, as: UTF8.self) + "r" + String(self.rests.count) + "\n"
    self.rests.append(Rest(depth: depth, closers: closers))
    return StateChild(label: nil, key: text, node: .text(text))
  }

  /// Where the node that `text` stands for starts, and its depth; `nil` when `text` is not a
  /// stub.
  func node(of text: String) -> (offset: Int, depth: Int)? {
    self.number(in: text).flatMap { self.nodes.indices.contains($0) ? self.nodes[$0] : nil }
  }

  /// The rest that `child` is, and its number; `nil` when it is not one.
  func rest(_ child: StateChild) -> (number: Int, rest: Rest)? {
    guard case let .text(text) = child.node,
      let number = self.number(in: text, after: UInt8(ascii: "r")),
      self.rests.indices.contains(number)
    else { return nil }
    return (number, self.rests[number])
  }

  /// The number of a stub's (`prefix`: a rest's) text; `nil` when `text` is not one.
  private func number(in text: String, after prefix: UInt8? = nil) -> Int? {
    let utf8 = text.utf8
    guard utf8.first == 0x01, utf8.starts(with: self.marker) else { return nil }
    var digits = utf8.dropFirst(self.marker.count)
    if let prefix {
      guard digits.first == prefix else { return nil }
      digits = digits.dropFirst()
    }
    var number = 0
    for byte in digits {
      if byte == 0x0A { break }
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      number = number &* 10 &+ Int(byte - UInt8(ascii: "0"))
    }
    return number
  }
}
