/// An integer's decimal digits, written without the call through `CustomStringConvertible` and
/// the string storage that `String(number)` costs (about a thousand instructions): for the
/// renderings of a state's leaves, which a recorder makes at each action.
package enum DecimalDigits {
  /// Calls `body` with the ASCII digits of `number` in decimal, most significant first.
  package static func withDigits<Result>(
    of number: UInt, _ body: (UnsafeRawBufferPointer) -> Result
  ) -> Result {
    // NB: 24 bytes: a `UInt64` has at most 20 digits.
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    return withUnsafeMutableBytes(of: &digits) { digits in
      let start = self.write(number, negative: false, endingAt: digits)
      return body(UnsafeRawBufferPointer(rebasing: digits[start...]))
    }
  }

  /// `number` in decimal, as `String(number)` writes it.
  ///
  /// NB: Not through ``withDigits(of:_:)``: a generic function called from another module, with
  /// a closure, and a negative number's sign added by a second string, cost a rendering nearly
  /// twice the instructions (about 430, against 240, in the burst's counts).
  package static func string(of number: Int) -> String {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    return withUnsafeMutableBytes(of: &digits) { digits in
      let start = self.write(number.magnitude, negative: number < 0, endingAt: digits)
      return String(decoding: UnsafeRawBufferPointer(rebasing: digits[start...]), as: UTF8.self)
    }
  }

  /// Writes `magnitude`'s digits, and a minus sign before them when `negative`, so that they
  /// end where `buffer` does (24 bytes at least); returns where they start.
  private static func write(
    _ magnitude: UInt, negative: Bool, endingAt buffer: UnsafeMutableRawBufferPointer
  ) -> Int {
    var start = buffer.count
    var rest = magnitude
    repeat {
      start -= 1
      buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    } while rest > 0
    if negative {
      start -= 1
      buffer[start] = UInt8(ascii: "-")
    }
    return start
  }
}
