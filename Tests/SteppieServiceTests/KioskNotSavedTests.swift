import Foundation
import SteppieTestSupport
import Testing

/// With the disk full a tap on the child's page is not saved, and the page is told so (issue 24,
/// class 10): the tap's answer and every state after it carry `notice: "saveFailed"` and the
/// gentle "not saved" words, nothing is recorded, and the service's log says which child's tap
/// was lost and why. The full disk is real: the database lives on a 4 MiB tmpfs that a filler
/// file fills (root only, as mounting needs it).
@Suite(.serialized, .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
struct KioskNotSavedTests {
    @Test func aTapOnAFullDiskSaysNotSavedOnThePageAndInTheLog() throws {
        let f = ServiceFixture()
        let disk = f.directory + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        #expect(SpawnedProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", disk]) == 0)
        defer {
            f.process?.stop(SIGKILL)
            _ = SpawnedProcess.run("/bin/umount", ["-l", disk])
        }
        let env = ["STEPPIE_DB": disk + "/steppie.db"]
        #expect(f.run(["init", "--child", "Mina"], extra: env).status == 0)
        try f.start(["--output", "null", "--http", "127.0.0.1:0", "--locale", "en"], extra: env)
        _ = waitUntil(timeout: 5) { f.logText.contains("/child/") }
        let line = try #require(f.logText.split(separator: "\n").first { $0.contains("/child/") })
        let url = try #require(line.firstMatch(of: /http:\/\/127\.0\.0\.1:([0-9]+)\/child\/([0-9a-f-]{36})/))
        let port = try #require(UInt16(url.output.1)), child = String(url.output.2)
        let origin = "http://127.0.0.1:\(port)"

        func state(_ text: String?) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data((text ?? "").utf8)) as? [String: Any])
        }
        let first = try state(KioskHTTPTests.get(port, "/api/child/\(child)/state")?.body)
        #expect(first["notice"] == nil || first["notice"] is NSNull)

        // Fill the disk: the filler stops at ENOSPC.
        _ = SpawnedProcess.run("/bin/dd", ["if=/dev/zero", "of=\(disk)/filler", "bs=64k"])
        let tap = try #require(KioskHTTPTests.post(port, "/api/child/\(child)/done", body: "{\"version\":\(first["version"] as? Int ?? 0)}",
                                                   origin: origin))
        let answered = try state(tap.body)
        #expect(answered["notice"] as? String == "saveFailed", "the tap's answer: \(tap.status) \(tap.body)")
        let labels = answered["labels"] as? [String: String] ?? [:]
        #expect(labels["notSaved"]?.isEmpty == false, "\(labels)")
        #expect((answered["progress"] as? [String: Int])?["completed"] == 0)
        // A page that loads now (or a second page) is told the same.
        let reloaded = try state(KioskHTTPTests.get(port, "/api/child/\(child)/state")?.body)
        #expect(reloaded["notice"] as? String == "saveFailed")
        // The log names the child, the lost tap and why.
        #expect(waitUntil(timeout: 5) { f.logText.contains("Mina: a tap on the child's page was not saved") }, "\(f.logText)")
        #expect(f.logText.contains("full"), "\(f.logText)")

        // Room again: the next tap is saved and the notice is gone.
        try FileManager.default.removeItem(atPath: disk + "/filler")
        let again = try #require(KioskHTTPTests.post(port, "/api/child/\(child)/done", body: "{\"version\":\(reloaded["version"] as? Int ?? 0)}",
                                                     origin: origin))
        let saved = try state(again.body)
        #expect(again.status == 200 && (saved["notice"] == nil || saved["notice"] is NSNull), "\(again.body)")
        #expect((saved["progress"] as? [String: Int])?["completed"] == 1)
    }
}
