/// Where a reducer operator was written, for the issues it reports.
@usableFromInline
struct SourceLocation: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
}

/// The cancellation id of the effects of an `ifLet` child or a `forEach` element.
@usableFromInline
struct KeyPathID: Hashable, @unchecked Sendable {
  // NB: Key paths are immutable; see `ActionRoute`.
  let keyPath: AnyKeyPath
  let elementID: ActionRoute.ElementID?
}
