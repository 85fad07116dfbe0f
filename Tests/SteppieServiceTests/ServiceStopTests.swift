import Foundation
import SteppieService
import SteppieTestSupport
import Testing

/// A service told to stop just after it started stops: its stop signals are caught in one step
/// (sigaction) before anything else runs, never ignored while a dispatch source registers itself
/// (before, about one SIGTERM in five sent as the socket began to answer was lost and the service
/// ran on, which left processes behind the tests).
@Suite(.serialized) struct ServiceStopTests {
    @Test func aStopSignalJustAfterTheStartIsNeverLost() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        var statuses: [Int32] = []
        for round in 0..<30 {
            let sig = [SIGTERM, SIGINT, SIGHUP][round % 3]
            try f.start()
            let p = try #require(f.process)
            kill(p.pid, sig)
            // A service that stops exits 0 within a second or two; one that lost the signal is
            // killed at the deadline (137).
            statuses.append(p.wait(timeout: 5))
            f.process = nil
        }
        #expect(statuses.allSatisfy { $0 == 0 }, "\(statuses)")
        // It cleaned up every time: no socket left behind.
        #expect(!FileManager.default.fileExists(atPath: f.socket))
    }
}
