#include "cterminal.h"
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

// ioctl is variadic and the termios flags are macros: Swift can call neither directly.

static struct termios saved;
static int saved_valid = 0;

int cterminal_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

int cterminal_enter_raw(int fd) {
    struct termios t;
    if (tcgetattr(fd, &t) != 0) return -1;
    if (!saved_valid) { saved = t; saved_valid = 1; }
    t.c_lflag &= ~(ICANON | ECHO | ISIG | IEXTEN);
    t.c_iflag &= ~(IXON | ICRNL);
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    return tcsetattr(fd, TCSAFLUSH, &t);
}

void cterminal_restore(int fd) {
    if (saved_valid) tcsetattr(fd, TCSAFLUSH, &saved);
}

int cterminal_read_hidden_line(int fd, char *buffer, int capacity) {
    struct termios before, hidden;
    if (capacity < 1 || tcgetattr(fd, &before) != 0) return -1;
    hidden = before;
    hidden.c_lflag &= ~(ECHO | ECHONL);
    hidden.c_lflag |= ICANON;
    if (tcsetattr(fd, TCSAFLUSH, &hidden) != 0) return -1;
    int length = 0;
    int ended = 0;
    char ch;
    for (;;) {
        ssize_t n = read(fd, &ch, 1);
        if (n <= 0) { ended = (length == 0); break; }
        if (ch == '\n' || ch == '\r') break;
        if (length < capacity - 1) buffer[length++] = ch;
    }
    buffer[length] = 0;
    ch = 0;
    tcsetattr(fd, TCSAFLUSH, &before);
    return ended ? -1 : length;
}

#include <signal.h>
#include <pthread.h>
#include <string.h>

// The crash guard: on a fatal signal, put the terminal back, say one line, and die by the same
// signal. It replaces the Swift runtime's backtracer handlers, which would draw a backtrace over
// the child's screen and may wait for a key press.
static int guard_fd_out = -1;
static const char *guard_message = "steppie: child mode stopped unexpectedly.\n";
static const char guard_reset[] = "\x1b[?25h\x1b[?1049l";

static void crash_guard(int sig) {
    if (saved_valid) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    if (guard_fd_out >= 0) { ssize_t r = write(guard_fd_out, guard_reset, sizeof guard_reset - 1); (void)r; }
    ssize_t r = write(STDERR_FILENO, guard_message, strlen(guard_message)); (void)r;
    signal(sig, SIG_DFL);
    raise(sig);
}

int cterminal_install_crash_guard(int screen_fd, const char *message) {
    guard_fd_out = screen_fd;
    if (message) guard_message = strdup(message);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = crash_guard;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGSYS };
    sigset_t unblock;
    sigemptyset(&unblock);
    for (unsigned i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        if (sigaction(fatal[i], &sa, NULL) != 0) return -1;
        sigaddset(&unblock, fatal[i]);
    }
    // A parent may have started us with signals blocked (they are inherited): a blocked ABRT
    // would stay pending forever instead of ending a stuck process.
    return pthread_sigmask(SIG_UNBLOCK, &unblock, NULL) == 0 ? 0 : -1;
}

int cterminal_unblock_signal(int sig) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}

// The one piece of state a signal handler may touch: written by the handler, read by the loop.
static volatile sig_atomic_t stop_signal_seen = 0;

static void record_stop_signal(int sig) { stop_signal_seen = sig; }

int cterminal_catch_stop_signal(int sig) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = record_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(sig, &action, NULL) != 0) return -1;
    return cterminal_unblock_signal(sig);
}

int cterminal_stop_signal(void) { return stop_signal_seen; }
