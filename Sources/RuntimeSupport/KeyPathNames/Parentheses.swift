extension StringProtocol {
  /// The index of the first character from `start` on that `isMatch` takes and that is outside
  /// every parenthesis opened from `start` on; `nil` when there is none.
  ///
  /// A key path's description names a computed component's type in parentheses, which may hold
  /// `<>`, `,` and parentheses of their own (`<computed 0x… (Optional<(Int, Int)>)>`): the
  /// readers of descriptions and payloads find their delimiters with this.
  package func firstIndex(
    from start: Index, outsideParentheses isMatch: (Character) -> Bool
  ) -> Index? {
    var depth = 0
    var index = start
    while index < self.endIndex {
      let character = self[index]
      if depth == 0, isMatch(character) { return index }
      switch character {
      case "(": depth += 1
      case ")": depth -= 1
      default: break
      }
      index = self.index(after: index)
    }
    return nil
  }
}
