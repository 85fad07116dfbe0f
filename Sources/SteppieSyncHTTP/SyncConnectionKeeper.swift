import Glibc
import SteppieTLS
import Synchronization

/// One HTTPS connection to the hub kept open between a thread's requests (HTTP/1.1 keep-alive),
/// so a device's pull, asked again the moment an answer came, and a burst of pushes (a press,
/// its undo, a guardian's edits) share one TLS handshake instead of one each.
///
/// A connection is kept only when its answer was framed (a length or chunks) and the hub did not
/// say `Connection: close`, for at most `lingerMilliseconds` (well under the hub's 30 s idle
/// timeout), and only for the same hub and fingerprint (the pin was checked at its handshake).
/// Before it is used again it is looked at: one the hub closed, or one with bytes nobody asked
/// for, is dropped. A request on a kept connection that fails before its answer is made again
/// once on a new connection; every request a keeper carries is idempotent (a push by device and
/// number, a pull by cursor, a blob by its hash). Joining, which spends a code, never uses one.
package final class SyncConnectionKeeper: Sendable {
    /// How long an idle connection is kept.
    package let lingerMilliseconds: Int
    private let kept = Mutex<KeptConnection.Box?>(nil)
    private let opened = Atomic<Int>(0)

    package init(lingerMilliseconds: Int = 5_000) {
        self.lingerMilliseconds = lingerMilliseconds
    }

    /// Connections opened through this keeper so far (each a TCP connect and a TLS handshake).
    package var connectionsOpened: Int { opened.load(ordering: .relaxed) }

    /// Whether a connection waits to be used again.
    package var holdsConnection: Bool { kept.withLock { $0 != nil } }

    /// Closes the connection kept, if any (a failure, the agent stopping, the device leaving).
    package func drop() {
        let old = kept.withLock { value -> KeptConnection.Box? in
            defer { value = nil }
            return value
        }
        _ = old   // closed here, outside the lock
    }

    /// Closes the connection kept once it has idled past the linger (a thread with nothing to
    /// send calls it while it waits, so a hub's thread is not held for nothing).
    package func dropIfIdle() {
        let old = kept.withLock { value -> KeptConnection.Box? in
            guard let box = value, box.connection.idleSince.duration(to: .now) >= .milliseconds(lingerMilliseconds) else { return nil }
            value = nil
            return box
        }
        _ = old
    }

    func noteOpened() { opened.add(1, ordering: .relaxed) }

    /// The kept connection for `key`, if it is still fit to carry a request; it is the caller's
    /// from now on (it gives it back with `keep`).
    func take(for key: String) -> KeptConnection? {
        guard let box = kept.withLock({ value -> KeptConnection.Box? in
            defer { value = nil }
            return value
        }) else { return nil }
        let connection = box.connection
        guard connection.key == key,
              connection.idleSince.duration(to: .now) < .milliseconds(lingerMilliseconds),
              connection.isQuiet() else { return nil }
        return connection
    }

    /// Keeps `connection` for the next request (one connection at most: an older one is closed).
    func keep(_ connection: KeptConnection) {
        connection.idleSince = .now
        let old = kept.withLock { value -> KeptConnection.Box? in
            defer { value = KeptConnection.Box(connection) }
            return value
        }
        _ = old
    }
}

/// A connected socket and its TLS session; the socket is closed when this goes.
final class KeptConnection {
    /// The hub's authority and the pinned fingerprint it was opened for.
    let key: String
    let fd: Int32
    let session: TLSClientSession
    var idleSince = ContinuousClock.now

    init(key: String, fd: Int32, session: TLSClientSession) {
        self.key = key
        self.fd = fd
        self.session = session
    }

    deinit { close(fd) }   // the session's `gnutls_deinit` never touches the socket

    /// Whether nothing arrived while it was idle: a hub that closed it (end of file, a reset) or
    /// sent bytes nobody asked for makes it unfit.
    func isQuiet() -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, 0)
        return ready == 0
    }

    /// Moves a connection between threads inside the keeper's lock: only one thread holds it at a
    /// time (taken out before use, put back after).
    final class Box: @unchecked Sendable {
        let connection: KeptConnection
        init(_ connection: KeptConnection) { self.connection = connection }
    }
}
