#ifndef MUSTER_CMUSTERSQLITE_H
#define MUSTER_CMUSTERSQLITE_H
/// Hardening switches for a SQLite connection that Swift cannot call directly because
/// `sqlite3_db_config` is variadic. The handle is passed as `void *` so this header does not
/// pull a second copy of <sqlite3.h> into Swift next to GRDB's.
///
/// Returns 0 (SQLITE_OK) on success, else the SQLite result code of the failing call.
int muster_sqlite_harden(void *db);
#endif
