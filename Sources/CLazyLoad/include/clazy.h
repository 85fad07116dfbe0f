#ifndef CLAZY_H
#define CLAZY_H
#include <stddef.h>

// Shared libraries opened on first use instead of at program start (issue 16): the stubs in
// stubs_*.c (written by scripts/make-lazy-stubs.py) carry each library function's own prototype
// and call through a pointer looked up the first time.

/// One library: its soname and, once opened, its handle.
struct clazy_library {
    const char *soname;
    void *_Atomic handle;
};

/// The address of `symbol` in `library`, opening the library first if needed. A library or
/// symbol that cannot be found ends the process with a message naming it (as the dynamic loader
/// did when these libraries were linked): exit status 1.
void *clazy_symbol(struct clazy_library *library, const char *symbol);

struct clazy_library *clazy_espeak_ng(void);
struct clazy_library *clazy_pulse(void);
struct clazy_library *clazy_sndfile(void);
struct clazy_library *clazy_gnutls(void);
struct clazy_library *clazy_systemd(void);
struct clazy_library *clazy_microhttpd(void);
struct clazy_library *clazy_zip(void);

/// Opens `library` now, nothing more: its first function called then finds it open.
void clazy_open(struct clazy_library *library);

/// True when `arguments` (the command line without the program's name) will surely synthesize
/// speech in this process: `say … --out FILE` and `feedback preview … --out FILE`, not help, not
/// `--print-spoken`, not a `say` a running service may take. The one rule for the constructor
/// that starts loading libespeak-ng before `main` and for `Prewarm`.
int clazy_speaks_in_process(int count, const char *const *arguments);

/// GnuTLS's `gnutls_free` is a variable holding a function pointer, not a function.
void clazy_gnutls_free(void *pointer);

#endif
