import Foundation
import SteppieHTTP

/// One page's Server-Sent Events: the screen now, then every newer one, a keepalive comment when
/// nothing happened for 15 s. It waits on its connection's own thread, in `poll(2)` on the
/// connection (a peer that closes or resets is seen at once, and its place freed) and on a wake
/// the board signals on every publish.
final class KioskEventStream: HTTPStreamSource {
    /// A comment line on idle event streams, so proxies and the page know the stream is alive.
    static let keepalive: TimeInterval = 15

    let board: StateBoard
    let child: String
    private let wake: HTTPWake
    private var version = -1

    init(board: StateBoard, child: String, peer: HTTPStreamPeer) {
        self.board = board
        self.child = child
        wake = peer.wake
        board.subscribe(wake)
    }

    deinit { board.unsubscribe(wake) }

    func next(_ peer: HTTPStreamPeer) -> HTTPStreamStep {
        let keepaliveAt = ProcessInfo.processInfo.systemUptime + Self.keepalive
        while true {
            let (screen, closed) = board.newer(child, than: version)
            if closed { return .end }
            if let screen {
                version = screen.version
                return .send(Array("event: state\ndata: \(screen.json(now: board.clock.now()))\n\n".utf8))
            }
            let left = keepaliveAt - ProcessInfo.processInfo.systemUptime
            if left <= 0 { return .send(Array(": keepalive\n\n".utf8)) }
            // The board's wake is registered before `newer` looked, so a publish in between
            // leaves the descriptor readable and the wait returns at once.
            if peer.wait(seconds: left) { return .failed }
        }
    }
}
