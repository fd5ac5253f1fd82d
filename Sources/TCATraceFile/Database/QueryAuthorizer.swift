internal import CSQLite

/// What a query from someone else may do: read tables and views, call SQLite's built-in
/// functions that compute values, and run read-only pragmas. Everything else (a function that
/// reaches outside the query, such as `fts3_tokenizer`, which reads and registers native
/// pointers, or `load_extension`; a pragma that changes the connection) is refused when the
/// query is prepared, and `refusal` says what.
///
/// NB: Writes and attached databases are refused by the connection itself (read-only, no
/// attachments); the authorizer does not duplicate that, so their errors stay SQLite's.
final class QueryAuthorizer {
  /// The first thing refused, as the user wrote it: `fts3_tokenizer()`, `PRAGMA journal_mode`.
  private(set) var refusal: String?

  /// SQLite 3.40's built-in scalar, aggregate and window functions that only compute values.
  static let functions: Set<String> = [
    "->", "->>", "abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "avg",
    "ceil", "ceiling", "changes", "char", "coalesce", "concat", "concat_ws", "cos", "cosh",
    "count", "cume_dist", "current_date", "current_time", "current_timestamp", "date",
    "datetime", "degrees", "dense_rank", "exp", "first_value", "floor", "format", "glob",
    "group_concat", "hex", "ifnull", "iif", "instr", "json", "json_array", "json_array_length",
    "json_extract", "json_group_array", "json_group_object", "json_insert", "json_object",
    "json_patch", "json_quote", "json_remove", "json_replace", "json_set", "json_type",
    "json_valid", "julianday", "lag", "last_insert_rowid", "last_value", "lead", "length",
    "like", "likelihood", "likely", "ln", "log", "log10", "log2", "lower", "ltrim", "max",
    "min", "mod", "nth_value", "ntile", "nullif", "octet_length", "percent_rank", "pi", "pow",
    "power", "printf", "quote", "radians", "random", "rank", "replace", "round", "row_number",
    "rtrim", "sign", "sin", "sinh", "soundex", "sqlite_compileoption_get",
    "sqlite_compileoption_used", "sqlite_source_id", "sqlite_version", "sqrt", "strftime",
    "string_agg", "substr", "substring", "sum", "tan", "tanh", "time", "timediff", "total",
    "total_changes", "trim", "trunc", "typeof", "unhex", "unicode", "unixepoch", "unlikely",
    "upper",
  ]

  /// Pragmas that only read, as statements without a value (`PRAGMA user_version`).
  static let pragmas: Set<String> = [
    "application_id", "collation_list", "compile_options", "data_version", "database_list",
    "encoding", "foreign_key_check", "foreign_key_list", "freelist_count", "function_list",
    "index_info", "index_list", "index_xinfo", "integrity_check", "module_list", "page_count",
    "page_size", "pragma_list", "quick_check", "schema_version", "table_info", "table_list",
    "table_xinfo", "user_version",
  ]

  /// Of those, the pragmas whose argument names what to read (`PRAGMA table_info(actions)`)
  /// rather than sets a value.
  static let pragmasWithArgument: Set<String> = [
    "foreign_key_check", "foreign_key_list", "index_info", "index_list", "index_xinfo",
    "integrity_check", "quick_check", "table_info", "table_list", "table_xinfo",
  ]

  /// Runs `body` with this authorizer deciding for the statements `db` prepares (and
  /// re-prepares) meanwhile.
  func authorizing<T, E: Error>(_ db: OpaquePointer, _ body: () throws(E) -> T) throws(E) -> T {
    let context = Unmanaged.passUnretained(self).toOpaque()
    sqlite3_set_authorizer(db, authorize, context)
    defer { sqlite3_set_authorizer(db, nil, nil) }
    return try withExtendedLifetime(self) { () throws(E) -> T in try body() }
  }

  fileprivate func decide(_ action: Int32, _ first: String?, _ second: String?) -> Int32 {
    switch action {
    case SQLITE_FUNCTION:
      let name = (second ?? "").lowercased()
      guard Self.functions.contains(name) else { return self.refuse("\(second ?? "")()") }
      return SQLITE_OK
    case SQLITE_PRAGMA:
      let name = (first ?? "").lowercased()
      guard
        Self.pragmas.contains(name),
        second == nil || Self.pragmasWithArgument.contains(name)
      else {
        return self.refuse("PRAGMA \(first ?? "")\(second.map { " = \($0)" } ?? "")")
      }
      return SQLITE_OK
    default:
      return SQLITE_OK
    }
  }

  private func refuse(_ what: String) -> Int32 {
    if self.refusal == nil { self.refusal = what }
    return SQLITE_DENY
  }
}

private func authorize(
  _ context: UnsafeMutableRawPointer?, _ action: Int32,
  _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?,
  _ database: UnsafePointer<CChar>?, _ trigger: UnsafePointer<CChar>?
) -> Int32 {
  guard let context else { return SQLITE_DENY }
  let authorizer = Unmanaged<QueryAuthorizer>.fromOpaque(context).takeUnretainedValue()
  return authorizer.decide(
    action, first.map { String(cString: $0) }, second.map { String(cString: $0) })
}
