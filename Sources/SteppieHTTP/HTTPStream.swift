import CHTTP
import Glibc

/// A long response written as things happen (Server-Sent Events). It runs on its connection's
/// own thread (libmicrohttpd, one thread per connection), so it may block in `HTTPStreamPeer.wait`.
package protocol HTTPStreamSource: AnyObject {
    /// The next bytes to send, waiting (on `peer`) until there are some.
    func next(_ peer: HTTPStreamPeer) -> HTTPStreamStep
}

/// What a stream does next.
package enum HTTPStreamStep: Equatable {
    case send([UInt8])
    /// The stream is over (the connection ends cleanly).
    case end
    /// The peer is gone or waiting failed (the connection is closed at once).
    case failed
}

/// A wake-up other threads give a waiting stream (an eventfd): signalled when there is news.
package final class HTTPWake: Sendable {
    let fd: Int32

    /// A new wake; nil when no descriptor could be made.
    package init?() {
        fd = chttp_wake_fd()
        if fd < 0 { return nil }
    }

    deinit { close(fd) }

    /// Wakes the stream waiting on this (once, however many signals came since it last woke).
    package func signal() { chttp_wake(fd) }
}

/// The connection a stream writes to, and its wake.
package final class HTTPStreamPeer: Sendable {
    /// The connection's socket (-1: unknown, then only a failed write notices a closed peer).
    let connectionFD: Int32
    package let wake: HTTPWake

    init(connectionFD: Int32, wake: HTTPWake) {
        self.connectionFD = connectionFD
        self.wake = wake
    }

    /// Waits up to `seconds` for a signal on the wake (consumed) or for the peer to close or reset,
    /// in `poll(2)` on both (a peer that leaves is seen at once). True when the peer is gone or
    /// the wait failed (a caller never spins on a failing poll); false on a wake or the timeout.
    package func wait(seconds: Double) -> Bool {
        chttp_wait_peer(connectionFD, wake.fd, Int32(min(seconds * 1000 + 1, 60_000))) != 0
    }
}
