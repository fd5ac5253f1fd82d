/// The helper every test `tcatrace test` writes ends with, written once for the two programs:
/// `tcatrace` writes it, and `tcatrace-lint --generated-test` (`GeneratedTestGrammar`) accepts
/// exactly it there.
package enum GeneratedTestHelper {
  /// The line above the function.
  package static let documentation = "/// A value from the JSON the trace recorded of it."

  /// The function, as it is written.
  package static let function = """
    private func decoded<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
      try JSONDecoder().decode(type, from: Data(json.utf8))
    }
    """
}
