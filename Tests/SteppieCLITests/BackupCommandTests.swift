import Foundation
import Testing
import SteppieStore
@testable import SteppieCLI

@Suite struct BackupCommandTests {
    @Test func roundTripThroughTheCommandLineAskingForThePin() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        #expect(h.run(["complete"]).status == 0)
        let archive = h.directory.appendingPathComponent("b.zip").path
        let created = h.run(["backup", "create", "--out", archive, "--json"])
        #expect(created.status == 0, "\(created.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(created.out.utf8)) as? [String: Any])
        #expect((report["counts"] as? [String: Int])?["dailyLogs"] == 1)
        #expect(h.run(["backup", "verify", archive]).out.contains("every check passed"))

        // A second database with a PIN: restore needs it.
        let other = h.directory.appendingPathComponent("other.db").path
        #expect(h.run(["init", "--child", "Jun", "--db", other]).status == 0)
        let lines = LinesFeeder(["1234"])
        #expect(h.run(["guardian", "set-pin", "--pin-stdin", "--db", other], readLine: lines.next).status == 0)
        // A wrong PIN changes nothing but the stored failure count (the backoff).
        func userData() throws -> String {
            try Store(path: other, timeZone: h.zone).dump().components(separatedBy: "# ").filter { !$0.hasPrefix("device_settings") }.joined()
        }
        let before = try userData()
        let wrong = LinesFeeder(["9999"])
        let refused = h.run(["backup", "restore", archive, "--pin-stdin", "--db", other], readLine: wrong.next)
        #expect(refused.status == 1 && refused.err.contains("PIN"), "\(refused.err)")
        #expect(try userData() == before)
        let right = LinesFeeder(["1234"])
        let restored = h.run(["backup", "restore", archive, "--pin-stdin", "--db", other], readLine: right.next)
        #expect(restored.status == 0, "\(restored.err)")
        // The confirmation says what happens to the PIN, by the same rule as the backup page
        // (`RestorePlan.pinChange`): this backup was made without one.
        #expect(restored.err.contains("The restored device has no guardian PIN: set a new one afterwards"), "\(restored.err)")
        let store = try Store(path: other, timeZone: h.zone)
        #expect(try store.children().map(\.displayName) == ["Mina"])
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test func aDamagedArchiveIsRefusedAndNothingChanges() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let bad = h.directory.appendingPathComponent("bad.zip")
        try Data("not a zip at all".utf8).write(to: bad)
        let before = try Store(path: h.db, timeZone: h.zone).dump()
        let r = h.run(["backup", "restore", bad.path])
        #expect(r.status == 1)
        #expect(r.err.contains("is not a ZIP archive"))
        #expect(try Store(path: h.db, timeZone: h.zone).dump() == before)
    }
}

/// Hands out prepared lines as standard input.
final class LinesFeeder: @unchecked Sendable {
    private var lines: [String]
    private let lock = NSLock()
    init(_ lines: [String]) { self.lines = lines }
    func next() -> String? { lock.withLock { lines.isEmpty ? nil : lines.removeFirst() } }
}
