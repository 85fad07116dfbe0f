// The store benchmark's baseline calls SQLite itself (a bare open and one query), beside the store.
#include <sqlite3.h>
