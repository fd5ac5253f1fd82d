import ToolSupport

/// A key the debugger reads.
enum Key: Equatable {
  case character(Character)
  case up, down, left, right, home, end, pageUp, pageDown
  case enter, escape, backspace, tab
  /// A control character other than those above: `control(0x03)` is Ctrl-C.
  case control(UInt8)
  /// An escape sequence the debugger does not know (a function key).
  case unknown
}

/// The terminal, taken over for a full-screen program: raw input, the alternate screen, no
/// cursor, no line wrap. Whatever ends the program gives the terminal back as it was.
final class RawTerminal {
  private var pending: [UInt8] = []

  /// Takes over the terminal on standard input and output.
  ///
  /// - Throws: ``NotATerminal`` when either is not a terminal.
  init() throws {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw NotATerminal() }
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else { throw NotATerminal() }
    RawTerminal.original = original
    var raw = original
    // NB: As `cfmakeraw`, but output processing stays on: '\n' still starts a line.
    raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
    raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
    for ending in [SIGTERM, SIGHUP, SIGQUIT] {
      signal(ending) { ending in
        RawTerminal.giveBack()
        _exit(128 + ending)
      }
    }
    // NB: A handler, not SIG_IGN, so that a resize interrupts the wait for a key (`poll`, which
    // neither Linux nor Darwin restarts after a handler, whatever its flags) and the screen is
    // drawn again at once. `signal`, not `sigaction`: the handler's field of `struct sigaction`
    // is `__sigaction_handler` in glibc and `__sigaction_u` in Darwin's `<sys/signal.h>`.
    signal(SIGWINCH) { _ in }
    RawTerminal.show(RawTerminal.enterSequence)
  }

  deinit {
    RawTerminal.giveBack()
  }

  /// Gives the terminal back as it was.
  func giveBack() {
    RawTerminal.giveBack()
  }

  struct NotATerminal: Error {}

  /// The screen's size; 24×80 when the terminal does not say.
  var size: (rows: Int, columns: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0
    else {
      return (24, 80)
    }
    return (Int(size.ws_row), Int(size.ws_col))
  }

  /// The keys typed, waiting up to `timeout` milliseconds for the first; empty when none came
  /// (or the screen was resized).
  func keys(waiting timeout: Int32) throws -> [Key] {
    guard self.waitForInput(timeout) else { return [] }
    try self.readAvailable()
    var keys: [Key] = []
    while !self.pending.isEmpty {
      // NB: An escape alone is the Escape key; a sequence's bytes may arrive in pieces.
      if self.pending == [0x1B], self.waitForInput(30) { try self.readAvailable() }
      keys.append(self.nextKey())
    }
    return keys
  }

  /// Standard input closed: the terminal went away.
  struct InputClosed: Error {}

  private func waitForInput(_ timeout: Int32) -> Bool {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, timeout) > 0
  }

  private func readAvailable() throws {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(STDIN_FILENO, &buffer, buffer.count)
    if count < 0, errno == EINTR || errno == EAGAIN { return }
    guard count > 0 else { throw InputClosed() }
    self.pending += buffer[..<count]
  }

  private func nextKey() -> Key {
    let byte = self.pending.removeFirst()
    switch byte {
    case 0x0D, 0x0A: return .enter
    case 0x09: return .tab
    case 0x7F, 0x08: return .backspace
    case 0x1B: return self.escapeSequence()
    case 0..<0x20: return .control(byte)
    case 0x20..<0x80: return .character(Character(Unicode.Scalar(byte)))
    default:
      // NB: A UTF-8 sequence, as long as its first byte says; broken ones become U+FFFD.
      let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
      var bytes = [byte]
      while bytes.count < length, let next = self.pending.first, next & 0xC0 == 0x80 {
        bytes.append(self.pending.removeFirst())
      }
      return String(decoding: bytes, as: UTF8.self).first.map(Key.character) ?? .unknown
    }
  }

  /// After an escape: `ESC [ … final` or `ESC O final`, else the Escape key itself.
  private func escapeSequence() -> Key {
    guard let introducer = self.pending.first,
      introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O")
    else { return .escape }
    self.pending.removeFirst()
    var parameters: [UInt8] = []
    while let next = self.pending.first {
      self.pending.removeFirst()
      guard (0x40...0x7E).contains(next) else {
        parameters.append(next)
        continue
      }
      switch (next, parameters) {
      case (UInt8(ascii: "A"), _): return .up
      case (UInt8(ascii: "B"), _): return .down
      case (UInt8(ascii: "C"), _): return .right
      case (UInt8(ascii: "D"), _): return .left
      case (UInt8(ascii: "H"), _): return .home
      case (UInt8(ascii: "F"), _): return .end
      case (UInt8(ascii: "~"), Array("1".utf8)), (UInt8(ascii: "~"), Array("7".utf8)): return .home
      case (UInt8(ascii: "~"), Array("4".utf8)), (UInt8(ascii: "~"), Array("8".utf8)): return .end
      case (UInt8(ascii: "~"), Array("5".utf8)): return .pageUp
      case (UInt8(ascii: "~"), Array("6".utf8)): return .pageDown
      default: return .unknown
      }
    }
    return .unknown
  }

  /// Writes `text` to the terminal whole.
  ///
  /// NB: Not named `write`, which would hide C's `write` here: C's is called by its own name,
  /// as `<unistd.h>` declares it on Linux and Darwin alike.
  static func show(_ text: String) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { RawTerminal.show($0) }
  }

  /// Writes `bytes` whole, allocating nothing (it is called from a signal handler).
  private static func show(_ bytes: UnsafeRawBufferPointer) {
    var start = 0
    while start < bytes.count {
      let written = write(STDOUT_FILENO, bytes.baseAddress! + start, bytes.count - start)
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      start += written
    }
  }

  /// The alternate screen, the cursor hidden, lines not wrapped.
  private static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l"
  private static let leaveSequence: StaticString = "\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

  /// The terminal's settings before it was taken over; `nil` once given back.
  nonisolated(unsafe) private static var original: termios?

  /// Gives the terminal back: from `deinit`, or from a signal handler (so only calls that are
  /// safe there).
  private static func giveBack() {
    guard var original = RawTerminal.original else { return }
    RawTerminal.original = nil
    RawTerminal.show(
      UnsafeRawBufferPointer(start: leaveSequence.utf8Start, count: leaveSequence.utf8CodeUnitCount)
    )
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
  }
}
