import CustomDump

/// Marks a type whose values are always secret: wherever one appears — in an action's
/// payload, in the state, nested in arrays and structs — a trace holds `<redacted>` instead.
///
/// ```swift
/// struct Password: Equatable, TraceRedacted {
///   var value: String
/// }
/// ```
///
/// A change of such a value is still recorded, with both sides `<redacted>`, so a replay
/// shows that the field was edited.
public protocol TraceRedacted: CustomDumpStringConvertible {}

extension TraceRedacted {
  /// `<redacted>`: how CustomDump, and so every trace, renders the value.
  public var customDumpDescription: String {
    TraceRedaction.marker
  }
}
