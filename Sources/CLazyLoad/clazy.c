#include "clazy.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, const char *name) {
    const char *reason = dlerror();
    fprintf(stderr, "steppie: cannot load %s %s (%s); reinstall the package's dependencies (scripts/deps.sh)\n",
            what, name, reason ? reason : "not found");
    fflush(stderr);
    _exit(1);
}

static void *open_library(struct clazy_library *library) {
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
    return handle;
}

void clazy_open(struct clazy_library *library) { (void)open_library(library); }

void *clazy_symbol(struct clazy_library *library, const char *symbol) {
    void *handle = open_library(library);
    void *address = dlsym(handle, symbol);
    if (!address) fail("function", symbol);
    return address;
}

void clazy_gnutls_free(void *pointer) {
    void (**free_function)(void *) = clazy_symbol(clazy_gnutls(), "gnutls_free");
    (*free_function)(pointer);
}

static int is(const char *a, const char *b) { return strcmp(a, b) == 0; }

int clazy_speaks_in_process(int count, const char *const *arguments) {
    int out = 0;
    for (int i = 0; i < count; i++) {
        const char *a = arguments[i];
        if (is(a, "--help") || is(a, "-h") || is(a, "--print-spoken")) return 0;
        if (is(a, "--out") || strncmp(a, "--out=", 6) == 0) out = 1;
    }
    if (!out || count < 1) return 0;
    // The command's words come first: `say …` or `feedback preview …` (an option first: no).
    if (is(arguments[0], "say")) return 1;
    return count >= 2 && is(arguments[0], "feedback") && is(arguments[1], "preview");
}

static void *open_speech(void *unused) {
    (void)unused;
    clazy_open(clazy_espeak_ng());
    return NULL;
}

/* Runs before `main` (and before Foundation's own start): a command line that will surely speak
   in this process starts loading libespeak-ng and its ~30 libraries on another thread, so the
   dynamic loader's work overlaps the Swift start-up instead of following it. */
__attribute__((constructor)) static void clazy_prewarm(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 2 || !clazy_speaks_in_process(argc - 1, (const char *const *)(argv + 1))) return;
    pthread_t thread;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    (void)pthread_create(&thread, &attributes, open_speech, NULL);
    pthread_attr_destroy(&attributes);
}
