import Foundation
import Testing

/// The objects `tcatrace … --format json` (one document) or `--format jsonl` (one a line, when
/// `lines`) printed in `stdout`, each without its `session` member: what differs between a
/// trace and a copy of it (`merge`, `export --format trace`).
func jsonObjectsWithoutSession(
  _ stdout: String, lines: Bool, sourceLocation: SourceLocation = #_sourceLocation
) throws -> [NSDictionary] {
  let documents = lines ? stdout.split(separator: "\n").map(String.init) : [stdout]
  return try documents.flatMap { document in
    let value = try JSONSerialization.jsonObject(with: Data(document.utf8))
    let objects: [[String: Any]]
    if let array = value as? [[String: Any]] {
      objects = array
    } else {
      objects = [try #require(value as? [String: Any], sourceLocation: sourceLocation)]
    }
    return objects.map { object in
      var object = object
      object["session"] = nil
      return object as NSDictionary
    }
  }
}
