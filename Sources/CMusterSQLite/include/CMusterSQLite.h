#ifndef MUSTER_CMUSTERSQLITE_H
#define MUSTER_CMUSTERSQLITE_H
/// The one SQLite call Swift cannot make: `sqlite3_db_config` is variadic, so the hardening switches
/// for a connection are set here. Every other raw SQLite call (the replica's hot statements in
/// `BoundStatement`) goes straight through GRDB's `GRDBSQLite` module; keep it that way and add
/// nothing here that Swift can call itself. The handle is passed as `void *` so this header does not
/// pull a second copy of <sqlite3.h> into Swift next to GRDB's.
///
/// Returns 0 (SQLITE_OK) on success, else the SQLite result code of the failing call.
int muster_sqlite_harden(void *db);
#endif
