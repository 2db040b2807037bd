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

int muster_sqlite_configure_process(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
