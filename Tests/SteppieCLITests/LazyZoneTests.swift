import Foundation
import Testing
@testable import SteppieCLI

/// `TZ` is checked against the system's zone database at start and turned into a `TimeZone` (ICU)
/// only when a command first needs the zone (issue 16: `--help` never does).
@Suite struct LazyZoneTests {
    @Test func theZoneDatabaseAnswersWhetherANameIsAZone() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("zoneinfo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/Asia", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("TZif".utf8).write(to: URL(fileURLWithPath: root + "/Asia/Seoul"))
        try Data("TZif".utf8).write(to: URL(fileURLWithPath: root + "/UTC"))
        #expect(LazyZone.systemKnows("Asia/Seoul", root: root) == true)
        #expect(LazyZone.systemKnows("UTC", root: root) == true)
        for bad in ["Mars/Olympus_Mons", "Asia", "Asia/", "/Asia/Seoul", "../zoneinfo/UTC", "Asia/../UTC", "", "Asia/Seoul ", "KST-9"] {
            #expect(LazyZone.systemKnows(bad, root: root) == false, "\(bad)")
        }
        #expect(LazyZone.systemKnows("Asia/Seoul", root: root + "/missing") == nil)
    }

    @Test func theZoneIsMadeOnceWhenFirstAskedFor() {
        let made = Counter()
        let zone = LazyZone { made.add(); return TimeZone(identifier: "Asia/Seoul")! }
        #expect(made.value == 0)
        #expect(zone.value.identifier == "Asia/Seoul")
        #expect(zone.value.identifier == "Asia/Seoul")
        #expect(made.value == 1)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func add() { lock.lock(); n += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return n }
    }
}
