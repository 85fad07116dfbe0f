#define _GNU_SOURCE  // POLLRDHUP
#include "chttp.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif
#include <clazy.h>

// libmicrohttpd is opened on first use (see CLazyLoad); its variadic start function is called
// through the looked-up pointer, with the library's own prototype.
static __typeof__(MHD_start_daemon) *start_daemon(void) {
    return (__typeof__(MHD_start_daemon) *)clazy_symbol(clazy_microhttpd(), "MHD_start_daemon");
}

// TLS 1.2 and 1.3 only, AEAD suites only (AES-GCM, ChaCha20-Poly1305): GnuTLS's NORMAL still
// offers CBC with SHA-1/SHA-2 MACs and AES-CCM on TLS 1.2, which every phone of the last decade
// can do without. The MAC list is cut to AEAD so no CBC suite can be rebuilt from what is left.
// The server chooses, in the order that is cheaper on its own processor: AES-GCM first where the
// CPU has AES instructions (ChaCha20 first made a centre hub's x86 spend 5 % of its CPU in
// software ChaCha20, docs/performance.md, session 54), ChaCha20 first where it has none (a
// Raspberry Pi 4's Cortex-A72 lacks them, and AES in software is slower and not constant-time).
#define CHTTP_TLS_BASE "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:"
#define CHTTP_TLS_TAIL "-MAC-ALL:+AEAD:%SERVER_PRECEDENCE"
#define CHTTP_TLS_PRIORITIES_AES CHTTP_TLS_BASE "+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:" CHTTP_TLS_TAIL
#define CHTTP_TLS_PRIORITIES_CHACHA CHTTP_TLS_BASE "+CHACHA20-POLY1305:+AES-128-GCM:+AES-256-GCM:" CHTTP_TLS_TAIL

static int chttp_cpu_has_aes(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("aes") && __builtin_cpu_supports("pclmul");
#elif defined(__aarch64__)
    return (getauxval(AT_HWCAP) & HWCAP_AES) && (getauxval(AT_HWCAP) & HWCAP_PMULL);
#else
    return 0;
#endif
}

static const char *chttp_tls_priorities(void) {
    return chttp_cpu_has_aes() ? CHTTP_TLS_PRIORITIES_AES : CHTTP_TLS_PRIORITIES_CHACHA;
}

int chttp_listen(const char *address, uint16_t port, uint16_t *bound_port) {
    struct sockaddr_storage storage;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    socklen_t length;
    int one = 1, fd, saved;
    memset(&storage, 0, sizeof storage);
    if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        length = sizeof *v4;
    } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        length = sizeof *v6;
    } else {
        errno = EINVAL;
        return -1;
    }
    fd = socket(storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    // As libmicrohttpd does with its own sockets: a restart binds at once while old connections
    // linger in TIME_WAIT; an IPv6 address is that address only, never the IPv4 ones too.
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        (storage.ss_family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) != 0) ||
        bind(fd, (struct sockaddr *)&storage, length) != 0 || listen(fd, SOMAXCONN) != 0) {
        goto fail;
    }
    length = sizeof storage;
    if (getsockname(fd, (struct sockaddr *)&storage, &length) != 0) goto fail;
    *bound_port = ntohs(storage.ss_family == AF_INET ? v4->sin_port : v6->sin6_port);
    return fd;
fail:
    saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

struct MHD_Daemon *chttp_start(int listen_fd, unsigned int max_connections,
                               unsigned int max_per_ip, unsigned int timeout_seconds, size_t memory_limit,
                               MHD_AccessHandlerCallback handler, void *handler_cls,
                               MHD_RequestCompletedCallback completed, void *completed_cls,
                               const char *tls_certificate_pem, const char *tls_key_pem) {
    struct sockaddr_storage storage;
    socklen_t length = sizeof storage;
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    int fd, tls = tls_certificate_pem != NULL || tls_key_pem != NULL;
    if (tls && (tls_certificate_pem == NULL || tls_key_pem == NULL || MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)) {
        errno = ENOTSUP;
        return NULL;
    }
    if (getsockname(listen_fd, (struct sockaddr *)&storage, &length) != 0) return NULL;
    if (storage.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
    // The daemon gets its own descriptor of the socket and closes it when stopped; the caller
    // closes `listen_fd` whatever happens, so a failed start never closes a descriptor twice
    // (libmicrohttpd's failure paths differ on whether they close a socket they were given; at
    // worst a failed start leaves this copy open, and a failed start ends the service anyway).
    fd = fcntl(listen_fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) return NULL;
    if (tls) {
        // TLS only: the daemon never answers plain HTTP (a plain request fails the handshake).
        return start_daemon()(flags | MHD_USE_TLS, 0, NULL, NULL, handler, handler_cls,
                                MHD_OPTION_LISTEN_SOCKET, fd,
                                MHD_OPTION_HTTPS_MEM_CERT, tls_certificate_pem,
                                MHD_OPTION_HTTPS_MEM_KEY, tls_key_pem,
                                MHD_OPTION_HTTPS_PRIORITIES, chttp_tls_priorities(),
                                MHD_OPTION_CONNECTION_LIMIT, max_connections,
                                MHD_OPTION_PER_IP_CONNECTION_LIMIT, max_per_ip,
                                MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                                MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                                MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                                MHD_OPTION_END);
    }
    return start_daemon()(flags, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_LISTEN_SOCKET, fd,
                            MHD_OPTION_CONNECTION_LIMIT, max_connections,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, max_per_ip,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_END);
}

uint16_t chttp_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = ((__typeof__(MHD_get_daemon_info) *)clazy_symbol(clazy_microhttpd(), "MHD_get_daemon_info"))(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

struct MHD_Response *chttp_response_copy(size_t size, const void *data) {
    return MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}

int chttp_connection_fd(struct MHD_Connection *connection) {
    // Variadic in libmicrohttpd: called through the looked-up pointer, like MHD_start_daemon.
    __typeof__(MHD_get_connection_info) *f =
        (__typeof__(MHD_get_connection_info) *)clazy_symbol(clazy_microhttpd(), "MHD_get_connection_info");
    const union MHD_ConnectionInfo *info = f(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

int chttp_wake_fd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

void chttp_wake(int wake_fd) {
    uint64_t one = 1;
    // EAGAIN means the counter is already non-zero: the waiter wakes anyway.
    ssize_t n = write(wake_fd, &one, sizeof one);
    (void)n;
}

int chttp_wait_peer(int connection_fd, int wake_fd, int timeout_ms) {
    // POLLRDHUP without POLLIN: a peer that closed (FIN) or reset is seen, a peer that sends more
    // bytes is not read (and does not make the wait spin).
    struct pollfd fds[2] = {
        { .fd = connection_fd, .events = POLLRDHUP, .revents = 0 },
        { .fd = wake_fd, .events = POLLIN, .revents = 0 },
    };
    int n;
    do { n = poll(fds, 2, timeout_ms); } while (n < 0 && errno == EINTR);
    if (n < 0) return -1;
    if (fds[0].revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) return 1;
    if (fds[1].revents & POLLIN) {
        uint64_t count;
        ssize_t r = read(wake_fd, &count, sizeof count);
        (void)r;
    }
    return 0;
}
