#include "clazy.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, const char *name) {
    const char *reason = dlerror();
    fprintf(stderr, "steppie: cannot load %s %s (%s); reinstall the package's dependencies (scripts/deps.sh)\n",
            what, name, reason ? reason : "not found");
    fflush(stderr);
    _exit(1);
}

void *clazy_symbol(struct clazy_library *library, const char *symbol) {
    void *handle = library->handle;
    if (!handle) {
        pthread_mutex_lock(&open_lock);
        handle = library->handle;
        if (!handle) {
            // RTLD_LAZY: functions bound when first called, as the loader does for linked libraries;
            // RTLD_GLOBAL: a library opened later (libmicrohttpd's GnuTLS) shares the same copy.
            handle = dlopen(library->soname, RTLD_LAZY | RTLD_GLOBAL);
            if (!handle) { pthread_mutex_unlock(&open_lock); fail("library", library->soname); }
            library->handle = handle;
        }
        pthread_mutex_unlock(&open_lock);
    }
    void *address = dlsym(handle, symbol);
    if (!address) fail("function", symbol);
    return address;
}

void clazy_gnutls_free(void *pointer) {
    void (**free_function)(void *) = clazy_symbol(clazy_gnutls(), "gnutls_free");
    (*free_function)(pointer);
}
