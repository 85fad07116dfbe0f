#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: expose it as a function.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return (sqlite3_destructor_type)-1;
}

// sqlite3_config and sqlite3_db_config are variadic: wrap the calls we need.
static inline int csqlite_db_config_defensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}
