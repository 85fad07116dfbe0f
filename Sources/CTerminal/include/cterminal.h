#ifndef CTERMINAL_H
#define CTERMINAL_H

/// Rows and columns of the terminal on `fd`; returns 0 on success, -1 when `fd` is not a terminal.
int cterminal_window_size(int fd, int *rows, int *cols);

/// Puts the terminal on `fd` in raw input mode (no echo, no line buffering, no signals from keys),
/// saving the previous mode; returns 0 on success.
int cterminal_enter_raw(int fd);

/// Restores the mode saved by `cterminal_enter_raw`; safe to call more than once.
void cterminal_restore(int fd);

/// Reads one line from the terminal on `fd` with echo turned off (line editing stays on), into
/// `buffer` (NUL-terminated, without the newline), restoring the previous mode afterwards.
/// Returns the length, or -1 when `fd` is not a terminal or at end of input.
int cterminal_read_hidden_line(int fd, char *buffer, int capacity);

/// Replaces the handlers of fatal signals (SEGV, BUS, ILL, TRAP, FPE, ABRT, SYS), including the
/// Swift backtracer's: the terminal mode saved by `cterminal_enter_raw` is restored, the screen on
/// `screen_fd` (-1: none) leaves the alternate buffer, `message` goes to standard error, and the
/// process dies by the same signal. Returns 0 on success.
int cterminal_install_crash_guard(int screen_fd, const char *message);

/// Unblocks `sig` for the calling thread (a parent may have started us with it blocked).
int cterminal_unblock_signal(int sig);

/// Catches `sig` with a handler that only records it (sigaction: the disposition changes in one
/// step, so a signal is never ignored in between, as it was while a dispatch source registered
/// itself), then unblocks it. 0 on success, -1 with errno set.
int cterminal_catch_stop_signal(int sig);

/// The last signal `cterminal_catch_stop_signal` recorded, 0 while none came.
int cterminal_stop_signal(void);

#endif
