#ifndef CHTTP_H
#define CHTTP_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <microhttpd.h>

// libmicrohttpd's start function and its option list are variadic, and the C structs of the
// socket address are easier to fill here: one non-variadic entry point for Swift.

/// A listening TCP socket on `address` (IPv4 dotted or IPv6) and `port` (0: any free one), its
/// port in `bound_port`: bound before any server thread exists, so the names a server answers to
/// (which carry the port) are known before its first request. -1 on failure, errno kept.
int chttp_listen(const char *address, uint16_t port, uint16_t *bound_port);

/// Starts a daemon on the listening socket `listen_fd` (which the caller still closes: the daemon
/// works on its own copy), one thread per connection (the event stream blocks), with the given
/// connection limits; `completed` is called when a request ends (to free its state). With a PEM
/// certificate and key the daemon speaks HTTPS only (GnuTLS inside libmicrohttpd); with NULL for
/// both, plain HTTP. Returns NULL on failure (errno kept; ENOTSUP when libmicrohttpd was built
/// without TLS).
struct MHD_Daemon *chttp_start(int listen_fd, unsigned int max_connections,
                               unsigned int max_per_ip, unsigned int timeout_seconds, size_t memory_limit,
                               MHD_AccessHandlerCallback handler, void *handler_cls,
                               MHD_RequestCompletedCallback completed, void *completed_cls,
                               const char *tls_certificate_pem, const char *tls_key_pem);

/// The port the daemon listens on (after binding port 0).
uint16_t chttp_port(struct MHD_Daemon *daemon);

/// A response holding a copy of `size` bytes at `data`.
struct MHD_Response *chttp_response_copy(size_t size, const void *data);

/// The socket of a connection (MHD_CONNECTION_INFO_CONNECTION_FD), -1 when libmicrohttpd has none.
int chttp_connection_fd(struct MHD_Connection *connection);

/// A new eventfd (non-blocking, close-on-exec) that wakes one waiting event stream; -1 on failure.
int chttp_wake_fd(void);

/// Wakes the stream waiting on `wake_fd`.
void chttp_wake(int wake_fd);

/// Waits up to `timeout_ms` for the peer of `connection_fd` to close or reset (1) or for a wake
/// on `wake_fd` (0, the wake consumed); 0 on timeout too, -1 when poll fails. Nothing is read
/// from the connection.
int chttp_wait_peer(int connection_fd, int wake_fd, int timeout_ms);

#endif
