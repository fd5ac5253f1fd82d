#if ComposableArchitecture
  import ComposableArchitecture
#else
  import Composable
#endif

/// The root feature's name as a user writes it, for the session's `root_feature`: the reducer's
/// type name (`AppFeature`), or, for a reducer whose type is a composition (`TicTacToe.body`'s
/// `_IfCaseLetReducer<_IfCaseLetReducer<Reduce<State, Action>, Login>, NewGame>`, a bare
/// `Reduce`, `CombineReducers`, `_printChanges()`), the feature whose `State` it reduces
/// (`TicTacToe`), named from the innermost type that encloses the state, as the user wrote it,
/// without its module.
///
/// NB: `String(describing:)` names a nested type by its last component only, and a generic one
/// with its arguments; the state's `String(reflecting:)` has its enclosing types.
func rootFeatureName<R: Reducer>(of reducer: R.Type) -> String {
  let name = String(describing: reducer)
  if isPlainTypeName(name) { return name }
  var components = String(reflecting: R.State.self).split(separator: ".").map(String.init)
  // NB: The module, then the state's own name: what is left encloses it.
  guard components.count >= 3, components.last == "State" else { return name }
  components.removeFirst()
  components.removeLast()
  let feature = components.joined(separator: ".")
  return isPlainTypeName(feature) ? feature : name
}

/// Whether `name` is a type's name as Swift source writes it, dotted: no generic arguments, no
/// `(extension in …)` or `(unknown context at …)` of a local or private type.
private func isPlainTypeName(_ name: String) -> Bool {
  !name.isEmpty
    && name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
      guard let first = part.unicodeScalars.first, !("0"..."9").contains(first) else {
        return false
      }
      return part.unicodeScalars.allSatisfy {
        $0 == "_" || $0.properties.isAlphabetic || $0.properties.numericType != nil
      }
    }
}
