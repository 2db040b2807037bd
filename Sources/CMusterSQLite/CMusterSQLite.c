#include "CMusterSQLite.h"
#include <sqlite3.h>

int muster_sqlite_harden(void *handle) {
    sqlite3 *db = (sqlite3 *)handle;
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    if (rc != SQLITE_OK) return rc;
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    rc = sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
    if (rc != SQLITE_OK) return rc;
#endif
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
}

int muster_stmt_reset(void *stmt) { return sqlite3_reset((sqlite3_stmt *)stmt); }

int muster_stmt_bind_int64(void *stmt, int index, long long value) {
    return sqlite3_bind_int64((sqlite3_stmt *)stmt, index, (sqlite3_int64)value);
}

int muster_stmt_bind_null(void *stmt, int index) { return sqlite3_bind_null((sqlite3_stmt *)stmt, index); }

int muster_stmt_bind_blob(void *stmt, int index, const void *bytes, int count) {
    return sqlite3_bind_blob((sqlite3_stmt *)stmt, index, count == 0 ? "" : bytes, count, SQLITE_TRANSIENT);
}

int muster_stmt_bind_text(void *stmt, int index, const char *utf8, int count) {
    return sqlite3_bind_text((sqlite3_stmt *)stmt, index, count == 0 ? "" : utf8, count, SQLITE_TRANSIENT);
}

int muster_stmt_step(void *stmt) { return sqlite3_step((sqlite3_stmt *)stmt); }

const char *muster_db_errmsg(void *db) { return sqlite3_errmsg((sqlite3 *)db); }
