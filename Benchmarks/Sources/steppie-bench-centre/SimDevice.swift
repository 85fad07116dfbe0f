import Foundation
import SteppieSync
import SteppieSyncHTTP

/// One simulated device: its identity and credential, the hub process it talks to, the children
/// it holds, its own log (sequence numbers, what the hub acknowledged) and its place in the feed.
/// Touched by one worker at a time for pushes and one for pulls (its lock guards the shared parts).
final class SimDevice: @unchecked Sendable {
    let index: Int
    let id = DeviceID(UUID())
    let hub: Int
    /// Its own two children (brought at its join), then the two of the next device (granted).
    var own: [SimChild] = []
    var credential = ""
    let lock = NSLock()
    // Guarded by `lock`:
    var clockWall: Int64 = 0
    var clockCounter: UInt32 = 0
    var nextSeq: UInt64 = 1
    var unacknowledged: [NumberedEntry] = []
    var due: [SyncEntry] = []
    var pushing = false
    var nextPushAt: UInt64 = 0
    // Pull state (one pull in flight at a time):
    var cursor: UInt64 = 0
    var copyAfter: String?
    var copies = 0
    /// The connection its last pull left open, for the next one.
    var pullLink: PullLink?
    /// Its pushes' connection, kept between them as the service keeps it.
    let keeper = SyncConnectionKeeper()

    init(index: Int, hub: Int) {
        self.index = index
        self.hub = hub
    }

    /// A hybrid timestamp of this device (`HybridClock`'s rule: the wall time, or the last one
    /// with the counter raised).
    func stamp() -> HybridTimestamp {
        lock.lock()
        defer { lock.unlock() }
        let wall = wallMilliseconds()
        if wall > clockWall { clockWall = wall; clockCounter = 0 } else { clockCounter += 1 }
        return HybridTimestamp(wall: clockWall, counter: clockCounter, device: id)
    }

    /// The registers a real device's join brings for one child: the child, its set, six routines.
    func registers(of child: SimChild) -> [SyncEntry] {
        var out: [SyncEntry] = []
        func change(_ entity: SyncEntity, _ record: String, _ field: String, _ value: SyncValue) {
            out.append(.change(FieldChange(entity: entity, record: record, child: child.id, field: field, value: value, stamp: stamp())))
        }
        let created = SyncValue.string("2026-12-01T07:00:00+09:00")
        change(.child, child.id, "name", .string(child.name))
        change(.child, child.id, "createdAt", created)
        change(.routineSet, child.set, "child", .string(child.id))
        change(.routineSet, child.set, "name", .object(["en": .string("Morning")]))
        change(.routineSet, child.set, "startTime", .string("08:00"))
        change(.routineSet, child.set, "createdAt", created)
        for (k, routine) in child.routines.enumerated() {
            change(.routine, routine, "set", .string(child.set))
            change(.routine, routine, "title", .object(["en": .string(SimChild.titles[k])]))
            change(.routine, routine, "icon", .object(["emoji": .string("⭐")]))
            change(.routine, routine, "color", .string("color.card.sky"))
            change(.routine, routine, "time", .string(String(format: "08:%02d", k * 10)))
            change(.routine, routine, "active", .bool(true))
            change(.routine, routine, "createdAt", created)
        }
        change(.routineSet, child.set, "order", .array(child.routines.map { .string($0) }))
        change(.child, child.id, "activeSet", .string(child.set))
        return out
    }

    /// Numbers what is due and returns every entry not yet acknowledged (at most a push's worth).
    func takeBatch() -> [NumberedEntry] {
        lock.lock()
        defer { lock.unlock() }
        for entry in due {
            unacknowledged.append(NumberedEntry(seq: nextSeq, entry: entry))
            nextSeq += 1
        }
        due.removeAll()
        return Array(unacknowledged.prefix(SyncProtocol.maxBatchEntries))
    }

    func acknowledge(_ seq: UInt64) {
        lock.lock()
        unacknowledged.removeAll { $0.seq <= seq }
        lock.unlock()
    }
}

/// A simulated child: ids made here, as a device makes them.
struct SimChild: Sendable {
    static let titles = ["Wake up", "Wash hands", "Breakfast", "Brush teeth", "Get dressed", "Pack the bag"]
    let id = UUID().uuidString.lowercased()
    let set = UUID().uuidString.lowercased()
    let routines = (0..<6).map { _ in UUID().uuidString.lowercased() }
    let name: String
}
