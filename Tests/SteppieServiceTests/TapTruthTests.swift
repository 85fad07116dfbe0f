import Foundation
import SteppieCore
import SteppieService
import SteppieStore
import SteppieTestSupport
import Synchronization
import Testing

/// Issue 24, class 2: what the child's page is told about a tap is what happened. With the
/// service's thread held past the bridge's 5 s (another process holding the database's write
/// lock), a tap answered 503 must never be applied later, and a tap the service had already
/// started is answered with its real result, however late.
@Suite(.serialized) struct TapTruthTests {
    @Test func aTapToldNotTakenIsNeverAppliedLater() throws {
        let f = ServiceFixture()
        #expect(f.run(["init", "--child", "Mina"]).status == 0)
        let (port, child) = try KioskHTTPTests.serve(f)
        let origin = "http://127.0.0.1:\(port)"
        // Another process takes the write lock and keeps it (busy timeout of the service: 10 s).
        let holder = try Connection(path: f.db)
        try holder.execute("BEGIN IMMEDIATE")
        var holding = true
        defer { if holding { try? holder.execute("ROLLBACK") } }

        let answers = Mutex<[Int]>([])
        let started = Date()
        var threads: [Thread] = []
        for _ in 0..<2 {
            // Two taps on done, no version: the second, if it ran, would complete the next activity.
            let t = Thread {
                let r = KioskHTTPTests.post(port, "/api/child/\(child)/done", body: "{}", origin: origin, timeout: 30)
                answers.withLock { $0.append(r?.status ?? -1) }
            }
            threads.append(t)
            t.start()
        }
        // The queued tap is withdrawn at the bridge's deadline and answered 503.
        #expect(waitUntil(timeout: 9) { answers.withLock { $0.contains(503) } })
        #expect(Date().timeIntervalSince(started) >= 4.5)
        // Let the database go: the tap already running finishes and is answered with its result.
        try holder.execute("COMMIT")
        holding = false
        #expect(waitUntil(timeout: 10) { answers.withLock { $0.count == 2 } })
        let statuses = answers.withLock { $0 }.sorted()
        #expect(statuses == [200, 503], "\(statuses)")

        // Whatever the page was told is what the database holds: one answered 200, one done saved.
        let store = try f.store()
        let mina = try store.resolveChild("Mina")
        let day = LocalDay(Date(), in: store.timeZone)
        #expect(try store.today(childId: mina.id, day: day).completedCount == statuses.filter { $0 == 200 }.count)
        // And stays so: the withdrawn tap does not run on a later turn of the loop.
        let state = try #require(KioskHTTPTests.get(port, "/api/child/\(child)/state"))
        #expect(state.status == 200)
        #expect(try store.today(childId: mina.id, day: day).completedCount == 1)
    }
}
