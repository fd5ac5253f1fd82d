import Foundation
import RuntimeSupport

/// The JSON of `Encodable` values, as a trace stores it.
///
/// NB: One encoder configuration for the action's JSON and for the JSON fragments the
/// redactor looks for in it: a secret is found only if both encode it the same way.
enum TraceJSON {
  private static let encodableTypes = Locked<[ObjectIdentifier: Bool]>([:])

  /// `value` as JSON, with sorted keys; `nil` when it is not `Encodable` or fails to encode.
  static func encode(_ value: Any) -> String? {
    // NB: Whether a type is `Encodable` is asked of every action; the answer is kept per type.
    let key = ObjectIdentifier(type(of: value))
    let isEncodable =
      self.encodableTypes.withLock { $0[key] }
      ?? {
        let isEncodable = value is any Encodable
        self.encodableTypes.withLock { $0[key] = isEncodable }
        return isEncodable
      }()
    guard isEncodable, let value = value as? any Encodable else { return nil }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
  }
}
