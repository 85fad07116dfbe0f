import Foundation
import Synchronization
import SteppieTestSupport

/// Reads the sink monitor through `parec` and remembers when audible audio arrived.
public final class MonitorListener {
    /// What the reader thread has seen, shared with the benchmark's thread.
    private final class Received: Sendable {
        struct State {
            var audibleTimes: [UInt64] = []
            var totalBytes = 0
        }
        let state = Mutex(State())
    }

    private let child: SpawnedProcess
    private let received = Received()

    public init(device: String) throws {
        child = try SpawnedProcess("parec", ["--latency-msec=10", "--format=s16le", "--rate=22050", "--channels=1", "-d", device],
                                   stdoutPipe: true)
        let fd = child.stdoutFD
        let received = received
        // Ends at EOF, when parec is stopped; the descriptor is closed with `child`, after that.
        let thread = Thread {
            var buf = [Int16](repeating: 0, count: 2048)
            while true {
                let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                let now = DispatchTime.now().uptimeNanoseconds
                let audible = buf[0..<(n / 2)].contains { abs(Int32($0)) > 100 }
                received.state.withLock { state in
                    state.totalBytes += n
                    if audible { state.audibleTimes.append(now) }
                }
            }
        }
        thread.start()
    }

    public var bytes: Int { received.state.withLock { $0.totalBytes } }

    /// The first time audible audio arrived at or after `t`.
    public func firstAudible(after t: UInt64) -> UInt64? {
        received.state.withLock { $0.audibleTimes.first { $0 >= t } }
    }

    /// Waits until nothing audible arrived for `quiet` seconds.
    public func waitForSilence(quiet: Double, timeout: Double = 15) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            let now = DispatchTime.now().uptimeNanoseconds
            let last = received.state.withLock { $0.audibleTimes.last ?? 0 }
            if now > last + UInt64(quiet * 1e9) { return }
            usleep(5000)
        }
    }

    public func stop() { child.stop() }
}
