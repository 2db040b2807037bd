#ifndef MUSTER_CMUSTERSQLITE_H
#define MUSTER_CMUSTERSQLITE_H
/// Hardening switches for a SQLite connection that Swift cannot call directly because
/// `sqlite3_db_config` is variadic. The handle is passed as `void *` so this header does not
/// pull a second copy of <sqlite3.h> into Swift next to GRDB's.
///
/// Returns 0 (SQLITE_OK) on success, else the SQLite result code of the failing call.
int muster_sqlite_harden(void *db);

/// Direct binding for the replica's hot write statements (see `BoundStatement`): a statement
/// prepared by GRDB is reset, bound and stepped without building GRDB's argument arrays. Each
/// returns the SQLite result code; text and blobs are copied (SQLITE_TRANSIENT).
int muster_stmt_reset(void *stmt);
int muster_stmt_bind_int64(void *stmt, int index, long long value);
int muster_stmt_bind_null(void *stmt, int index);
int muster_stmt_bind_blob(void *stmt, int index, const void *bytes, int count);
int muster_stmt_bind_text(void *stmt, int index, const char *utf8, int count);
int muster_stmt_step(void *stmt);
const char *muster_db_errmsg(void *db);
#endif
