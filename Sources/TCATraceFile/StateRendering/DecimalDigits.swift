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
      var count = 0
      var rest = number
      repeat {
        digits[digits.count - 1 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
        count += 1
      } while rest > 0
      return body(UnsafeRawBufferPointer(rebasing: digits[(digits.count - count)...]))
    }
  }
}
