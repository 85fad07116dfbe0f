#ifndef CLAZY_H
#define CLAZY_H
#include <stddef.h>

// Shared libraries opened on first use instead of at program start (issue 16): the stubs in
// stubs_*.c (written by scripts/make-lazy-stubs.py) carry each library function's own prototype
// and call through a pointer looked up the first time.

/// One library: its soname, once opened its handle, and every name the engine looks up in it
/// (NULL-terminated, written by the same script as the stubs).
struct clazy_library {
    const char *soname;
    void *_Atomic handle;
    const char *const *symbols;
};

/// The address of `symbol` in `library`, opening the library first if needed. A library or
/// symbol that cannot be found ends the process with a message naming it (as the dynamic loader
/// did when these libraries were linked), or the library it needs that could not be loaded:
/// exit status 1. `steppie serve` never gets here with a missing one (`clazy_check_all`).
void *clazy_symbol(struct clazy_library *library, const char *symbol);

struct clazy_library *clazy_espeak_ng(void);
struct clazy_library *clazy_pulse(void);
struct clazy_library *clazy_sndfile(void);
struct clazy_library *clazy_gnutls(void);
struct clazy_library *clazy_systemd(void);
struct clazy_library *clazy_microhttpd(void);
struct clazy_library *clazy_zip(void);
struct clazy_library *clazy_pq(void);

/// Opens `library` now, nothing more: its first function called then finds it open.
void clazy_open(struct clazy_library *library);

/// True when `arguments` (the command line without the program's name) will surely synthesize
/// speech in this process: `say … --out FILE` and `feedback preview … --out FILE`, not help, not
/// `--print-spoken`, not a `say` a running service may take. The one rule for the constructor
/// that starts loading libespeak-ng before `main` and for `Prewarm`.
int clazy_speaks_in_process(int count, const char *const *arguments);

/// Why a library could not be loaded: `soname` is the one that failed (a library ours needs when
/// the loader named it: then `needed_by` is ours), `reason` the loader's words, `signal` the
/// signal that ended the checking process while loading (0: none), `timed_out` when it hung.
struct clazy_failure {
    char soname[128];
    char needed_by[128];
    char reason[512];
    int signal;
    char signal_name[16];
    int timed_out;
};

/// Checks every library in a child process (`steppie __check-libraries`, answered by a
/// constructor before `main`): each opened with every binding made now and every name in its
/// table resolved, in dependency order, so a missing, damaged or truncated file (SIGBUS while
/// mapping it) is named without harming this process. 0 when all loaded; -1 with `failure` filled.
int clazy_check_all(struct clazy_failure *failure);

/// Opens every library in this process with all bindings made now and resolves every name in the
/// tables, so nothing the service calls later has to be loaded. 0, or -1 with `failure` filled
/// (never ends the process; a damaged file can still SIGBUS: run `clazy_check_all` first).
int clazy_open_all(struct clazy_failure *failure);

/// GnuTLS's `gnutls_free` is a variable holding a function pointer, not a function.
void clazy_gnutls_free(void *pointer);

#endif
