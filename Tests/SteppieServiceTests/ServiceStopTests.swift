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

/// `serve` refuses a bad option before it opens or creates anything: no database, no journal,
/// no socket folder, no certificate (before, `--http 0.0.0.0:80` was refused after the database
/// and the buttons were opened, and a fresh data folder was created for nothing).
@Suite struct ServeUsageTests {
    @Test(arguments: [
        (["--http", "0.0.0.0:80"], "--http"),
        (["--http", "127.0.0.1:http"], "--http"),
        (["--guardian-lan", "999.1.1.1:8471"], "--guardian-lan"),
        (["--button", "/dev/input/event0:KEY_NOPE=done"], "--button"),
    ])
    func aRefusedOptionCreatesNothing(arguments: [String], option: String) throws {
        let f = ServiceFixture()
        let data = f.directory + "/fresh"
        let run = f.directory + "/fresh-run"
        let result = f.run(["serve", "--output", "null"] + arguments,
                           extra: ["STEPPIE_DB": data + "/steppie.db", "STEPPIE_SOCKET": run + "/control.sock"])
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.err)")
        #expect(result.err.contains(option), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: data), "\(arguments): the data folder was created")
        #expect(!FileManager.default.fileExists(atPath: run), "\(arguments): the socket folder was created")
        let left = try FileManager.default.contentsOfDirectory(atPath: f.directory).filter { !$0.hasPrefix("out-") && !$0.hasPrefix("err-") }
        #expect(left.isEmpty, "\(arguments): \(left)")
    }
}
