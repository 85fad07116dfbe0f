import Foundation
import SteppieTestSupport
import Testing

/// Issue 27's randomized run against real processes: a hub and three devices, each a `steppie
/// serve` with its own database, under seeded random presses, undos, corrections, title and order
/// edits, deletes and restores, new sets, activations, schedules and profile changes, while
/// devices are SIGKILLed and started again with clocks skewed up to ±3 minutes and the hub is
/// SIGKILLed mid-run. At the end (clocks right, everything started): the same digest and the
/// same tables everywhere, every event everywhere, and no deleted routine shown.
@Suite(.serialized) struct SyncRandomProcessTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["STEPPIE_SYNC_SEED"].flatMap { UInt64($0) } ?? 20_261_203
    static let operations = ProcessInfo.processInfo.environment["STEPPIE_SYNC_OPERATIONS"].flatMap { Int($0) } ?? 1_000

    @Test(arguments: HubKind.available)
    func aHubAndThreeDevicesConvergeUnderAThousandRandomOperations(_ kind: HubKind) throws {
        var rng = SeededRandom(seed: Self.seed)
        let hub = try SyncHubUnderTest(kind)
        let office = hub.office
        let devices = [SyncNode(), SyncNode(), SyncNode()]
        // Node 0 is the hub's side: the household hub's own service, or the centre's office device.
        let nodes = [office] + devices
        defer { hub.stop(); devices.forEach { $0.stop() } }
        var skews = [Double](repeating: 0, count: nodes.count)
        func now(_ i: Int) -> String { SyncProcessTests.instant(skews[i]) }
        let port = try #require(LoopbackPort.one())
        #expect(office.sh("$S init --child Mina --template morning").status == 0)
        #expect(office.sh("$S children add Joon --template school").status == 0)
        try hub.start(port: port)
        let (url, fingerprint) = try #require(hub.address(), "hub log: \(hub.log)")
        for (n, device) in devices.enumerated() {
            let code = try #require(SyncProcessTests.code(hub.invite()))
            #expect(device.sh("$S sync join \(url) --code \(code) --fingerprint \(fingerprint) --name device\(n)").status == 0)
            try device.start()
        }
        var events = 0, done = 0, restarts = 0
        var known: [String: (routines: [String], sets: [String])] = [:]
        for _ in 0..<Self.operations {
            let i = Int.random(in: 0..<nodes.count, using: &rng)
            let node = nodes[i]
            let child = Bool.random(using: &rng) ? "Mina" : "Joon"
            let running = node.service != nil
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<3 where i > 0:
                // A device dies and comes back, maybe with its clock off by up to 3 minutes.
                node.service?.stop(SIGKILL)
                node.service = nil
                skews[i] = Bool.random(using: &rng) ? Double(Int.random(in: -180...180, using: &rng)) : 0
                if Bool.random(using: &rng) { try node.start(now: now(i)) }
                restarts += 1
                continue
            case 3 where i == 0:
                hub.stopHub(SIGKILL)
                try hub.start(port: port)
                restarts += 1
                continue
            case 4..<35:
                let r = node.sh("$S complete --child \(child)\(running ? "" : " --no-service")", now: now(i))
                if r.status == 0 { events += 1 }
                continue
            case 35..<43:
                let r = node.sh("$S undo --child \(child)\(running ? "" : " --no-service")", now: now(i))
                if r.status == 0 { events += 1 }
                continue
            default: break
            }
            // A guardian's edit: on a routine or set of this node's own database (its lists read
            // again every few edits: a spawned sqlite3 each time would double the run's time).
            let key = "\(i)/\(child)"
            if known[key] == nil || Int.random(in: 0..<8, using: &rng) == 0 {
                let routines = node.h.query("""
                    SELECT r.id FROM routines r JOIN routine_sets s ON s.id = r.routine_set_id JOIN children c ON c.id = s.child_id
                    WHERE c.display_name = '\(child)' ORDER BY r.id
                    """).split(separator: "\n").map(String.init)
                let sets = node.h.query("""
                    SELECT s.id FROM routine_sets s JOIN children c ON c.id = s.child_id WHERE c.display_name = '\(child)'
                    AND s.deleted_at IS NULL ORDER BY s.id
                    """).split(separator: "\n").map(String.init)
                known[key] = (routines, sets)
            }
            let routines = known[key]?.routines ?? [], sets = known[key]?.sets ?? []
            guard let routine = routines.randomElement(using: &rng), let set = sets.randomElement(using: &rng) else { continue }
            let command: String
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: command = "history set --child \(child) --json \(SyncProcessTests.instant(skews[i]).prefix(10)) \(routine) \(Bool.random(using: &rng) ? "done" : "not-done")"
            case 1: command = "routine edit \(routine) --title-en 'Task \(Int.random(in: 0..<1000, using: &rng))'"
            case 2: command = "routine move \(routine) --to \(Int.random(in: 1...4, using: &rng))"
            case 3: command = "routine delete \(routine)"
            case 4: command = "routine restore \(routine)"
            case 5: command = "set activate \(set)"
            case 6: command = "set create --child \(child) --template \(["morning", "school", "bedtime"].randomElement(using: &rng) ?? "school")"
            case 7: command = "profile set --child \(child) --pitch \(Int.random(in: 0...99, using: &rng))"
            case 8: command = "schedule set --child \(child) --set \(set) --days \(["mon", "tue", "wed", "sat"].randomElement(using: &rng) ?? "mon") --from \(String(format: "%02d", Int.random(in: 6...20, using: &rng))):00"
            default: command = "routine edit \(routine) --icon \(["toothbrush", "shirt", "bowl", "backpack"].randomElement(using: &rng) ?? "shirt")"
            }
            let r = node.sh("$S " + command, now: now(i))
            if r.status == 0 {
                done += 1
                if command.hasPrefix("history set"), r.out.contains("\"changed\" : true") { events += 1 }
            }
        }
        // Clocks right, everything running: everything converges.
        for (i, node) in nodes.enumerated() where i > 0 {
            skews[i] = 0
            node.stop()
            try node.start()
        }
        let everyone: [any SyncDigesting] = hub.digestNodes + devices
        let took = SyncProcessTests.converge(everyone, timeout: 60)
        #expect(took != nil, "digests: \(everyone.map { $0.digest() })")
        let tables = office.tables()
        for device in devices {
            let mine = device.tables()
            let differ = Set(mine.split(separator: "\n")).symmetricDifference(tables.split(separator: "\n")).sorted()
            #expect(mine == tables, "differ: \(differ.prefix(6))")
        }
        #expect(hub.count(.events(kind: nil)) == String(events), "every press, undo and correction, everywhere")
        for device in (kind == .centre ? nodes : devices) { #expect(device.h.query("SELECT COUNT(*) FROM sync_outbox") == "0") }
        // No routine whose last word is "deleted" is shown anywhere.
        let deleted = hub.query(household: "SELECT record FROM sync_registers WHERE entity = 'routine' AND field = 'deleted' AND value = 'true'",
                                centre: "SELECT record FROM registers WHERE entity = 'routine' AND field = 'deleted' AND value = 'true'")
            .split(separator: "\n").map(String.init)
        for node in nodes {
            for id in deleted { #expect(node.h.query("SELECT deleted_at IS NOT NULL FROM routines WHERE id = '\(id)'") == "1") }
            #expect(node.h.query("PRAGMA integrity_check") == "ok")
        }
        #expect(done > Self.operations / 4 && events > Self.operations / 10, "\(done) edits and \(events) events taken")
        print("sync random run (\(kind)): \(Self.operations) operations, \(done) edits, \(events) events, \(restarts) restarts, converged in \(took ?? -1) s")
    }
}
