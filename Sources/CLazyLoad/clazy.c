#define _GNU_SOURCE
#include "clazy.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

static void copy(char *to, size_t size, const char *from) {
    snprintf(to, size, "%s", from ? from : "");
    // One line each in the check's protocol and in a message.
    for (char *c = to; *c; c++) if (*c == '\n' || *c == '\r') *c = ' ';
}

/* The loader names the object it could not load first ("/x/libsystemd.so.0: file too short",
   "libpulse.so.0: cannot open shared object file: …"). When that is not `ours`, it is a library
   ours needs, and that is the one to name: a broken libsystemd opened through libespeak-ng is
   libsystemd's problem, not libespeak-ng's. */
static void blame(const char *ours, const char *reason, struct clazy_failure *failure) {
    copy(failure->soname, sizeof failure->soname, ours);
    failure->needed_by[0] = 0;
    copy(failure->reason, sizeof failure->reason, reason);
    const char *colon = reason ? strstr(reason, ": ") : NULL;
    if (!colon) return;
    char named[256];
    size_t length = (size_t)(colon - reason);
    if (length >= sizeof named) return;
    memcpy(named, reason, length);
    named[length] = 0;
    const char *slash = strrchr(named, '/');
    const char *base = slash ? slash + 1 : named;
    // `libzip.so.4.0` is still ours (a file found by its real name); `libsystemd.so.0` under libpulse is not.
    if (strstr(base, ".so") && strncmp(base, ours, strlen(ours)) != 0) {
        copy(failure->needed_by, sizeof failure->needed_by, ours);
        copy(failure->soname, sizeof failure->soname, base);
    }
}

static void fail(const char *what, const char *name) {
    const char *reason = dlerror();
    struct clazy_failure failure;
    blame(name, reason ? reason : "not found", &failure);
    fprintf(stderr, "steppie: cannot load %s %s%s%s%s (%s); reinstall the package's dependencies (scripts/deps.sh)\n",
            what, failure.soname, failure.needed_by[0] ? " (needed by " : "", failure.needed_by,
            failure.needed_by[0] ? ")" : "", failure.reason);
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

/* Every library the engine may open, each after the ones it needs (libpulse needs libsystemd and
   libsndfile, libmicrohttpd GnuTLS, libespeak-ng libpulse), so a broken one is met on its own first. */
static struct clazy_library *(*const everything[])(void) = {
    clazy_systemd, clazy_sndfile, clazy_pulse, clazy_gnutls, clazy_microhttpd, clazy_espeak_ng, clazy_zip,
};
enum { library_count = sizeof everything / sizeof everything[0] };

/* Opens `library` with every binding made now and resolves every name in its table; NULL with
   `failure` filled when either fails. */
static void *open_now(struct clazy_library *library, struct clazy_failure *failure) {
    (void)dlerror();
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
        blame(library->soname, dlerror(), failure);
        return NULL;
    }
    for (const char *const *name = library->symbols; name && *name; name++) {
        (void)dlerror();
        if (!dlsym(handle, *name)) {
            const char *reason = dlerror();
            char text[400];
            snprintf(text, sizeof text, "%s", reason ? reason : *name);
            blame(library->soname, text, failure);
            return NULL;
        }
    }
    return handle;
}

int clazy_open_all(struct clazy_failure *failure) {
    memset(failure, 0, sizeof *failure);
    for (int i = 0; i < library_count; i++) {
        struct clazy_library *library = everything[i]();
        pthread_mutex_lock(&open_lock);
        void *handle = open_now(library, failure);
        if (handle && !library->handle) library->handle = handle;
        pthread_mutex_unlock(&open_lock);
        if (!handle) return -1;
    }
    return 0;
}

static void put(const char *word, const char *text) {
    char line[700];
    int n = snprintf(line, sizeof line, "%s %s", word, text);
    if (n < 0) return;
    if ((size_t)n >= sizeof line - 1) n = (int)sizeof line - 2;
    for (int i = 0; i < n; i++) if (line[i] == '\n') line[i] = ' ';
    line[n++] = '\n';
    // Unbuffered: a line written before a SIGBUS must reach the parent.
    for (int off = 0; off < n;) {
        ssize_t w = write(STDOUT_FILENO, line + off, (size_t)(n - off));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        off += (int)w;
    }
}

/* The child of clazy_check_all, run from the constructor before `main`: no Swift runs, so a
   library that kills the process while mapping kills only this one, after `open NAME` was said. */
static int check_libraries(void) {
    // A crash must end this process with its own signal, not in a handler someone installed first.
    const int fatal[] = { SIGBUS, SIGSEGV, SIGILL, SIGFPE, SIGABRT };
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) { signal(fatal[i], SIG_DFL); sigaddset(&set, fatal[i]); }
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    for (int i = 0; i < library_count; i++) {
        struct clazy_library *library = everything[i]();
        struct clazy_failure failure;
        memset(&failure, 0, sizeof failure);
        put("open", library->soname);
        if (!open_now(library, &failure)) {
            put("fail", failure.reason);
            return 1;
        }
        put("ok", library->soname);
    }
    return 0;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Reads the child's lines until it closes the pipe or `seconds` pass; 0, or -1 on timeout. */
static int read_all(int fd, char *buffer, size_t size, double seconds) {
    size_t used = 0;
    double deadline = now_seconds() + seconds;
    for (;;) {
        double left = deadline - now_seconds();
        if (left <= 0) return -1;
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int ready = poll(&p, 1, (int)(left * 1000) + 1);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        char chunk[1024];
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        // Keep what fits: the protocol is a few short lines.
        size_t take = (size_t)n < size - 1 - used ? (size_t)n : size - 1 - used;
        memcpy(buffer + used, chunk, take);
        used += take;
        buffer[used] = 0;
    }
}

int clazy_check_all(struct clazy_failure *failure) {
    memset(failure, 0, sizeof *failure);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return 1;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_init(&attributes);
    // A clean signal mask and default actions: the child must die of what it meets, visibly.
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    const int fatal[] = { SIGBUS, SIGSEGV, SIGILL, SIGFPE, SIGABRT, SIGPIPE, SIGTERM, SIGINT, SIGHUP };
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) sigaddset(&defaults, fatal[i]);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    char *arguments[] = { "steppie", "__check-libraries", NULL };
    pid_t pid;
    int spawned = posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, arguments, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(fds[1]);
    if (spawned != 0) { close(fds[0]); return 1; }

    char output[8192] = "";
    // Loading all of them takes tens of milliseconds; a library whose constructor hangs is a failure too.
    int timed_out = read_all(fds[0], output, sizeof output, 20) != 0;
    close(fds[0]);
    if (timed_out) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}

    char current[128] = "", reason[512] = "";
    int loaded = 0;
    for (char *line = output, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if (strncmp(line, "open ", 5) == 0) copy(current, sizeof current, line + 5);
        else if (strncmp(line, "ok ", 3) == 0) loaded++;
        else if (strncmp(line, "fail ", 5) == 0) copy(reason, sizeof reason, line + 5);
    }
    if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0 && loaded == library_count) return 0;
    blame(current[0] ? current : "?", reason, failure);
    failure->timed_out = timed_out;
    if (!timed_out && WIFSIGNALED(status)) {
        failure->signal = WTERMSIG(status);
        const char *abbreviation = sigabbrev_np(failure->signal);
        snprintf(failure->signal_name, sizeof failure->signal_name, "SIG%s", abbreviation ? abbreviation : "?");
    }
    if (!failure->reason[0] && !failure->signal && !timed_out) {
        snprintf(failure->reason, sizeof failure->reason, "the check ended with status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    return -1;
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

/* Runs before `main` (and before Foundation's own start). `steppie __check-libraries` checks the
   libraries and exits here. Otherwise, a command line that will surely speak
   in this process starts loading libespeak-ng and its ~30 libraries on another thread, so the
   dynamic loader's work overlaps the Swift start-up instead of following it. */
__attribute__((constructor)) static void clazy_prewarm(int argc, char **argv, char **envp) {
    (void)envp;
    // The child of clazy_check_all (`steppie serve`'s check): one comparison for every other command.
    if (argc == 2 && strcmp(argv[1], "__check-libraries") == 0) _exit(check_libraries());
    if (argc < 2 || !clazy_speaks_in_process(argc - 1, (const char *const *)(argv + 1))) return;
    pthread_t thread;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    (void)pthread_create(&thread, &attributes, open_speech, NULL);
    pthread_attr_destroy(&attributes);
}
