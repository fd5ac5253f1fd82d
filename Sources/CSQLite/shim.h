#ifndef TCATRACE_CSQLITE_SHIM_H
#define TCATRACE_CSQLITE_SHIM_H

#if __has_include(<sqlite3.h>)
#include <sqlite3.h>
#else
#error "SQLite's header sqlite3.h is not installed: on Debian and Ubuntu, apt-get install libsqlite3-dev; on Fedora, dnf install sqlite-devel (Apple's SDKs have it)"
#endif

// NB: `sqlite3_db_config` is variadic and cannot be called from Swift; each use gets a
// non-variadic wrapper here.

/// Turns defensive mode on for `db`: the schema of a file from someone else cannot be used to
/// corrupt it (no writes to `sqlite_master`, no `PRAGMA writable_schema`).
static inline int csqlite_enable_defensive(sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}

/// Turns SQLite's memory statistics on, which its hard heap limit needs to be enforced: a build
/// with `SQLITE_DEFAULT_MEMSTATUS=0` (as Apple's system SQLite is reported to be) has them off.
/// `SQLITE_MISUSE` once SQLite has been initialized (by a connection, or a heap limit).
static inline int csqlite_enable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 1);
}

/// Turns off views and triggers from the file's schema calling functions with side effects.
static inline int csqlite_disable_trusted_schema(sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
}

#endif
