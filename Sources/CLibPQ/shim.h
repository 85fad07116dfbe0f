// libpq, PostgreSQL's client library (Debian's libpq-dev), for SteppiePostgres only.
// Named by its folder so no include path is needed: the library itself is opened on first use
// (Sources/CLazyLoad/stubs_pq.c), so this module links nothing.
#include <postgresql/libpq-fe.h>

// The diagnostic field codes are character-literal macros Swift does not import: expose them.
static inline int clibpq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int clibpq_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int clibpq_diag_message_detail(void) { return PG_DIAG_MESSAGE_DETAIL; }
