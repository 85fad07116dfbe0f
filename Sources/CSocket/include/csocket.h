#ifndef CSOCKET_H
#define CSOCKET_H
#include <sys/types.h>

/// The user and process on the other end of a connected Unix socket (SO_PEERCRED);
/// returns 0 on success, -1 with errno set.
int csocket_peer(int fd, uid_t *uid, pid_t *pid);

/// Creates a listening Unix stream socket at `path` (non-blocking, close-on-exec) whose file is
/// mode 0600 whatever the umask; returns the descriptor or -1 with errno set.
int csocket_listen(const char *path, int backlog);

/// Accepts one connection (non-blocking, close-on-exec); -1 with errno set when none is waiting.
int csocket_accept(int listen_fd);

/// Connects to the Unix stream socket at `path` (blocking, close-on-exec); returns the
/// descriptor or -1 with errno set.
int csocket_connect(const char *path);

/// A non-blocking, close-on-exec eventfd (to wake a poll loop from another thread); -1 on failure.
int csocket_eventfd(void);

#endif
