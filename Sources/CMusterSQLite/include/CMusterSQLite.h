#ifndef MUSTER_CMUSTERSQLITE_H
#define MUSTER_CMUSTERSQLITE_H
/// The SQLite calls Swift cannot make: `sqlite3_db_config` and `sqlite3_config` are variadic, so the
/// hardening switches for a connection, and the process-wide allocator setting, are set here. Every other raw SQLite call (the replica's hot statements in
/// `BoundStatement`) goes straight through GRDB's `GRDBSQLite` module; keep it that way and add
/// nothing here that Swift can call itself. The handle is passed as `void *` so this header does not
/// pull a second copy of <sqlite3.h> into Swift next to GRDB's.
///
/// Returns 0 (SQLITE_OK) on success, else the SQLite result code of the failing call.
int muster_sqlite_harden(void *db);

/// Turns SQLite's memory statistics off for the process (`SQLITE_CONFIG_MEMSTATUS`, 0): with them on,
/// every allocation SQLite makes (one per text or blob bound, for a start) takes a global mutex to
/// count itself, 10 % of a catch-up's instructions; Muster reads none of the statistics and sets no
/// soft heap limit. Only possible before SQLite initializes (the first connection opened in the
/// process): returns SQLITE_MISUSE after, which changes nothing.
int muster_sqlite_configure_process(void);
#endif
